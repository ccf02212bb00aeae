// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dio top: the busiest processes, threads and files, counted in the kernel
 * (engine/top.c): its command line, and its frames, sorting and keys, which
 * run in the live loop's tick.
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <dio/plugin.h>
#include "cmd/cmd.h"
#include "engine/optdefs.h"
#include "engine/loss.h"
#include "engine/options.h"
#include "engine/probe.h"
#include "engine/tagtab.h"
#include "engine/top.h"
#include "engine/util.h"

void cli_top_usage(FILE *f)
{
	const struct opt_def *what = opt_defs + 1;

	fputs(
"usage: dio top [OPTIONS] [--] COMMAND [ARGS...]\n"
"       dio top [OPTIONS] -p PID[,PID...] | -a\n"
"\n"
"Show the busiest processes, threads and files by storage calls, bytes and\n"
"time in the calls, with block request latency and run-queue wait per process,\n"
"every second. The kernel counts the calls in maps: no record per call.\n"
"\n"
"What to count (as dio trace):\n", f);
	/* the filters: the first section of dio trace's options */
	while (what < opt_defs + opt_ndefs && !what->section)
		what++;
	cli_help_rows(f, opt_defs, what, CMD_TOP);
	fputs(
"      --mode detailed|raw   raw: no file lookups (no files shown)\n"
"      --attach auto|syscall|raw, --tag-table N, --inflight-table N\n"
"                            as dio trace\n"
"      --no-block, --no-runq no block latency, no run-queue wait\n"
"How to show it:\n", f);
	cli_help(f, cli_top_opts, cli_top_nopts);
	fputs(
"      --stats               at exit, where dio's own time went (as dio trace)\n"
"  -C, --config FILE         config file (its filters apply)\n"
"  -h, --help                this text\n"
"\n"
"Keys on a terminal: c, b, t sort by calls, bytes, time; S cumulative on or off;\n"
"q quits. With a COMMAND, dio top shows a last frame when it exits and exits\n"
"with its status.\n"
"\n"
"Examples:\n"
"  sudo dio top -a\n"
"  sudo dio top -p 1234 --sort bytes\n"
"  sudo dio top -b -n 5 --path /var/lib/postgresql -a\n"
"  sudo dio top -b -S -- ./server\n", f);
}

static int set_sort(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "calls", "bytes", "time" };
	struct top_args *t = base;

	for (int i = 0; i < 3; i++)
		if (!strcmp(v, names[i])) {
			t->sort = i;
			return 0;
		}
	snprintf(err, errlen, "--sort %s: use calls, bytes or time", v);
	return -EINVAL;
}

static int set_delay(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	struct top_args *t = base;

	if (parse_seconds(v, &t->delay) || t->delay < 0.05 || t->delay > 86400) {
		snprintf(err, errlen, "-d %s: give the seconds between frames, 0.05 to 86400, e.g. -d 2",
			 v);
		return -EINVAL;
	}
	return 0;
}

static int set_iterations(void *base, const struct opt_def *d, const char *v, char *err,
			  size_t errlen)
{
	struct top_args *t = base;

	if (!parse_long(v, 1, 1000000000, &t->iterations))
		return 0;
	snprintf(err, errlen, "-n %s: give the number of frames, 1 or more, e.g. -n 5", v);
	return -EINVAL;
}

#define TOP_FIELD(f)	.off = offsetof(struct top_args, f), \
			.size = sizeof(((struct top_args *)0)->f), .cmds = CMD_TOP

/* dio top's own options; it takes dio trace's filters too (CMD_TOP in the table) */
const struct opt_def cli_top_opts[] = {
	{ .name = "batch", .letter = 'b', .kind = OPT_FLAG, TOP_FIELD(batch), .val = 1,
	  .help = "plain lines, frame after frame (files, pipes)" },
	{ .name = "delay", .letter = 'd', .kind = OPT_CUSTOM, .set = set_delay, TOP_FIELD(delay),
	  .arg = "SECONDS", .help = "between frames (default 1)" },
	{ .name = "iterations", .letter = 'n', .kind = OPT_CUSTOM, .set = set_iterations,
	  TOP_FIELD(iterations), .arg = "COUNT", .help = "stop after COUNT frames" },
	{ .name = "sort", .kind = OPT_CUSTOM, .set = set_sort, TOP_FIELD(sort),
	  .arg = "calls|bytes|time", .help = "order of the rows (default calls)" },
	{ .name = "cumulative", .letter = 'S', .kind = OPT_FLAG, TOP_FIELD(cumulative), .val = 1,
	  .help = "totals since the start instead of the last interval" },
};

