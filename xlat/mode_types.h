/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file types: values of mode & S_IFMT (mknod) */
XLAT(S_IFREG)
XLAT(S_IFDIR)
XLAT(S_IFCHR)
XLAT(S_IFBLK)
XLAT(S_IFIFO)
XLAT(S_IFLNK)
XLAT(S_IFSOCK)
