// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Many short threads, one after another, for dio top's rows of exited
 * threads: each of T threads, named "worker", makes one pread64 of a byte
 * and ends; with "renamed", it renames itself "other" first, so that under
 * --comm worker its exit is not traced. The main thread makes no pread64,
 * and lives a second after the last thread.
 *
 * usage: topthreads DIR T [renamed]
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static int fd, renamed;

static void *worker(void *unused)
{
	char c;

	(void)unused;
	prctl(PR_SET_NAME, "worker");
	if (pread(fd, &c, 1, 0) != 1)
		perror("pread");
	if (renamed)
		prctl(PR_SET_NAME, "other");
	return NULL;
}

int main(int argc, char **argv)
{
	char path[4096];
	long n;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "renamed"))) {
		fprintf(stderr, "usage: topthreads DIR T [renamed]\n");
		return 2;
	}
	n = atol(argv[2]);
	renamed = argc == 4;
	snprintf(path, sizeof(path), "%s/data", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "x", 1) != 1) {
		perror(path);
		return 1;
	}
	for (long i = 0; i < n; i++) {
		pthread_t th;

		if (pthread_create(&th, NULL, worker, NULL) || pthread_join(th, NULL)) {
			fprintf(stderr, "topthreads: thread %ld failed\n", i);
			return 1;
		}
	}
	close(fd);
	/* a second more for dio top's frames to see every thread gone */
	sleep(1);
	return 0;
}
