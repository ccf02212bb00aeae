/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fake hosts' create_output: what the host does, without the engine. */
#ifndef DIO_TEST_FAKE_CREATE_OUTPUT_H
#define DIO_TEST_FAKE_CREATE_OUTPUT_H

#include <errno.h>
#include <fcntl.h>

#include <string.h>

struct dio_ctx;
/* each fake host has its own, which keeps the last message */
static void fake_log(struct dio_ctx *ctx, const char *fmt, ...);

/* as the host: the file, or -errno after one logged line */
static int fake_create_output(struct dio_ctx *ctx, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	fd = -errno;
	fake_log(ctx, "cannot create output '%s': %s", path, strerror(-fd));
	return fd;
}

#endif
