/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lease types: fcntl F_SETLEASE/F_GETLEASE, values */
XLAT(F_RDLCK)
XLAT(F_WRLCK)
XLAT(F_UNLCK)
