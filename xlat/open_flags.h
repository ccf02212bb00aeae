/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * open(2) flags other than the access mode, which is a value (xlat_open_flags).
 * Multi-bit flags come before the bits they contain: O_SYNC is __O_SYNC|O_DSYNC,
 * O_TMPFILE is __O_TMPFILE|O_DIRECTORY.
 */
XLAT(O_CREAT)
XLAT(O_EXCL)
XLAT(O_NOCTTY)
XLAT(O_TRUNC)
XLAT(O_APPEND)
XLAT(O_NONBLOCK)
XLAT(O_SYNC)
XLAT(O_DSYNC)
XLAT(O_ASYNC)
XLAT(O_DIRECT)
/* glibc defines O_LARGEFILE as 0 on 64-bit; calls can still carry the kernel's bit */
XLAT_PAIR(0100000, "O_LARGEFILE")
XLAT(O_TMPFILE)
XLAT(O_DIRECTORY)
XLAT(O_NOFOLLOW)
XLAT(O_NOATIME)
XLAT(O_CLOEXEC)
XLAT(O_PATH)