const size_t cli_top_nopts = sizeof(cli_top_opts) / sizeof(cli_top_opts[0]);

static void top_usage(FILE *f, const char *cmd)
{
	(void)cmd;
	cli_top_usage(f);
}

/*
 * dio trace's options that do not say what to count are in top's table too,
 * so that they are refused by name
 */
int cli_parse_top(int argc, char **argv, struct options *o, struct top_args *t, char *err,
		  size_t errlen)
{
	const struct cli_cmd c = {
		.cmd = CMD_TOP, .knows = CMD_TRACE | CMD_RECORD,
		.refuse = "is an option of dio trace, not of dio top; see 'dio top --help'",
		.own = cli_top_opts, .nown = cli_top_nopts, .own_base = t, .in_order = 1,
	};

	memset(t, 0, sizeof(*t));
	t->delay = 1;
	return cli_parse_tracing(&c, argc, argv, top_usage, o, err, errlen);
}

/* dio top's screen: a frame of the busiest rows, sorted as asked, and the keys */
struct top {
	struct top_counts c;	/* the engine's: the live loop, the rows */
	const struct top_args *a;
	enum top_sort sort;
	int cumulative;
	int interactive;	/* a terminal: screen control, units, keys */
	int keys;		/* stdin is a terminal in raw mode */
	struct termios saved;
	uint64_t frames;
	uint64_t start_ns;	/* CLOCK_MONOTONIC when counting began */
	uint64_t last_ns;	/* and of the last frame */
	uint64_t next_ns;	/* when the next frame is due */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ---- a frame --------------------------------------------------------------- */

static uint64_t sort_key(const struct top *t, const struct top_row *w)
{
	switch (t->sort) {
	case TOP_SORT_BYTES:
		return w->show[V_RBYTES] + w->show[V_WBYTES];
	case TOP_SORT_TIME:
		return w->show[V_NS];
	default:
		return w->show[V_CALLS];
	}
}

static const struct top *sorting;

static int by_key(const void *a, const void *b)
{
	const struct top_row *x = *(const struct top_row *const *)a, *y = *(const struct top_row *const *)b;
	uint64_t kx = sort_key(sorting, x), ky = sort_key(sorting, y);

	if (kx != ky)
		return kx < ky ? 1 : -1;
	if (x->show[V_CALLS] != y->show[V_CALLS])
		return x->show[V_CALLS] < y->show[V_CALLS] ? 1 : -1;
	return x->key[0] < y->key[0] ? -1 : x->key[0] > y->key[0];
}

/*
 * The rows with something to show, sum (the exited added up, or NULL) among
 * them, best first; *n of them. The array is the caller's.
 */
static const struct top_row **ranked(struct top *t, struct top_rows *r, const struct top_row *sum, size_t *n)
{
	const struct top_row **v = malloc((r->n + 1) * sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < r->n; i++)
		if (top__shows_any(&r->v[i]))
			v[(*n)++] = &r->v[i];
	if (sum && top__shows_any(sum))
		v[(*n)++] = sum;
	sorting = t;
	qsort(v, *n, sizeof(*v), by_key);
	return v;
}

/* a count: exact in batch mode, with a unit (k, M, G, T) on a terminal */
static const char *num(const struct top *t, uint64_t v, char *buf, size_t len)
{
	static const char units[] = "kMGTP";
	double d = v;
	int u = -1;

	if (!t->interactive || v < 100000) {
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return buf;
	}
	while (d >= 1000 && u < 4) {
		d /= 1000;
		u++;
	}
	snprintf(buf, len, "%.1f%c", d, units[u]);
	return buf;
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

static double avg_ms(uint64_t ns, uint64_t n)
{
	return n ? ns / 1e6 / n : 0;
}

/* the call columns every section has */
static void call_cols(FILE *f, const struct top *t, const struct top_row *w)
{
	char a[32], b[32], c[32], d[32];

	fprintf(f, " %9s %7s %12s %12s %11.3f", num(t, w->show[V_CALLS], a, sizeof(a)),
		num(t, w->show[V_ERRORS], b, sizeof(b)), num(t, w->show[V_RBYTES], c, sizeof(c)),
		num(t, w->show[V_WBYTES], d, sizeof(d)), ms(w->show[V_NS]));
}

#define CALL_HDR "     CALLS  ERRORS         READ      WRITTEN     TIME_MS"

static const char *ftype_name(uint8_t ft)
{
	static const char *const names[] = {
		[DIO_FT_NONE] = "-", [DIO_FT_FIFO] = "fifo", [DIO_FT_CHR] = "chr",
		[DIO_FT_DIR] = "dir", [DIO_FT_BLK] = "blk", [DIO_FT_REG] = "reg",
		[DIO_FT_LNK] = "lnk", [DIO_FT_SOCK] = "sock", [DIO_FT_ANON] = "anon",
	};

	return ft < sizeof(names) / sizeof(names[0]) && names[ft] ? names[ft] : "?";
}

/* the name of the row of the exited added up: "(N exited)" */
static const char *exited(uint64_t n, char *buf, size_t len)
{
	snprintf(buf, len, "(%llu exited)", (unsigned long long)n);
	return buf;
}

static void print_frame(struct top *t, FILE *f, uint64_t interval_ns, int max_rows)
{
	const struct top_row **pr, **th, **fi;
	size_t np, nt, nf;
	uint64_t sum[V_CALL_MAX] = { 0 };
	struct loss lost = { 0 };
	uint64_t nlost = 0;
	char clock[16], a[32], b[32], c[32];
	time_t now = time(NULL);
	struct tm tm;

	pr = ranked(t, &t->c.procs, &t->c.psum, &np);
	th = ranked(t, &t->c.threads, &t->c.tsum, &nt);
	fi = ranked(t, &t->c.files, NULL, &nf);
	if (!pr || !th || !fi) {
		t->c.failed = -ENOMEM;
		goto cleanup;
	}
	for (size_t i = 0; i < np; i++)
		for (int k = 0; k < V_CALL_MAX; k++)
			sum[k] += pr[i]->show[k];
	/* records lost: not paths cut, nor tags the kernel took in */
	if (!probe__counters(t->c.live.probe, lost.n))
		nlost = loss__records(&lost);
	nlost += t->c.malformed;
	localtime_r(&now, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	fprintf(f, "dio top - %s  frame %llu  %s %.2f s  sort %s  lost %llu\n", clock,
		(unsigned long long)t->frames, t->cumulative ? "total after" : "interval",
		interval_ns / 1e9,
		t->sort == TOP_SORT_BYTES ? "bytes" : t->sort == TOP_SORT_TIME ? "time" : "calls",
		(unsigned long long)nlost);
	fprintf(f, "calls %s  errors %s  read %s  written %s  time %.3f ms\n",
		num(t, sum[V_CALLS], a, sizeof(a)), num(t, sum[V_ERRORS], b, sizeof(b)),
		num(t, sum[V_RBYTES], c, sizeof(c)), num(t, sum[V_WBYTES], clock, sizeof(clock)),
		ms(sum[V_NS]));

	fprintf(f, "\n    PID COMMAND         " CALL_HDR
		"  BLOCK BLK_AVG_MS BLK_MAX_MS   RUNQ RUNQ_AVG_MS RUNQ_MAX_MS\n");
	for (size_t i = 0; i < np && (int)i < max_rows; i++) {
		const struct top_row *w = pr[i];
		char comm[4 * DIO_COMM_LEN + 1];

		dio_escape(w->comm[0] ? w->comm : "?", DIO_COMM_LEN, 0, comm, sizeof(comm));
		if (w == &t->c.psum)
			fprintf(f, "%7s %-15s", "-", exited(t->c.pfolded, comm, sizeof(comm)));
		else
			fprintf(f, "%7u %-15s", w->pid, comm);
		call_cols(f, t, w);
		fprintf(f, " %6s %10.3f %10.3f %6s %11.3f %11.3f\n", num(t, w->show[V_BLK], a, sizeof(a)),
			avg_ms(w->show[V_BLK_NS], w->show[V_BLK]), ms(w->show[V_BLK_MAX]),
			num(t, w->show[V_RUNQ], b, sizeof(b)),
			avg_ms(w->show[V_RUNQ_NS], w->show[V_RUNQ]), ms(w->show[V_RUNQ_MAX]));
	}
	fprintf(f, "\n    TID     PID COMMAND         " CALL_HDR "\n");
	for (size_t i = 0; i < nt && (int)i < max_rows; i++) {
		char comm[4 * DIO_COMM_LEN + 1];

		dio_escape(th[i]->comm, DIO_COMM_LEN, 0, comm, sizeof(comm));
		if (th[i] == &t->c.tsum)
			fprintf(f, "%7s %7s %-15s", "-", "-", exited(t->c.tfolded, comm, sizeof(comm)));
		else
			fprintf(f, "%7u %7u %-15s", th[i]->tid, th[i]->pid, comm);
		call_cols(f, t, th[i]);
		fputc('\n', f);
	}
	fprintf(f, "\n" CALL_HDR "     PID TYPE PATH\n");
	for (size_t i = 0; i < nf && (int)i < max_rows; i++) {
		const struct top_row *w = fi[i];
		struct dio_file_tag tag = { .ino = w->key[0], .dev = w->key[1] >> 32,
					    .gen = (uint32_t)w->key[1] };
		const char *path = tagtab__lookup(t->c.paths, &tag);
		char text[4 * DIO_PATH_MAX + 7];	/* a cut path's "..." on both ends */

		if (path)
			dio_escape(path, strlen(path), 0, text, sizeof(text));
		else
			dio_file_tag_format(&tag, text, sizeof(text));
		call_cols(f, t, w);
		fprintf(f, " %7u %-4s %s\n", w->pid, ftype_name(w->ftype), text);
	}
cleanup:
	free(pr);
	free(th);
	free(fi);
}

/* rows each section may take on a terminal of this height */
static int rows_per_section(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || ws.ws_row < 16)
		return 3;
	return (ws.ws_row - 9) / 3;
}

/* Write text, each line cut to the terminal's width (a wrapped line would scroll the screen). */
static void write_cut(const char *text, size_t len)
{
	struct winsize ws;
	size_t cols = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col ? 80 : ws.ws_col;

	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p;

		/* the screen control before the first line is not printed width */
		fwrite(p, 1, n > cols + (p == text ? 7 : 0) ? cols + (p == text ? 7 : 0) : n, stdout);
		if (nl)
			fputc('\n', stdout);
		p += n + 1;
	}
}

static int frame(struct top *t)
{
	uint64_t now = now_ns();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int e;

	e = top__read(&t->c, t->cumulative);
	if (e)
		return e;
	t->frames++;
	/* a whole frame in one write: no half-drawn screen */
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	if (t->interactive)
		fputs("\033[H\033[2J", f);
	print_frame(t, f, now - (t->cumulative ? t->start_ns : t->last_ns),
		    t->interactive ? rows_per_section() : 1 << 30);
	if (!t->interactive)
		fputc('\n', f);
	t->last_ns = now;
	fclose(f);
	if (t->interactive)
		write_cut(buf, len);
	else
		fwrite(buf, 1, len, stdout);
	free(buf);
	fflush(stdout);
	return t->c.failed;
}

/* ---- the terminal ------------------------------------------------------------ */

/* Keys without Enter and without echo, when stdin is a terminal. */
static void keys_on(struct top *t)
{
	struct termios raw;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &t->saved))
		return;
	raw = t->saved;
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (!tcsetattr(STDIN_FILENO, TCSANOW, &raw))
		t->keys = 1;
}

