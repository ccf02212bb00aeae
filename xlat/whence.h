/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lseek(2) whence: values */
XLAT(SEEK_SET)
XLAT(SEEK_CUR)
XLAT(SEEK_END)
XLAT(SEEK_DATA)
XLAT(SEEK_HOLE)
