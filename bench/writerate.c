// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How many records a second dio record's writer keeps without dropping one:
 * the records of a trace file (a recording of the workload of interest) are
 * handed to the trace file writer as the ring-buffer consumer hands them, at
 * a fixed rate, for a few seconds, in drop mode as dio record runs it. The
 * caller paces itself on one CPU; the writer thread packs and compresses on
 * whatever CPU the scheduler gives it. Prints one line: offered and kept
 * records a second, dropped records, bytes a record on disk, the writer's CPU
 * time a record.
 *
 * usage: writerate TRACE OUT MRECS_PER_S [SECONDS [LEVEL]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dio/event.h>
#include "engine/tracefile.h"

#define MAX_BYTES (512u << 20)

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct tf_writer_time wt;
	struct tf_reader *r;
	struct tf_writer *w;
	const void *rec;
	char err[512];
	size_t size, len = 0, nrec = 0, pos = 0;
	uint8_t *buf;
	double rate, secs, t0, el;
	uint64_t sent = 0, dropped;
	int level;

	if (argc < 4 || (rate = atof(argv[3]) * 1e6) <= 0) {
		fprintf(stderr, "usage: writerate TRACE OUT MRECS_PER_S [SECONDS [LEVEL]]\n");
		return 2;
	}
	secs = argc > 4 ? atof(argv[4]) : 3;
	level = argc > 5 ? atoi(argv[5]) : 1;
	r = tf_reader__open(argv[1], err, sizeof(err));
	buf = malloc(MAX_BYTES);
	if (!r || !buf) {
		fprintf(stderr, "writerate: %s\n", r ? "out of memory" : err);
		return 1;
	}
	while (tf_reader__next(r, &rec, &size) == 1 && len + size <= MAX_BYTES) {
		memcpy(buf + len, rec, size);
		len += size;
		nrec++;
	}
	tf_reader__close(r);
	/* the level given for every block: what that level keeps */
	w = tf_writer__open(argv[2], level, "format=dio-trace\n", TF_W_DROP | TF_W_FIXED);
	if (!nrec || !w) {
		fprintf(stderr, "writerate: %s\n", nrec ? "cannot create the output" : "no records");
		return 1;
	}
	t0 = now();
	while ((el = now() - t0) < secs) {
		/* catch up with the rate in batches, as the consumer does after a wakeup */
		uint64_t due = (uint64_t)(el * rate);

		while (sent < due) {
			uint16_t n;

			memcpy(&n, buf + pos + 2, sizeof(n));
			tf_writer__add(w, buf + pos, n);
			pos += n;
			if (pos >= len)
				pos = 0;
			sent++;
		}
		tf_writer__tick(w, 1000);
	}
	el = now() - t0;
	dropped = tf_writer__dropped(w);
	tf_writer__flush(w);
	tf_writer__time(w, &wt);
	size = tf_writer__bytes(w);
	if (tf_writer__close(w, NULL)) {
		fprintf(stderr, "writerate: writing %s failed\n", argv[2]);
		return 1;
	}
	printf("%8.2f %8.2f %10llu %8.1f %8.1f\n", sent / el / 1e6, (sent - dropped) / el / 1e6,
	       (unsigned long long)dropped, (double)size / (sent - dropped),
	       (double)(wt.compress_ns + wt.write_ns) / (sent - dropped));
	return 0;
}