static void keys_off(struct top *t)
{
	if (t->keys)
		tcsetattr(STDIN_FILENO, TCSANOW, &t->saved);
	t->keys = 0;
}

/* What the keys pressed since the last look ask: 1 to quit, 2 to redraw now, else 0. */
static int read_keys(struct top *t)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	char c;
	int ret = 0;

	while (t->keys && poll(&pfd, 1, 0) == 1 && read(STDIN_FILENO, &c, 1) == 1) {
		switch (c) {
		case 'q':
			return 1;
		case 'c':
			t->sort = TOP_SORT_CALLS;
			ret = 2;
			break;
		case 'b':
			t->sort = TOP_SORT_BYTES;
			ret = 2;
			break;
		case 't':
			t->sort = TOP_SORT_TIME;
			ret = 2;
			break;
		case 'S':
			t->cumulative = !t->cumulative;
			ret = 2;
			break;
		}
	}
	return ret;
}

/* The frame's wait: up to when it is due, keys looked at 10 times a second */
static int wait_ms(const struct top *t)
{
	uint64_t now = now_ns();
	int ms = t->next_ns > now ? (int)((t->next_ns - now) / 1000000) : 0;

	return ms < 100 ? ms : 100;
}

/* each round of the live loop, after paths and process records came in: keys, a frame when due */
static int top_tick(struct live *l)
{
	struct top *t = l->ud;
	uint64_t delay = (uint64_t)(t->a->delay * 1e9);
	int k = read_keys(t), e;

	if (k == 1)
		return 1;
	if (k == 2 || now_ns() >= t->next_ns) {
		e = frame(t);
		if (e) {
			die_msg("reading dio top's counters failed: %s", strerror(-e));
			return e;
		}
		if (t->a->iterations && (long)t->frames >= t->a->iterations)
			return 1;
		if (k != 2)
			t->next_ns += delay;
		if (t->next_ns < now_ns())	/* a slow frame: no burst to catch up */
			t->next_ns = now_ns() + delay;
	}
	l->wait_ms = wait_ms(t);
	return 0;
}

