/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unlinkat(2) flags */
XLAT(AT_REMOVEDIR)
