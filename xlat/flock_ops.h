/* SPDX-License-Identifier: GPL-2.0-or-later */
/* flock(2) operations */
XLAT(LOCK_SH)
XLAT(LOCK_EX)
XLAT(LOCK_NB)
XLAT(LOCK_UN)
