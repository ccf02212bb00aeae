# SPDX-License-Identifier: GPL-2.0-or-later
dist_man_MANS += docs/dio.1
EXTRA_DIST += docs/dio.conf.example docs/performance.md docs/trace-format.md docs/json-schema.md \
	docs/json-schema.json
