// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the trace file reader: any bytes, read as a trace
 * file, must give an error or records, never a crash, a hang or a read out of
 * bounds. Every record handed out is checked against the reader's promise
 * (a header, a size that covers it).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <dio/event.h>
#include "engine/tracefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct tf_reader *r;
	char err[512];
	const void *rec;
	size_t n;
	int fd;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/dio-fuzz.%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
	r = tf_reader__open(path, err, sizeof(err));
	if (!r)
		return 0;
	while (tf_reader__next(r, &rec, &n) == 1) {
		const struct dio_ev_hdr *h = rec;

		if (n < sizeof(*h) || h->size != n)
			abort();
	}
	tf_reader__close(r);
	return 0;
}
