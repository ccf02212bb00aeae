# SPDX-License-Identifier: GPL-2.0-or-later
# Flag and constant tables, included by engine/xlat.c; one constant per line.
EXTRA_DIST += xlat/open_flags.h xlat/at_flags.h xlat/whence.h xlat/fcntl_cmds.h \
	xlat/rename_flags.h xlat/access_modes.h xlat/falloc_flags.h xlat/fadvise.h \
	xlat/flock_ops.h xlat/mmap_prot.h xlat/mmap_flags.h xlat/msync_flags.h xlat/sfr_flags.h \
	xlat/rwf_flags.h xlat/xattr_flags.h xlat/statx_mask.h xlat/close_range_flags.h \
	xlat/splice_flags.h xlat/uring_enter_flags.h xlat/uring_ops.h xlat/errnos.h
