/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splice(2) flags */
XLAT(SPLICE_F_MOVE)
XLAT(SPLICE_F_NONBLOCK)
XLAT(SPLICE_F_MORE)
XLAT(SPLICE_F_GIFT)
