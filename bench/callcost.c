// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cost of one traced system call, without fio's own noise: lseek + read of
 * 4 KiB on a tmpfs file in a tight loop. Prints the best (lowest) mean time per
 * call in ns over REPS rounds of N calls; the best round is the one least
 * disturbed by the rest of the machine.
 *
 * usage: callcost FILE [REPS [N]]
 *
 * On stderr it says how many calls it made on FILE, so that a test can count
 * them in a recording (tests/integration/record-flood.sh).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK	4096
#define BLOCKS	256

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	static char buf[BLOCK];
	int reps = argc > 2 ? atoi(argv[2]) : 20, n = argc > 3 ? atoi(argv[3]) : 100000;
	double best = 1e18;
	int fd;

	if (argc < 2 || reps <= 0 || n <= 0) {
		fprintf(stderr, "usage: callcost FILE [REPS [N]]\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < BLOCKS; i++) {
		if (pwrite(fd, buf, BLOCK, (off_t)i * BLOCK) != BLOCK) {
			perror("pwrite");
			return 1;
		}
	}
	for (int r = 0; r < reps; r++) {
		double t0 = now_ns(), t;

		for (int i = 0; i < n; i++) {
			/* a fixed pseudo-random walk over the blocks, as fio's randread */
			if (lseek(fd, (off_t)(i * 7919 % BLOCKS) * BLOCK, SEEK_SET) < 0 ||
			    read(fd, buf, BLOCK) != BLOCK) {
				perror("read");
				return 1;
			}
		}
		t = (now_ns() - t0) / n / 2;
		if (t < best)
			best = t;
	}
	close(fd);
	unlink(argv[1]);
	printf("%.1f\n", best);
	fprintf(stderr, "callcost: %d pwrite64, %lld lseek, %lld read calls on %s\n", BLOCKS,
		(long long)reps * n, (long long)reps * n, argv[1]);
	return 0;
}
