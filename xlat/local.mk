# SPDX-License-Identifier: GPL-2.0-or-later
# Flag and constant tables, included by engine/xlat.c; one constant per line.
EXTRA_DIST += \
	xlat/access_modes.h \
	xlat/at_flags.h \
	xlat/close_range_flags.h \
	xlat/dup3_flags.h \
	xlat/errnos.h \
	xlat/fadvise.h \
	xlat/falloc_flags.h \
	xlat/fcntl_cmds.h \
	xlat/fd_flags.h \
	xlat/flock_ops.h \
	xlat/lease_types.h \
	xlat/mmap_flags.h \
	xlat/mmap_prot.h \
	xlat/mmap_types.h \
	xlat/mode_types.h \
	xlat/msync_flags.h \
	xlat/open_flags.h \
	xlat/rename_flags.h \
	xlat/rwf_flags.h \
	xlat/seals.h \
	xlat/sfr_flags.h \
	xlat/splice_flags.h \
	xlat/statx_mask.h \
	xlat/unlink_flags.h \
	xlat/uring_enter_flags.h \
	xlat/uring_ops.h \
	xlat/whence.h \
	xlat/xattr_flags.h
