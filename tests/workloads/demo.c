// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The README's demo: a logger that opens and closes its log file for every
 * line (the pattern the DIO study found in Redis), and a reader thread that
 * follows the log with pread.
 *
 * usage: demo DIR [LINES]
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char logpath[4096];
static volatile int done;

static void *reader(void *arg)
{
	char buf[4096];
	off_t off = 0;
	int fd = -1;

	(void)arg;
	pthread_setname_np(pthread_self(), "reader");
	while (fd < 0)
		fd = open(logpath, O_RDONLY);
	for (;;) {
		ssize_t n = pread(fd, buf, sizeof(buf), off);

		if (n > 0)
			off += n;
		else if (done)
			break;
		else
			usleep(1000);
	}
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	int lines = argc > 2 ? atoi(argv[2]) : 20;
	pthread_t th;

	if (argc < 2) {
		fprintf(stderr, "usage: demo DIR [LINES]\n");
		return 2;
	}
	if (mkdir(argv[1], 0755) && errno != EEXIST) {
		fprintf(stderr, "demo: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	snprintf(logpath, sizeof(logpath), "%s/app.log", argv[1]);
	unlink(logpath);
	if (pthread_create(&th, NULL, reader, NULL))
		return 1;
	for (int i = 0; i < lines; i++) {
		char line[64];
		int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0644);
		int len = snprintf(line, sizeof(line), "request %d served\n", i);

		if (fd < 0 || write(fd, line, len) != len) {
			fprintf(stderr, "demo: %s: %s\n", logpath, strerror(errno));
			return 1;
		}
		close(fd);
		usleep(2000);
	}
	done = 1;
	pthread_join(th, NULL);
	return 0;
}
