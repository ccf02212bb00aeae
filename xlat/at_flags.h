/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * AT_* flags of linkat, newfstatat, statx, fchownat, utimensat and faccessat2.
 * 0x200 is AT_EACCESS here (faccessat2); unlinkat's AT_REMOVEDIR has its own table.
 */
XLAT(AT_SYMLINK_NOFOLLOW)
XLAT(AT_EACCESS)
XLAT(AT_SYMLINK_FOLLOW)
XLAT(AT_NO_AUTOMOUNT)
XLAT(AT_EMPTY_PATH)
XLAT(AT_STATX_FORCE_SYNC)
XLAT(AT_STATX_DONT_SYNC)
XLAT(AT_RECURSIVE)
