// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reads of a 16 MiB file, DIR/data, in a poor and a good pattern, for the
 * access-pattern analyzer; and small reads spread over many files.
 *
 *   buggy  three passes of 2048 preads of 512 bytes at 100 bytes into the
 *          pages of the first 8 MiB, in a scrambled order (small, random,
 *          and the second and third pass read the pages again), then 1024
 *          reads of 6000 bytes from 8 MiB on (large, sequential, misaligned).
 *   fixed  the whole file in 2048 reads of 8 KiB, in order.
 *   many   300 files of 32 KiB, DIR/m000 to DIR/m299, each read in order in
 *          preads of 512 bytes; DIR/m000 twice, through a new fd (small
 *          requests on 300 files, the most on DIR/m000).
 *
 * It counts its requests by the analyzer's documented rules (small: under
 * 4096 bytes; random: not starting where the previous request on the fd
 * ended, the first one unless at 0; misaligned: 4096 bytes or more with an
 * offset or size off a multiple of 4096; read again: bytes in 4 KiB pages read
 * before, but for the rest of the page the previous request stopped in) and
 * prints "pid PID requests N small S random R misaligned M read B reread RR".
 *
 * usage: pattern buggy|fixed|many DIR
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "truth.h"

#define MIB		(1024 * 1024)
#define FILE_SIZE	(16 * MIB)
#define PAGE		4096
#define PAGES		(FILE_SIZE / PAGE)
#define MANY		300		/* files of the many mode */
#define MANY_SIZE	(32 * 1024)

static struct {
	uint64_t requests, small, random, misaligned, bytes, reread;
	uint64_t end;		/* where the previous request ended */
	int any;		/* there was a previous request */
	uint8_t seen[PAGES / 8];
} c;

static void count(uint64_t off, uint64_t size, uint64_t got)
{
	int seq = c.any ? off == c.end : off == 0;

	c.requests++;
	c.bytes += got;
	c.small += size < PAGE;
	c.random += !seq;
	c.misaligned += size >= PAGE && (off % PAGE || size % PAGE);
	for (uint64_t pg = off / PAGE; pg * PAGE < off + got; pg++) {
		uint64_t lo = pg * PAGE > off ? pg * PAGE : off;
		uint64_t hi = (pg + 1) * PAGE < off + got ? (pg + 1) * PAGE : off + got;

		if ((c.seen[pg / 8] & (1 << (pg % 8))) && !(seq && pg == off / PAGE && off % PAGE))
			c.reread += hi - lo;
		c.seen[pg / 8] |= (uint8_t)(1 << (pg % 8));
	}
	c.end = off + got;
	c.any = 1;
}

static char buf[8192];

static void pread_counted(int fd, size_t size, off_t off)
{
	must(pread(fd, buf, size, off) == (ssize_t)size, "pread");
	count((uint64_t)off, size, size);
}

static void read_counted(int fd, size_t size)
{
	off_t off = lseek(fd, 0, SEEK_CUR);

	must(read(fd, buf, size) == (ssize_t)size, "read");
	count((uint64_t)off, size, size);
}

/* the many mode: its counts by the same rules, file by file */
static void many(const char *dir)
{
	char path[PATH_MAX + 16];

	for (int i = 0; i < MANY; i++) {
		snprintf(path, sizeof(path), "%s/m%03d", dir, i);
		for (int pass = 0; pass < (i ? 1 : 2); pass++) {
			int fd = open(path, O_RDWR | O_CREAT, 0644);

			must(fd >= 0, path);
			must(!ftruncate(fd, MANY_SIZE), "ftruncate");
			for (int off = 0; off < MANY_SIZE; off += 512) {
				must(pread(fd, buf, 512, off) == 512, "pread");
				c.requests++;
				c.small++;
				c.bytes += 512;
				c.reread += pass ? 512 : 0;
			}
			must(!close(fd), "close");
		}
	}
}

int main(int argc, char **argv)
{
	char path[PATH_MAX + 16];
	int fd, buggy;

	if (argc != 3 || (strcmp(argv[1], "buggy") && strcmp(argv[1], "fixed") &&
			  strcmp(argv[1], "many"))) {
		fprintf(stderr, "usage: pattern buggy|fixed|many DIR\n");
		return 2;
	}
	if (!strcmp(argv[1], "many")) {
		many(argv[2]);
		goto out;
	}
	buggy = !strcmp(argv[1], "buggy");
	snprintf(path, sizeof(path), "%s/data", argv[2]);
	/* a sparse file: no write requests of this process to count */
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	must(fd >= 0, path);
	must(!ftruncate(fd, FILE_SIZE), "ftruncate");
	if (buggy) {
		for (int pass = 0; pass < 3; pass++)
			for (int i = 0; i < 2048; i++)
				pread_counted(fd, 512, (off_t)((i * 7919) % 2048) * PAGE + 100);
		must(lseek(fd, 8 * MIB, SEEK_SET) == 8 * MIB, "lseek");
		for (int i = 0; i < 1024; i++)
			read_counted(fd, 6000);
	} else {
		for (int i = 0; i < FILE_SIZE / 8192; i++)
			read_counted(fd, 8192);
	}
	must(!close(fd), "close");
out:
	printf("pid %d requests %llu small %llu random %llu misaligned %llu read %llu reread %llu\n",
	       (int)getpid(), (unsigned long long)c.requests, (unsigned long long)c.small,
	       (unsigned long long)c.random, (unsigned long long)c.misaligned,
	       (unsigned long long)c.bytes, (unsigned long long)c.reread);
	return 0;
}
