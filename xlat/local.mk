# SPDX-License-Identifier: GPL-2.0-or-later
# Flag and constant tables, included by engine/xlat.c; one constant per line.
EXTRA_DIST += $(wildcard $(top_srcdir)/xlat/*.h)
