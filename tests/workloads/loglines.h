/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Log lines of LOG_LINE bytes, "2024-01-02 app: line 0001\n", for the
 * follower and shipper workloads: one write per line, so that a follower's
 * offsets fall on line boundaries the tests can count in.
 */
#ifndef DIO_TESTS_LOGLINES_H
#define DIO_TESTS_LOGLINES_H

#include <stdio.h>
#include <unistd.h>
#include "truth.h"

#define LOG_LINE	26

/* n bytes of log lines to fd, the last one cut at n; *line counts them */
static inline void write_log_lines(int fd, size_t n, unsigned int *line)
{
	char buf[LOG_LINE + 1];

	while (n) {
		size_t len = n < LOG_LINE ? n : LOG_LINE;

		snprintf(buf, sizeof(buf), "2024-01-02 app: line %04u\n", ++*line % 10000);
		must(write(fd, buf, len) == (ssize_t)len, "write");
		n -= len;
	}
}

#endif
