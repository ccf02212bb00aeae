/* SPDX-License-Identifier: GPL-2.0-or-later */
/* descriptor flags: fcntl F_GETFD/F_SETFD */
XLAT(FD_CLOEXEC)
