// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Short processes that each meet new files, as a build or a CI machine
 * makes them, for what dio's host keeps per process, thread and file over a
 * long dio trace -a: RATE times a second for SECONDS, a process starts
 * (fork, then exec of this program with its part), makes F new files in
 * DIR (create, write a line, close), starts one thread that reads them,
 * deletes them and exits. Every file is a new file tag, every process a new
 * pid and two new tids. With "renamed", each renames itself "renamed" before
 * it exits: under --comm shortprocs, dio sees its files but not its exit.
 *
 * usage: shortprocs DIR SECONDS RATE FILES [renamed]
 *        (shortprocs --child DIR FILES [renamed]: one process's part)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *dir;
static long files;

static void path_of(char *buf, size_t len, long i)
{
	snprintf(buf, len, "%s/p%d-f%ld", dir, (int)getpid(), i);
}

static void *reader(void *unused)
{
	char path[4096], buf[64];

	(void)unused;
	for (long i = 0; i < files; i++) {
		int fd;

		path_of(path, sizeof(path), i);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		if (read(fd, buf, sizeof(buf)) < 0)
			perror(path);
		close(fd);
	}
	return NULL;
}

static int child(int renamed)
{
	char path[4096];
	pthread_t th;

	for (long i = 0; i < files; i++) {
		int fd;

		path_of(path, sizeof(path), i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || write(fd, "a line\n", 7) != 7) {
			perror(path);
			return 1;
		}
		close(fd);
	}
	if (!pthread_create(&th, NULL, reader, NULL))
		pthread_join(th, NULL);
	for (long i = 0; i < files; i++) {
		path_of(path, sizeof(path), i);
		unlink(path);
	}
	if (renamed)
		prctl(PR_SET_NAME, "renamed");
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double start, secs, rate;
	long started = 0, failed = 0;
	int st;
	char self[4096];
	ssize_t n;

	if (argc >= 4 && !strcmp(argv[1], "--child")) {
		dir = argv[2];
		files = atol(argv[3]);
		return child(argc == 5);
	}
	if (argc != 5 && (argc != 6 || strcmp(argv[5], "renamed"))) {
		fprintf(stderr, "usage: shortprocs DIR SECONDS RATE FILES [renamed]\n");
		return 2;
	}
	secs = atof(argv[2]);
	rate = atof(argv[3]);
	if (secs <= 0 || rate <= 0 || atol(argv[4]) < 1) {
		fprintf(stderr, "shortprocs: SECONDS and RATE above 0, FILES at least 1\n");
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		perror("/proc/self/exe");
		return 1;
	}
	self[n] = 0;
	start = now();
	while (now() - start < secs) {
		pid_t pid;
		double due = start + started / rate;

		if (now() < due) {
			usleep((useconds_t)((due - now()) * 1e6));
			continue;
		}
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			execl(self, "shortprocs", "--child", argv[1], argv[4], argv[5], (char *)NULL);
			_exit(127);
		}
		started++;
		/* reap what ended; a slow machine runs a few at once */
		while (waitpid(-1, &st, WNOHANG) > 0)
			failed += !WIFEXITED(st) || WEXITSTATUS(st);
	}
	while (wait(&st) > 0)
		failed += !WIFEXITED(st) || WEXITSTATUS(st);
	printf("%ld processes, %ld failed\n", started, failed);
	return failed ? 1 : 0;
}
