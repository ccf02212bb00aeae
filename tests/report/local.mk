# SPDX-License-Identifier: GPL-2.0-or-later
# Browser tests of dio report's pages. browser.py opens a page in Debian's headless chromium
# over the DevTools protocol (Python's standard library only) and checks it: console errors,
# uncaught exceptions, network requests, values, clicks, a screenshot that is not blank.
# browser-selftest.sh proves on fixture pages that it fails when it should. SKIP (77) only
# where chromium is not installed.
REPORT_TESTS = tests/report/browser-selftest.sh
TESTS += $(REPORT_TESTS)
EXTRA_DIST += $(REPORT_TESTS) tests/report/browser.py tests/report/model.py tests/report/offsets.py \
	tests/report/fixtures/good.html tests/report/fixtures/throws.html \
	tests/report/fixtures/console-error.html tests/report/fixtures/blank.html \
	tests/report/fixtures/network.html tests/report/fixtures/hang.html
# the screenshot of the demo's page that tests/integration/report-demo.sh takes
CLEANFILES += tests/report/demo-report.png
