/* SPDX-License-Identifier: GPL-2.0-or-later */
XLAT(MS_ASYNC)
XLAT(MS_INVALIDATE)
XLAT(MS_SYNC)
