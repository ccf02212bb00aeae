/* SPDX-License-Identifier: GPL-2.0-or-later */
/* errno names for analyzer findings, from the same table the console uses (xlat/errnos.h). */
#ifndef DIO_ANALYZER_ERRNAMES_H
#define DIO_ANALYZER_ERRNAMES_H

/* "ENOENT" for 2; NULL for a number the table does not know. The string is static. */
const char *errno_name(int err);

#endif
