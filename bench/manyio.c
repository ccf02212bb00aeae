// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Many threads on many files, for what dio report's page weighs and costs
 * when every series is full: T threads (a quarter named "compact-N", the rest
 * "worker-N") each make pwrite64 and pread64 calls of 512 bytes on F files
 * of their own in turn, walking up through each file, with an fdatasync every
 * 1024 calls, until the threads have made N calls between them.
 *
 * usage: manyio DIR T F N
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static const char *dir;
static long files, per_thread;

struct worker {
	pthread_t th;
	int id, background;
};

static void *run(void *arg)
{
	struct worker *w = arg;
	char name[16], buf[512];
	int *fd = calloc((size_t)files, sizeof(*fd));

	if (!fd)
		return NULL;
	snprintf(name, sizeof(name), "%s-%d", w->background ? "compact" : "worker", w->id);
	prctl(PR_SET_NAME, name);
	memset(buf, 'a' + w->id % 26, sizeof(buf));
	for (long f = 0; f < files; f++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/t%d-f%ld", dir, w->id, f);
		fd[f] = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd[f] < 0) {
			perror(path);
			exit(1);
		}
	}
	for (long i = 0; i < per_thread; i += 2) {
		int f = fd[(i / 2) % files];
		off_t off = (off_t)(i / 2 / files % 256) * (off_t)sizeof(buf);

		if (pwrite(f, buf, sizeof(buf), off) < 0 || pread(f, buf, sizeof(buf), off) < 0) {
			perror("manyio");
			exit(1);
		}
		if (i % 1024 == 1022)
			fdatasync(f);
	}
	for (long f = 0; f < files; f++)
		close(fd[f]);
	free(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker *w;
	long threads;

	if (argc != 5) {
		fprintf(stderr, "usage: manyio DIR THREADS FILES CALLS\n");
		return 2;
	}
	dir = argv[1];
	threads = atol(argv[2]);
	files = atol(argv[3]);
	if (threads < 1 || files < 1 || atol(argv[4]) < threads) {
		fprintf(stderr, "manyio: THREADS and FILES at least 1, CALLS at least THREADS\n");
		return 2;
	}
	per_thread = atol(argv[4]) / threads;
	w = calloc((size_t)threads, sizeof(*w));
	if (!w)
		return 1;
	for (long t = 0; t < threads; t++) {
		w[t].id = (int)t;
		w[t].background = t % 4 == 3;
		if (pthread_create(&w[t].th, NULL, run, &w[t])) {
			fprintf(stderr, "manyio: cannot start thread %ld\n", t);
			return 1;
		}
	}
	for (long t = 0; t < threads; t++)
		pthread_join(w[t].th, NULL);
	free(w);
	return 0;
}
