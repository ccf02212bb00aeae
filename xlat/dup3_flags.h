/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dup3(2) flags */
XLAT(O_CLOEXEC)
