// SPDX-License-Identifier: GPL-2.0-or-later
/* The progress line of reading a trace file: see progress.h. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dio/plugin.h>
#include "options.h"
#include "progress.h"

#define FIRST_NS	500000000ULL	/* files read faster than this show no line */
#define EVERY_NS	250000000ULL	/* at most four lines a second */

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

void progress__start(struct progress *p, const struct options *o, const char *path)
{
	/* dio dump's records go to the screen: a line among them would break them */
	int streams = !o->quiet || o->json;

	memset(p, 0, sizeof(*p));
	p->on = !o->quiet_given && isatty(STDERR_FILENO) && !(streams && isatty(STDOUT_FILENO));
	if (!p->on)
		return;
	/* a file's name is the user's, yet no byte of it reaches the terminal raw */
	if (dio_escape(path, strlen(path), 0, p->what, sizeof(p->what)) >= sizeof(p->what))
		memcpy(p->what + sizeof(p->what) - 4, "...", 4);
	p->t0 = now_ns();
}

/* 950, 12k, 2.0M, 1.3G */
static void count_text(uint64_t v, char *buf, size_t len)
{
	if (v < 1000)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (v < 1000000)
		snprintf(buf, len, "%lluk", (unsigned long long)(v / 1000));
	else if (v < 1000000000)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else
		snprintf(buf, len, "%.1fG", v / 1e9);
}

void progress__update(struct progress *p, uint64_t done, uint64_t size, uint64_t records,
		      uint64_t total)
{
	char n[16], of[32] = "";
	uint64_t t;

	if (!p->on)
		return;
	t = now_ns();
	if (t - p->t0 < FIRST_NS || (p->shown && t - p->last < EVERY_NS))
		return;
	p->last = t;
	p->shown = 1;
	count_text(records, n, sizeof(n));
	if (total >= records) {
		memcpy(of, " of ", 5);
		count_text(total, of + 4, sizeof(of) - 4);
	}
	/* \r back to the line's start, then the line, then erase what a longer one left */
	fprintf(stderr, "\rreading %s: %llu %% (%s%s records), %llu s\033[K", p->what,
		(unsigned long long)(size ? (done > size ? size : done) * 100 / size : 0), n, of,
		(unsigned long long)((t - p->t0) / 1000000000ULL));
	fflush(stderr);
}

void progress__end(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = 0;
}
