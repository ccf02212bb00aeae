/* SPDX-License-Identifier: GPL-2.0-or-later */
/* msync(2) flags */
XLAT(MS_ASYNC)
XLAT(MS_INVALIDATE)
XLAT(MS_SYNC)
