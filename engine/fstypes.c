// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * File system types by device, from /proc/self/mountinfo: what analyzers ask
 * to tell a file in memory (tmpfs, proc) from one on a disk.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dio/event.h>
#include "fstypes.h"

#define LINE_MAX_LEN	8192
#define TYPE_MAX	64

/* "MAJ:MIN=" of dev, as the text holds it */
static int dev_key(uint32_t dev, char *key, size_t len)
{
	return snprintf(key, len, "%u:%u=", DIO_DEV_MAJOR(dev), DIO_DEV_MINOR(dev));
}

int fstypes__find(const char *text, uint32_t dev, char *buf, size_t len)
{
	char key[32];
	int klen = dev_key(dev, key, sizeof(key));

	if (len)
		buf[0] = 0;
	for (const char *p = text; p && *p; p += strcspn(p, " "), p += !!*p) {
		size_t n;

		if (strncmp(p, key, (size_t)klen))
			continue;
		p += klen;
		n = strcspn(p, " ");
		/*
		 * the text comes from a trace file or a server: a type that is not a
		 * kernel name (control characters, escapes) is not known, and never
		 * reaches a report
		 */
		for (size_t i = 0; i < n; i++)
			if (p[i] < '!' || p[i] == '=' || p[i] > '~')
				return -ENOENT;
		snprintf(buf, len, "%.*s", (int)n, p);
		return 0;
	}
	return -ENOENT;
}

/* the type of a mountinfo line's file system and its device, or -EINVAL */
static int parse_line(char *line, uint32_t *dev, char *type, size_t tlen)
{
	unsigned int maj, min;
	char *sep = strstr(line, " - "), *t;
	size_t n;

	/* mount id, parent id, MAJ:MIN, ...; the optional fields end at " - " */
	if (!sep || sscanf(line, "%*u %*u %u:%u ", &maj, &min) != 2 || maj > DIO_DEV_MAJOR_MAX ||
	    min > DIO_DEV_MINOR_MAX)
		return -EINVAL;
	t = sep + 3;
	n = strcspn(t, " \n");
	if (!n || n >= tlen)
		return -EINVAL;
	memcpy(type, t, n);
	type[n] = 0;
	/* a type is a kernel name: anything else is not kept (it would break the text) */
	for (size_t i = 0; i < n; i++)
		if (type[i] <= ' ' || type[i] == '=' || type[i] > '~')
			return -EINVAL;
	*dev = DIO_DEV(maj, min);
	return 0;
}

int fstypes__read(FILE *mountinfo, char *buf, size_t len)
{
	char *line = malloc(LINE_MAX_LEN), type[TYPE_MAX], key[32], have[TYPE_MAX];
	size_t off = 0;
	int n = 0, err = 0;

	if (!line)
		return -ENOMEM;
	if (len)
		buf[0] = 0;
	while (fgets(line, LINE_MAX_LEN, mountinfo)) {
		uint32_t dev;
		int klen, c;

		/* a line longer than the buffer (paths of 4 KiB): its rest is no line */
		if (!strchr(line, '\n') && !feof(mountinfo)) {
			while ((c = fgetc(mountinfo)) != EOF && c != '\n')
				;
			continue;
		}
		if (parse_line(line, &dev, type, sizeof(type)) ||
		    !fstypes__find(buf, dev, have, sizeof(have)))
			continue;
		klen = dev_key(dev, key, sizeof(key));
		if (off + (off > 0) + (size_t)klen + strlen(type) + 1 > len)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s", off ? " " : "", key, type);
		n++;
	}
	if (ferror(mountinfo))
		err = -EIO;
	free(line);
	return err ? err : n;
}
