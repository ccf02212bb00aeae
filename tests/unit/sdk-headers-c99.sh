#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The installed headers compile alone under -std=c99 -pedantic too.
STDS=c99 exec sh "${top_srcdir:-.}/tests/unit/sdk-headers.sh"
