/* SPDX-License-Identifier: GPL-2.0-or-later */
/* renameat2(2) flags */
XLAT(RENAME_NOREPLACE)
XLAT(RENAME_EXCHANGE)
XLAT(RENAME_WHITEOUT)
