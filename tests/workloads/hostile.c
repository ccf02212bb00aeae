// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A program whose names try to drive the terminal of whoever looks at its
 * trace: its thread name is an OSC title, a newline and a clear-screen, its
 * two files' names hold a colour escape, a newline and an OSC title. Each
 * round opens, writes one byte to and closes each file (redundant-open.churn
 * on both), then sleeps 1 ms, so that it waits for a CPU once woken (the
 * latency analyzer's run-queue table).
 *
 * usage: hostile DIR [ROUNDS]   (ROUNDS: 50 by default)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* 11 bytes: within the 15 a thread name keeps */
#define NAME	"\033]0;x\007\n\033[2J"

static const char *const files[] = { "a\033[31mred\nx", "b\033]0;t\007" };

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : 50;
	struct timespec ms = { 0, 1000000 };

	if (argc < 2 || chdir(argv[1])) {
		fprintf(stderr, "usage: hostile DIR [ROUNDS]\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, NAME, 0, 0, 0)) {
		perror("hostile: prctl");
		return 99;
	}
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < 2; i++) {
			int fd = open(files[i], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);

			if (fd < 0 || write(fd, "x", 1) != 1 || close(fd)) {
				perror("hostile");
				return 99;
			}
		}
		nanosleep(&ms, NULL);
	}
	return 0;
}
