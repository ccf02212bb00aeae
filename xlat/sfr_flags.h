/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sync_file_range(2) flags */
XLAT(SYNC_FILE_RANGE_WAIT_BEFORE)
XLAT(SYNC_FILE_RANGE_WRITE)
XLAT(SYNC_FILE_RANGE_WAIT_AFTER)
