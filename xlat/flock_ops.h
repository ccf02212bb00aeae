/* SPDX-License-Identifier: GPL-2.0-or-later */
XLAT(LOCK_SH)
XLAT(LOCK_EX)
XLAT(LOCK_NB)
XLAT(LOCK_UN)
