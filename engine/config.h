/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libconfig file: every command-line option plus one group per module. */
#ifndef DIO_ENGINE_CONFIG_H
#define DIO_ENGINE_CONFIG_H

#include <stddef.h>
#include "options.h"

/*
 * Read FILE into o. Unknown keys and bad values are errors: -EINVAL with
 * "FILE:LINE: message" in err. A missing or unreadable file: -errno with the
 * file name and the reason.
 */
int config_load(const char *file, struct options *o, char *err, size_t errlen);

#endif
