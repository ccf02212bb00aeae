#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The reader of dio's BPF ring (engine/ringrd.c) on a real one-page ring that
# wraps every few records: every record once, in order, whole; discarded ones
# skipped; a stop by the callback resumed after the refused record; the space
# given back
# (tests/integration/ringrd-check.c).
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
"$top_builddir/tests/integration/ringrd-check"
