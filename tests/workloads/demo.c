// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The README's demo: a logger that opens and closes its log file for every
 * line it appends (the pattern the DIO study found in Redis), and a thread
 * named "reader" that follows the log. Half way, the log is rotated by
 * truncation (logrotate's copytruncate) and the reader, which never checks
 * the file's size, keeps reading at its old offset: the lines written below
 * it are lost to it (the follower bug the DIO study found in Fluent Bit).
 * Runs for about half a second.
 *
 * usage: demo DIR [LINES]	(LINES defaults to 200)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char logpath[4096];
static atomic_int done;

static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

static void *reader(void *arg)
{
	char buf[4096];
	off_t off = 0;
	ssize_t n;
	int fd;

	pthread_setname_np(pthread_self(), "reader");
	fd = open(logpath, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "demo: reader: %s: %s\n", logpath, strerror(errno));
		return NULL;
	}
	for (;;) {
		n = pread(fd, buf, sizeof(buf), off);
		if (n > 0) {
			off += n;
			continue;
		}
		if (n < 0)
			break;
		if (atomic_load(&done)) {
			/* the logger may have written since the read above: drain once more */
			while ((n = pread(fd, buf, sizeof(buf), off)) > 0)
				off += n;
			break;
		}
		pause_ms(5);
	}
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	long lines = 200;
	pthread_t th;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: demo DIR [LINES]\n");
		return 2;
	}
	if (argc == 3) {
		char *end;

		lines = strtol(argv[2], &end, 10);
		if (*end || lines < 0 || lines > 1000000) {
			fprintf(stderr, "demo: LINES must be a number from 0 to 1000000\n");
			return 2;
		}
	}
	if (mkdir(argv[1], 0755) && errno != EEXIST) {
		fprintf(stderr, "demo: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	snprintf(logpath, sizeof(logpath), "%s/app.log", argv[1]);
	/* a fresh, existing log, so that the reader's open finds it */
	fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || close(fd)) {
		fprintf(stderr, "demo: %s: %s\n", logpath, strerror(errno));
		return 1;
	}
	if (pthread_create(&th, NULL, reader, NULL)) {
		fprintf(stderr, "demo: cannot start the reader thread\n");
		return 1;
	}
	for (long i = 0; i < lines; i++) {
		char line[64];
		int len = snprintf(line, sizeof(line), "request %ld served\n", i);

		if (i == lines / 2 && i) {
			/* copytruncate: the rotated copy is left out, the truncation is what matters */
			fd = open(logpath, O_WRONLY);
			if (fd < 0 || ftruncate(fd, 0) || close(fd)) {
				fprintf(stderr, "demo: %s: %s\n", logpath, strerror(errno));
				return 1;
			}
			pause_ms(20);	/* the reader looks at the file in between */
		}
		/* the anti-pattern on show: one open and close per line */
		fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd < 0 || write(fd, line, len) != len || close(fd)) {
			fprintf(stderr, "demo: %s: %s\n", logpath, strerror(errno));
			return 1;
		}
		pause_ms(1);
	}
	atomic_store(&done, 1);
	pthread_join(th, NULL);
	return 0;
}
