/* SPDX-License-Identifier: GPL-2.0-or-later */
/* close_range(2) flags */
XLAT(CLOSE_RANGE_UNSHARE)
XLAT(CLOSE_RANGE_CLOEXEC)
