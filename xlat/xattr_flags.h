/* SPDX-License-Identifier: GPL-2.0-or-later */
XLAT(XATTR_CREATE)
XLAT(XATTR_REPLACE)
