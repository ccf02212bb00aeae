/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The type of the file system on each device ("ext4", "xfs", "tmpfs"), read
 * from /proc/self/mountinfo when a trace begins and kept with a recording, so
 * that a replay on another machine names the same types. The text form, one
 * "MAJ:MIN=TYPE" per device separated by spaces, is what the recording's
 * metadata and host->info("fstypes") hold.
 */
#ifndef DIO_ENGINE_FSTYPES_H
#define DIO_ENGINE_FSTYPES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* room for the text: some 200 devices, more than a machine with many containers mounts */
#define FSTYPES_MAX	4096

/*
 * The devices and types of a mountinfo file (its third and the field after
 * " - "), each device once, into buf as text; a device that does not fit is
 * left out. Returns the number of devices written, or -errno (the file could
 * not be read).
 */
int fstypes__read(FILE *mountinfo, char *buf, size_t len);

/*
 * The type of dev (a kernel dev_t as in file tags: major << 20 | minor) in
 * text, into buf (snprintf semantics). 0, or -ENOENT with buf empty when
 * text (NULL: nothing known) does not name it.
 */
int fstypes__find(const char *text, uint32_t dev, char *buf, size_t len);

#endif