/* Start what the options name and count until the end; dio's exit status. */
static int top_run(struct top *t)
{
	struct live *l = &t->c.live;
	char err[1024];
	int code, end;

	l->verb = "count";
	l->on_record = top__on_record;
	l->record_ctx = &t->c;
	l->tick = top_tick;
	l->ud = t;
	code = live__open(l);
	if (code)
		return code;
	if (top__open(&t->c, err, sizeof(err))) {
		die_msg("%s", err);
		child__abort(&l->child);
		return 1;
	}
	code = live__go(l);
	if (code)
		return code;
	if (t->interactive)
		keys_on(t);
	t->start_ns = t->last_ns = now_ns();
	t->next_ns = t->start_ns + (uint64_t)(t->a->delay * 1e9);
	l->wait_ms = wait_ms(t);
	end = live__run(l);
	if (end == LIVE_FAILED) {
		if (l->error)
			die_msg("reading the ring buffer failed: %s", strerror(-l->error));
		code = 1;
	}
	/* the counted processes are gone: what they did since the last frame */
	if ((end == LIVE_EXITED || end == LIVE_GONE) && frame(t)) {
		die_msg("reading dio top's counters failed");
		code = 1;
	}
	keys_off(t);
	if (t->c.live.stats)
		top__selfstats(&t->c);
	return live__status(l, code);
}

int cmd_top(int argc, char **argv)
{
	struct top_args args;
	struct options o;
	struct top t;
	char err[1024];
	int code = 1, e;

	memset(&t, 0, sizeof(t));
	options_init(&o);
	e = cli_parse_top(argc, argv, &o, &args, err, sizeof(err));
	if (e) {
		if (e != 1)
			die_msg("%s", err);
		options_free(&o);
		return e == 1 ? 0 : 2;
	}
	/* only paths and process events go through the ring */
	o.count_mode = 1;
	o.iouring = 0;
	o.ring_bytes = 4 << 20;
	/* -d is the delay: a config file's duration is dio trace's */
	o.duration = 0;
	t.a = &args;
	t.sort = args.sort;
	t.cumulative = args.cumulative;
	t.interactive = !args.batch && isatty(STDOUT_FILENO);
	if (probe__check_machine(err, sizeof(err))) {
		die_msg("%s", err);
		goto cleanup;
	}
	if (top__init(&t.c, &o)) {
		die_msg("out of memory");
		goto cleanup;
	}
	code = top_run(&t);
	if (t.c.failed)
		code = 1;
cleanup:
	top__free(&t.c);
	options_free(&o);
	return code;
}
