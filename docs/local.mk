# SPDX-License-Identifier: GPL-2.0-or-later
dist_man_MANS += docs/dio.1
EXTRA_DIST += docs/dio.conf.example docs/performance.md docs/trace-format.md docs/json-schema.md \
	docs/diagnosis.md docs/ci.md docs/report-demo.png docs/clickhouse.md \
	docs/json-schema.json docs/hacking.md
# the SDK: how to write an analyzer, and the example it walks through (built by
# tests/integration/sdk-example.sh against the installed headers; its .c is in
# tests/unit/local.mk)
EXTRA_DIST += docs/writing-an-analyzer.md docs/examples/fsync-rename/Makefile \
	docs/examples/fsync-rename/README.md
