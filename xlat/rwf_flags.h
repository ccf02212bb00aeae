/* SPDX-License-Identifier: GPL-2.0-or-later */
/* preadv2(2)/pwritev2(2) flags (linux/fs.h) */
XLAT(RWF_HIPRI)
XLAT(RWF_DSYNC)
XLAT(RWF_SYNC)
XLAT(RWF_NOWAIT)
XLAT(RWF_APPEND)
#ifdef RWF_NOAPPEND
XLAT(RWF_NOAPPEND)
#else
XLAT_PAIR(0x20, "RWF_NOAPPEND")	/* Linux 6.9 */
#endif
#ifdef RWF_ATOMIC
XLAT(RWF_ATOMIC)
#else
XLAT_PAIR(0x40, "RWF_ATOMIC")	/* Linux 6.11 */
#endif
#ifdef RWF_DONTCACHE
XLAT(RWF_DONTCACHE)
#else
XLAT_PAIR(0x80, "RWF_DONTCACHE")	/* Linux 6.14 */
#endif
