// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A workload whose storage calls dio top must count exactly:
 *
 *	topload DIR N B [STATUS]
 *
 * Two threads, "top-r1" and "top-r2", make N pread64 calls of B bytes each
 * on DIR/data (N*B bytes long) through one shared fd; the main thread makes
 * N pwrite64 calls of 4*B bytes on DIR/out and 3 pread64 calls on fd -1
 * that fail with EBADF. Halfway the threads pause a second, so that the
 * calls fall into more than one frame. The ids are written to descriptor 9
 * when it is open ("main PID", "reader TID NAME"), and the program exits with
 * STATUS (default 0) after closing its files.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

static long n, b;
static int data_fd;
static pthread_barrier_t half;

static void die(const char *what)
{
	fprintf(stderr, "topload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *reader(void *arg)
{
	char *buf = malloc(b);
	const char *name = arg;

	if (!buf)
		die("malloc");
	pthread_setname_np(pthread_self(), name);
	dprintf(9, "reader %ld %s\n", (long)syscall(SYS_gettid), name);
	for (long i = 0; i < n; i++) {
		if (i == n / 2)
			pthread_barrier_wait(&half);
		if (pread(data_fd, buf, b, (i % n) * b) != b)
			die("pread");
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	char path[4096], *buf;
	pthread_t th[2];
	int out;

	if (argc < 4 || (n = atol(argv[2])) < 2 || (b = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: topload DIR N B [STATUS]\n");
		return 2;
	}
	buf = calloc(4, b);
	if (!buf)
		die("calloc");
	snprintf(path, sizeof(path), "%s/data", argv[1]);
	data_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (data_fd < 0 || ftruncate(data_fd, n * b))
		die(path);
	snprintf(path, sizeof(path), "%s/out", argv[1]);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		die(path);
	dprintf(9, "main %d\n", getpid());
	pthread_barrier_init(&half, NULL, 3);
	if (pthread_create(&th[0], NULL, reader, "top-r1") ||
	    pthread_create(&th[1], NULL, reader, "top-r2"))
		die("pthread_create");
	for (long i = 0; i < n; i++) {
		if (i == n / 2) {
			pthread_barrier_wait(&half);
			sleep(1);
		}
		if (pwrite(out, buf, 4 * b, i * 4 * b) != 4 * b)
			die("pwrite");
	}
	for (int i = 0; i < 3; i++)
		if (pread(-1, buf, b, 0) != -1 || errno != EBADF)
			die("pread of fd -1");
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	close(out);
	close(data_fd);
	free(buf);
	return argc > 4 ? atoi(argv[4]) : 0;
}
