/* SPDX-License-Identifier: GPL-2.0-or-later */
/* setxattr(2) flags */
XLAT(XATTR_CREATE)
XLAT(XATTR_REPLACE)
