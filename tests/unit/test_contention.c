// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The contention analyzer on synthetic streams of 100 ms windows: client
 * threads slowed down while rocksdb:low threads do I/O give one finding with
 * the baseline and contended numbers; the same load that leaves the clients
 * alone gives none; the rate, latency, background-thread and call-count
 * thresholds at their edges; intervals before a baseline, several intervals,
 * a long call over several windows; group names and the background and
 * foreground options; bad options; the same findings for the same stream; and
 * memory that stays bounded over a million events with ever-new threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "fakehost.h"

#define W	100000000ULL	/* the default window, ns */
#define PID	100
#define CODE	"contention.background-io"

static struct dio_file_tag fgfile, bgfile;
static const char *bgname = "rocksdb:low";	/* background threads: bgname + number */
static const char *fgname = "client";		/* foreground threads: fgname + 0 or 1 */

static void *start(void)
{
	void *st;

	fgfile = tag_of(10, 1);
	bgfile = tag_of(20, 1);
	bgname = "rocksdb:low";
	fgname = "client";
	st = start_analyzer();
	fake_path(&fgfile, "/db/wal");
	fake_path(&bgfile, "/db/000123.sst");
	return st;
}

static int by_exit(const void *a, const void *b)
{
	const struct dio_ev_syscall *x = a, *y = b;
	uint64_t ex = x->hdr.ts + x->duration, ey = y->hdr.ts + y->duration;

	if (ex != ey)
		return ex < ey ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/*
 * Window k: nfg client calls (two threads, a pwrite64 and an fdatasync in
 * turn) of dur ns each, spread over the window, and one 1 MiB pwrite64 of
 * each of nbg background threads; fed in the order their calls end, as the
 * kernel hands records over.
 */
static void window(void *st, uint64_t k, int nfg, uint64_t dur, int nbg)
{
	static struct dio_ev_syscall ev[4096];
	uint64_t t0 = k * W;
	int n = 0;

	assert_true(nfg + nbg <= 4096);
	for (int i = 0; i < nfg; i++) {
		uint32_t tid = 201 + (uint32_t)(i % 2);
		char comm[16];
		int sync = i / 2 % 2;

		snprintf(comm, sizeof(comm), "%s%u", fgname, tid - 201);
		ev[n++] = sys_ev(t0 + 1000 + (uint64_t)i * (W / (uint64_t)nfg), PID, tid, comm,
				 sync ? NR_fdatasync : NR_pwrite64, 3, &fgfile, sync ? -1 : 4096 * i,
				 sync ? 0 : 4096, dur);
	}
	for (int j = 0; j < nbg; j++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "%s%d", bgname, j);
		ev[n++] = sys_ev(t0 + 500 + (uint64_t)j * 7919, PID, 301 + (uint32_t)j, comm,
				 NR_pwrite64, 5, &bgfile, (int64_t)j << 20, 1 << 20, 2000);
	}
	qsort(ev, (size_t)n, sizeof(ev[0]), by_exit);
	for (int i = 0; i < n; i++)
		feed(st, &ev[i]);
}

/* windows first..first+count-1 alike */
static uint64_t windows(void *st, uint64_t first, int count, int nfg, uint64_t dur, int nbg)
{
	for (int i = 0; i < count; i++)
		window(st, first + (uint64_t)i, nfg, dur, nbg);
	return first + (uint64_t)count;
}

/*
 * 20 calm windows of 100 calls of 100 us, contended ones as given, 5 calm
 * ones; the threads named fg0, fg1 and bg0, bg1, ...
 */
static void scenario_as(const char *fg, const char *bg, int cw, int nfg, uint64_t dur, int nbg)
{
	void *st = start();
	uint64_t k = 10;

	fgname = fg;
	bgname = bg;
	k = windows(st, k, 20, 100, 100000, 0);
	k = windows(st, k, cw, nfg, dur, nbg);
	windows(st, k, 5, 100, 100000, 0);
	stop_analyzer(st);
}

static void scenario(int cw, int nfg, uint64_t dur, int nbg)
{
	scenario_as("client", "rocksdb:low", cw, nfg, dur, nbg);
}

/* a scenario with one option set, the CODE findings it must give, a part of the first's title */
struct edge {
	const char *key, *val;
	const char *fg, *bg;
	int cw, nfg;
	uint64_t dur;
	int nbg, want;
	const char *title;
};

static void run_edges(const struct edge *e, size_t n)
{
	for (size_t i = 0; i < n; i++, e++) {
		if (e->key)
			opts_reset(e->key, e->val, NULL);
		else
			opts_reset(NULL);
		scenario_as(e->fg ? e->fg : "client", e->bg ? e->bg : "rocksdb:low", e->cw, e->nfg,
			    e->dur, e->nbg);
		if (nfindings(CODE) != e->want || (e->title && !strstr(found[0].title, e->title)))
			fail_msg("case %zu (%s=%s, %d windows of %d calls of %llu ns, %d background "
				 "threads): %d findings, expected %d; title: %s", i,
				 e->key ? e->key : "-", e->val ? e->val : "-", e->cw, e->nfg,
				 (unsigned long long)e->dur, e->nbg, nfindings(CODE), e->want,
				 nfound ? found[0].title : "-");
		if (e->want)
			assert_string_equal(found[0].code, CODE);
	}
}

static void pattern_gives_one_finding_with_the_numbers(void **unused)
{
	const struct fake_finding *f;

	(void)unused;
	opts_reset(NULL);
	scenario(10, 50, 400000, 4);
	assert_int_equal(nfound, 1);
	f = finding(CODE);
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->title, "client: 500 I/O calls/s instead of 1000 (-50%), p99 400 us "
			    "instead of 100 us (x4.0) while 4 background threads did I/O, against none");
	assert_int_equal(f->pid, PID);
	assert_int_equal(f->tid, 201);
	assert_string_equal(f->comm, "client");
	/* the many side's windows, first to last */
	assert_int_equal(f->ts_first, 30 * W);
	assert_int_equal(f->ts_last, 40 * W);
	assert_int_equal(f->count, 10);
	assert_int_equal(f->has_tag, 0);
	/* 10 windows of 100 ms at half the calls: 500 ms of the clients' time lost */
	assert_int_equal(f->cost_ns, 500000000);
	assert_int_equal(f->processes, 1);
	assert_non_null(strstr(f->message, "The foreground threads client0, client1 (group client)"));
	/* the calm windows before and after are one side: 2 stretches; the first and the
	 * last are edges of the clients' activity */
	assert_non_null(strstr(f->message, "  busy  windows  calls/s  p99\n"
			       "    0        23     1000  100 us\n"
			       "    4        10      500  400 us\n"
			       "  none busy (23 windows, 2 stretches): 1000 calls/s, p99 100 us\n"
			       "  4 busy (10 windows, 1 stretches): 500 calls/s (-50%), p99 400 us "
			       "(x4.0)\n"));
	/* the run: windows 10 to 44 */
	assert_non_null(strstr(f->message, "Cost: 500.0 ms of the foreground's time, 142.9 ms a "
			       "second of the run (3.50 s):\nin its 1.00 s with 4 busy it made the "
			       "calls it makes in 500.0 ms with none.\n"));
	assert_non_null(strstr(f->message, "Background threads doing I/O then: rocksdb:low0, "
			       "rocksdb:low1, rocksdb:low2, rocksdb:low3 (40 calls, 40.0 MiB).\n"));
	assert_null(strstr(f->message, "processes of"));
	assert_null(strstr(f->message, "pushed out"));
	assert_non_null(strstr(f->message, "rate_limiter"));
	assert_non_null(strstr(f->message, "ionice -c3"));
	/* the excerpt: a call of each background thread, then the slowest client call */
	assert_non_null(strstr(f->excerpt, "+3.000000 [100/301 rocksdb:low0] pwrite64(5) = 1048576\n"));
	assert_non_null(strstr(f->excerpt, "[100/304 rocksdb:low3] pwrite64(5) = 1048576\n"));
	assert_non_null(strstr(f->excerpt, "[100/201 client0] pwrite64(3) = 4096\n"));
	assert_null(strstr(f->excerpt, "more"));
}

/*
 * Six threads through a table of four: the finding stays what it is with
 * room for all (a thread that comes back keeps its group, by name), and its
 * message says how many were pushed out. Each contended window feeds the
 * four background threads, then the two clients in turn: the least recent
 * goes each time one is missing, 4 in the first window (both clients, then
 * two background threads) and 6 in each of the 9 others (the two background
 * threads left, both clients, the two fed first): 58.
 */
static void threads_pushed_out_are_counted_in_the_finding(void **unused)
{
	const struct fake_finding *f;

	(void)unused;
	opts_reset("max_threads", "4", NULL);
	scenario(10, 50, 400000, 4);
	f = finding(CODE);
	assert_non_null(f);
	assert_string_equal(f->title, "client: 500 I/O calls/s instead of 1000 (-50%), p99 400 us "
			    "instead of 100 us (x4.0) while 4 background threads did I/O, against none");
	assert_int_equal(f->cost_ns, 500000000);
	assert_non_null(strstr(f->message, "\nThe analyzer's tables (max_threads=4) pushed out 58 "
			       "threads to make room;\nthose that came back were taken as new.\n"
			       "The background I/O fills"));
}

static void fixed_counterpart_gives_none(void **unused)
{
	(void)unused;
	opts_reset(NULL);
	/* the same four background threads, the clients unharmed */
	scenario(10, 100, 100000, 4);
	assert_int_equal(nfound, 0);
	/* clients slowed down with no background I/O at all */
	scenario(10, 50, 400000, 0);
	assert_int_equal(nfound, 0);
	/* one background thread that slows them is harm (a store's writers held back while
	 * one compaction runs), unless min_background says one is the baseline */
	scenario(10, 50, 400000, 1);
	assert_int_equal(nfindings(CODE), 1);
	assert_non_null(strstr(found[0].title, "while 1 background thread did I/O, against none"));
	opts_reset("min_background", "2", NULL);
	scenario(10, 50, 400000, 1);
	assert_int_equal(nfound, 0);
}

static void thresholds_at_their_edges(void **unused)
{
	static const struct edge edges[] = {
		/* 30 % fewer calls is harm, 29 % is not, unless the option says so */
		{ NULL, NULL, NULL, NULL, 10, 70, 100000, 2, 1,
		  "client: 700 I/O calls/s instead of 1000 (-30%)" },
		{ NULL, NULL, NULL, NULL, 10, 71, 100000, 2, 0, NULL },
		{ "rate_drop", "29", NULL, NULL, 10, 71, 100000, 2, 1, "(-29%)" },
		/* the calm p99 is 100 us: 200 us is twice, 199.999 us is not */
		{ NULL, NULL, NULL, NULL, 10, 100, 200000, 2, 1,
		  "p99 200 us instead of 100 us (x2.0)" },
		{ NULL, NULL, NULL, NULL, 10, 100, 199999, 2, 0, NULL },
		{ "latency_factor", "3", NULL, NULL, 10, 100, 300000, 2, 1, "(x3.0)" },
		{ "latency_factor", "3", NULL, NULL, 10, 100, 299999, 2, 0, NULL },
		/* background threads at once */
		{ "min_background", "3", NULL, NULL, 10, 50, 400000, 3, 1,
		  "while 3 background threads did I/O" },
		{ "min_background", "3", NULL, NULL, 10, 50, 400000, 2, 0, NULL },
		/* 10 windows on each side; fewer with the option */
		{ NULL, NULL, NULL, NULL, 9, 50, 400000, 2, 0, NULL },
		{ "baseline_windows", "9", NULL, NULL, 9, 50, 400000, 2, 1, "(-50%)" },
		/* the calm windows predict 1000 calls in the 10 contended ones */
		{ "min_calls", "1000", NULL, NULL, 10, 10, 100000, 2, 1, "(-90%)" },
		{ "min_calls", "1001", NULL, NULL, 10, 10, 100000, 2, 0, NULL },
		/* a slower p99 needs that many calls on the contended side itself */
		{ "min_calls", "1000", NULL, NULL, 10, 100, 400000, 2, 1, "(x4.0)" },
		{ "min_calls", "1001", NULL, NULL, 10, 100, 400000, 2, 0, NULL },
	};

	(void)unused;
	run_edges(edges, sizeof(edges) / sizeof(edges[0]));
}

/*
 * A harm must cost the foreground at least 1 ms a second of the run: 10
 * windows at half the calls lose 500 ms, which is the floor of a 500 s run
 * (windows 10 to 5009) and under that of one window more.
 */
static void harm_below_the_cost_floor_is_no_finding(void **unused)
{
	(void)unused;
	opts_reset(NULL);
	for (uint64_t last = 5009; last <= 5010; last++) {
		void *st = start();
		uint64_t k = windows(st, 10, 20, 100, 100000, 0);

		k = windows(st, k, 10, 50, 100000, 4);
		windows(st, k, 5, 100, 100000, 0);
		/* a quiet gap, then one window: the run goes on, the clients' windows do not */
		window(st, last, 100, 100000, 0);
		stop_analyzer(st);
		assert_int_equal(nfound, last == 5009);
		if (nfound) {
			assert_int_equal(found[0].cost_ns, 500000000);
			assert_non_null(strstr(found[0].message, "Cost: 500.0 ms of the foreground's "
					       "time, 1.0 ms a second of the run (500.00 s)"));
		}
	}
}

static void each_side_needs_its_windows(void **unused)
{
	void *st;
	uint64_t k;

	(void)unused;
	opts_reset(NULL);
	/* calm windows before and after the contended ones: 5 + 5 counted (the first and
	 * the last are edges) make the 10 the calm side needs, wherever they are */
	st = start();
	k = windows(st, 10, 6, 100, 100000, 0);
	k = windows(st, k, 10, 30, 100000, 4);
	windows(st, k, 6, 100, 100000, 0);
	stop_analyzer(st);
	assert_int_equal(nfindings(CODE), 1);
	assert_int_equal(found[0].ts_first, 16 * W);
	assert_non_null(strstr(found[0].title, "client: 300 I/O calls/s instead of 1000 (-70%)"));
	assert_non_null(strstr(found[0].message, "  none busy (10 windows, 2 stretches)"));

	/* 9 calm windows in all: no judgement, and dio says so */
	st = start();
	k = windows(st, 10, 5, 100, 100000, 0);
	k = windows(st, k, 10, 30, 100000, 4);
	windows(st, k, 6, 100, 100000, 0);
	stop_analyzer(st);
	assert_int_equal(nfindings(CODE), 0);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].code, "contention.not-judged");
	assert_string_equal(found[0].title, "client: contention not judged: too few windows to "
			    "compare by how many were busy");
	assert_non_null(strstr(found[0].message, "at best 9 windows had 0 busy against 10 "
			       "with 4.\n"));
	/* the same with baseline_windows at 9 */
	opts_reset("baseline_windows", "9", NULL);
	st = start();
	k = windows(st, 10, 5, 100, 100000, 0);
	k = windows(st, k, 10, 30, 100000, 4);
	windows(st, k, 6, 100, 100000, 0);
	stop_analyzer(st);
	assert_int_equal(nfindings(CODE), 1);
}

static void harm_in_several_stretches_is_one_finding(void **unused)
{
	void *st;
	uint64_t k;
	const struct fake_finding *f;

	(void)unused;
	opts_reset(NULL);
	st = start();
	k = windows(st, 10, 20, 100, 100000, 0);
	k = windows(st, k, 4, 50, 100000, 2);
	k = windows(st, k, 2, 100, 100000, 0);
	k = windows(st, k, 4, 50, 100000, 2);
	k = windows(st, k, 2, 100, 100000, 0);
	k = windows(st, k, 4, 50, 100000, 2);
	k = windows(st, k, 1, 100, 100000, 0);
	/* a quiet gap of a minute, then more */
	k = windows(st, k + 600, 1, 100, 100000, 0);
	k = windows(st, k, 4, 50, 100000, 2);
	windows(st, k, 2, 100, 100000, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = &found[0];
	assert_int_equal(f->count, 16);
	assert_int_equal(f->ts_first, 30 * W);
	assert_int_equal(f->ts_last, k * W);
	assert_string_equal(f->title, "client: 500 I/O calls/s instead of 1000 (-50%), p99 100 us "
			    "instead of 100 us (x1.0) while 2 background threads did I/O, against "
			    "none");
	/* calm: 19 after the first window, 2, 2, none of the one before the gap (an edge, as
	 * is the one after it), 1 of the last 2 */
	assert_non_null(strstr(f->message, "  none busy (24 windows, 4 stretches): 1000 calls/s, "
			       "p99 100 us\n  2 busy (16 windows, 4 stretches): 500 calls/s (-50%)"));
	/* 800 ms lost in the run, the minute included (an hour would put it under the
	 * floor of 1 ms a second) */
	assert_int_equal(f->cost_ns, 800000000);
}

static void long_call_keeps_its_thread_busy_in_every_window(void **unused)
{
	struct dio_ev_syscall e;
	void *st;
	uint64_t k;

	(void)unused;
	/* two busy at least: rocksdb:low1 alone would not do */
	opts_reset("min_background", "2", NULL);
	st = start();
	k = windows(st, 10, 20, 100, 100000, 0);
	/* rocksdb:low0 is in one fsync from window 30 to 34 and one from 35 to 39 (each
	 * shorter than the 8 windows open at once); rocksdb:low1 writes in each window */
	for (int i = 0; i < 10; i++) {
		window(st, k + (uint64_t)i, 50, 100000, 0);
		e = sys_ev((k + (uint64_t)i) * W + 99000000, PID, 302, "rocksdb:low1", NR_pwrite64, 5,
			   &bgfile, 0, 4096, 1000);
		feed(st, &e);
		if (i % 5 == 4) {
			e = sys_ev((k + (uint64_t)i - 4) * W + 10, PID, 301, "rocksdb:low0", NR_fsync, 6,
				   &bgfile, -1, 0, 5 * W - 20);
			feed(st, &e);
		}
	}
	windows(st, k + 10, 5, 100, 100000, 0);
	stop_analyzer(st);
	assert_int_equal(nfindings(CODE), 1);
	assert_int_equal(found[0].ts_first, k * W);
	assert_int_equal(found[0].ts_last, (k + 10) * W);
	assert_non_null(strstr(found[0].title, "while 2 background threads did I/O, against none"));
	assert_non_null(strstr(found[0].excerpt, "fsync(6)"));
}

static void long_foreground_call_counts_where_it_began(void **unused)
{
	struct dio_ev_syscall e;
	void *st;
	uint64_t k;

	(void)unused;
	opts_reset(NULL);
	st = start();
	k = windows(st, 10, 20, 100, 100000, 0);
	/* client1 makes one call in each of 10 contended windows; client0 is stuck 250 ms in
	 * one fdatasync that began in the ninth and ended in a calm one: its count and its
	 * time go to the contended side */
	for (uint64_t i = 0; i < 10; i++) {
		window(st, k + i, 0, 0, 2);
		e = sys_ev((k + i) * W + 5000, PID, 202, "client1", NR_pwrite64, 3, &fgfile, 0, 4096,
			   100000);
		feed(st, &e);
	}
	window(st, k + 10, 100, 100000, 0);
	e = sys_ev((k + 8) * W + 5000, PID, 201, "client0", NR_fdatasync, 3, &fgfile, -1, 0,
		   250000000);
	feed(st, &e);
	windows(st, k + 11, 5, 100, 100000, 0);
	stop_analyzer(st);
	assert_int_equal(nfindings(CODE), 1);
	assert_int_equal(found[0].ts_last, (k + 10) * W);
	assert_non_null(strstr(found[0].title, "client: 11 I/O calls/s instead of 1000 (-99%), "
			       "p99 250.0 ms instead of 100 us (x2500.0)"));
	assert_non_null(strstr(found[0].excerpt, "fdatasync(3) = 0"));
}

/* 50 client calls, one a millisecond from t: half a window's worth */
static void half_window(void *st, uint64_t t)
{
	for (int i = 0; i < 50; i++) {
		struct dio_ev_syscall e = sys_ev(t + (uint64_t)i * 1000000, PID, 201 + (uint32_t)(i % 2),
						 i % 2 ? "client1" : "client0", NR_pwrite64, 3,
						 &fgfile, 0, 4096, 100000);

		feed(st, &e);
	}
}

static void clients_that_stop_or_start_during_contention_are_not_slow(void **unused)
{
	void *st;
	uint64_t k;

	(void)unused;
	opts_reset(NULL);
	/* the clients stop half-way through the first contended window */
	st = start();
	k = windows(st, 10, 20, 100, 100000, 0);
	window(st, k, 0, 0, 2);
	half_window(st, k * W + 1000);
	windows(st, k + 1, 5, 0, 0, 2);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
	/* they start half-way through the last one, and go on */
	st = start();
	k = windows(st, 10, 20, 100, 100000, 0);
	k = windows(st, k, 2, 0, 0, 0);
	k = windows(st, k, 4, 0, 0, 2);
	window(st, k, 0, 0, 2);
	half_window(st, k * W + W / 2);
	windows(st, k + 1, 5, 100, 100000, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

static void groups_and_roles(void **unused)
{
	static const struct edge edges[] = {
		/* rocksdb:high without a number, flush-7: background by default */
		{ NULL, NULL, NULL, "rocksdb:high", 10, 50, 100000, 2, 1, NULL },
		{ NULL, NULL, NULL, "flush-", 10, 50, 100000, 2, 1, NULL },
		/* worker-0 and worker-1 are the group "worker" */
		{ NULL, NULL, "worker-", NULL, 10, 50, 100000, 2, 1,
		  "worker: 500 I/O calls/s instead of 1000" },
		/* names the default list does not know are foreground... */
		{ NULL, NULL, NULL, "mybg_", 10, 50, 100000, 2, 0, NULL },
		/* ... unless the option names them, in any case; it replaces the default */
		{ "background", " mybg , other", NULL, "MyBG_", 10, 50, 100000, 2, 1, NULL },
		{ "background", "mybg", NULL, NULL, 10, 50, 100000, 2, 0, NULL },
		/* foreground names the foreground groups and wins over background */
		{ "foreground", "client", NULL, NULL, 10, 50, 100000, 2, 1, NULL },
		{ "foreground", "client,rocksdb", NULL, NULL, 10, 50, 100000, 2, 0, NULL },
		{ "foreground", "db_bench", NULL, NULL, 10, 50, 100000, 2, 0, NULL },
	};

	(void)unused;
	run_edges(edges, sizeof(edges) / sizeof(edges[0]));
	/* the message names the threads and the groups as the edges above made them */
	opts_reset(NULL);
	scenario_as("worker-", "flush-", 10, 50, 100000, 2);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].comm, "worker");
	assert_non_null(strstr(found[0].message, "threads worker-0, worker-1 (group worker)"));
	assert_non_null(strstr(found[0].message, "then: flush-0, flush-1 ("));
}

/* ---- background threads that never rest: windows judged by how many were busy ---- */

/* the calls of some windows, fed in the order they end */
static struct dio_ev_syscall batch[8192];
static int nbatch;

static void batch_feed(void *st)
{
	qsort(batch, (size_t)nbatch, sizeof(batch[0]), by_exit);
	for (int i = 0; i < nbatch; i++)
		feed(st, &batch[i]);
	nbatch = 0;
}

/*
 * In window k, nfg calls of the foreground group name (threads name0 and
 * name1 of process pid), spread over the window, the i-th lasting dur[i % ndur]
 * ns; each thread's tid is pid * 10 + its number.
 */
static void batch_fg(uint64_t k, uint32_t pid, const char *name, int nfg, const uint64_t *dur,
		     int ndur)
{
	for (int i = 0; i < nfg; i++) {
		char comm[16];

		assert_true(nbatch < 8192);
		snprintf(comm, sizeof(comm), "%s%d", name, i % 2);
		batch[nbatch++] = sys_ev(k * W + 1000 + (uint64_t)i * (W / (uint64_t)nfg), pid,
					 pid * 10 + (uint32_t)(i % 2), comm, NR_pwrite64, 3,
					 &fgfile, 4096 * i, 4096, dur[i % ndur]);
	}
}

/* in window k, a 1 MiB pwrite64 of each of nbg rocksdb:low threads of process PID */
static void batch_bg(uint64_t k, int nbg)
{
	for (int j = 0; j < nbg; j++) {
		char comm[32];

		assert_true(nbatch < 8192);
		snprintf(comm, sizeof(comm), "rocksdb:low%d", j);
		batch[nbatch++] = sys_ev(k * W + 500 + (uint64_t)j * 7919, PID, 301 + (uint32_t)j,
					 comm, NR_pwrite64, 5, &bgfile, (int64_t)j << 20, 1 << 20,
					 2000);
	}
}

/* background threads busy in window i of the pattern: 2 to 8, each as often, mixed */
static int busy(int i)
{
	static const int order[] = { 2, 5, 3, 8, 4, 6, 7 };

	return order[i % 7];
}

/* a small, fixed pseudo-random sequence (the same stream every run) */
static uint32_t rnd(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

/*
 * 140 windows, 20 at each of 2..8 background threads busy; from 5 busy on,
 * the clients make half the calls, and take four times as long
 */
static void busy_and_harmed(void)
{
	static const uint64_t fast = 100000, slow = 400000;
	void *st = start();

	for (int i = 0; i < 140; i++) {
		batch_fg(10 + (uint64_t)i, PID, "client", busy(i) >= 5 ? 50 : 100,
			 busy(i) >= 5 ? &slow : &fast, 1);
		batch_bg(10 + (uint64_t)i, busy(i));
		batch_feed(st);
	}
	stop_analyzer(st);
}

static void busy_background_is_judged_by_levels(void **unused)
{
	const struct fake_finding *f;

	(void)unused;
	opts_reset(NULL);
	busy_and_harmed();
	assert_int_equal(nfound, 1);
	f = finding(CODE);
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_WARNING);
	assert_string_equal(f->title, "client: 500 I/O calls/s instead of 1000 (-50%), p99 400 us "
			    "instead of 100 us (x4.0) while 5-8 background threads did I/O, "
			    "against 2-4");
	assert_int_equal(f->pid, PID);
	assert_int_equal(f->tid, PID * 10);
	assert_string_equal(f->comm, "client");
	/* the first and the last window are edges: window 10 (2 busy) and 149 (7 busy) */
	assert_int_equal(f->ts_first, 11 * W);
	assert_int_equal(f->ts_last, 149 * W);
	assert_int_equal(f->count, 79);
	assert_non_null(strstr(f->message, "  busy  windows  calls/s  p99\n"
			       "    2        19     1000  100 us\n"
			       "    3        20     1000  100 us\n"
			       "    4        20     1000  100 us\n"
			       "    5        20      500  400 us\n"
			       "    6        20      500  400 us\n"
			       "    7        19      500  400 us\n"
			       "    8        20      500  400 us\n"
			       "  2-4 busy (59 windows, 59 stretches): 1000 calls/s, p99 100 us\n"
			       "  5-8 busy (79 windows, 60 stretches): 500 calls/s (-50%), p99 400 us "
			       "(x4.0)\n"
			       "There was no window without background I/O: those with the fewest busy "
			       "are the baseline.\n"
			       "Cost: 3.95 s of the foreground's time, 282.1 ms a second of the run "
			       "(14.00 s):\nin its 7.90 s with 5-8 busy it made the calls it makes in "
			       "3.95 s with 2-4.\n"
			       "Background threads doing I/O then: rocksdb:low0, rocksdb:low1, "
			       "rocksdb:low2, rocksdb:low3, rocksdb:low4, rocksdb:low5, "
			       "rocksdb:low6, rocksdb:low7 ("));
	assert_non_null(strstr(f->message, "rate_limiter"));
	/* the excerpt: background calls, and slow client calls, of windows with 5-8 busy */
	assert_non_null(strstr(f->excerpt, "[100/301 rocksdb:low0] pwrite64(5) = 1048576\n"));
	assert_non_null(strstr(f->excerpt, "[100/1000 client0] pwrite64(3) = 4096\n"));
}

static void busy_background_that_does_no_harm_gives_none(void **unused)
{
	(void)unused;
	opts_reset(NULL);
	/* the same background, and clients whose rate and call times vary from window to
	 * window (70 to 130 calls; 50 to 250 us, one call in a hundred a 5 ms stall) but
	 * not with it: twenty streams, no finding of any kind */
	for (uint32_t seed = 1; seed <= 20; seed++) {
		uint32_t r = seed;
		void *st = start();

		for (int i = 0; i < 140; i++) {
			uint64_t dur[160];
			int n = 70 + (int)(rnd(&r) % 61);

			for (int j = 0; j < n; j++)
				dur[j] = rnd(&r) % 100 ? 50000 + rnd(&r) % 200000 : 5000000;
			batch_fg(10 + (uint64_t)i, PID, "client", n, dur, n);
			batch_bg(10 + (uint64_t)i, busy(i));
			batch_feed(st);
		}
		stop_analyzer(st);
		if (nfound)
			fail_msg("stream %u: %s: %s", seed, found[0].code, found[0].title);
	}
}

static void a_drop_within_the_noise_is_no_harm(void **unused)
{
	static const uint64_t fast = 100000;
	static const struct {
		int few[2], many[2], phases, want;
	} cases[] = {
		/* 35 % fewer calls, the windows steady: harm */
		{ { 100, 100 }, { 65, 65 }, 0, 1 },
		/* the same means, the windows swinging by 60 and 40 calls: 1.6 standard errors */
		{ { 40, 160 }, { 25, 105 }, 0, 0 },
		/* and 4.1 standard errors with a smaller swing */
		{ { 78, 122 }, { 47, 83 }, 0, 1 },
		/* the same windows in two phases, all the few first: each side is one stretch,
		 * one observation, and the drop may be the phase's */
		{ { 78, 122 }, { 47, 83 }, 1, 0 },
	};

	(void)unused;
	opts_reset(NULL);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		void *st = start();

		/* 24 windows counted: 12 with 2 busy and 12 with 6 (in turn, or in two
		 * phases), the clients' calls swinging between two numbers on each side */
		for (int i = 0; i < 26; i++) {
			int many = cases[c].phases ? i >= 13 : i % 2;
			int swing = cases[c].phases ? i % 2 : i / 2 % 2;
			int n = many ? cases[c].many[swing] : cases[c].few[swing];

			batch_fg(10 + (uint64_t)i, PID, "client", n, &fast, 1);
			batch_bg(10 + (uint64_t)i, many ? 6 : 2);
			batch_feed(st);
		}
		stop_analyzer(st);
		if (nfindings(CODE) != cases[c].want)
			fail_msg("case %zu: %d findings, expected %d: %s", c, nfindings(CODE),
				 cases[c].want, nfound ? found[0].title : "-");
	}
}

static void background_busy_alike_everywhere_is_not_judged(void **unused)
{
	static const uint64_t fast = 100000, slow = 400000;
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	/* 8 background threads busy in every window: nothing to compare, said once */
	st = start();
	for (int i = 0; i < 60; i++) {
		batch_fg(10 + (uint64_t)i, PID, "client", 50, &slow, 1);
		batch_fg(10 + (uint64_t)i, PID + 1, "server", 100, &fast, 1);
		batch_bg(10 + (uint64_t)i, 8);
		batch_feed(st);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = finding("contention.not-judged");
	assert_non_null(f);
	assert_int_equal(f->severity, DIO_SEV_INFO);
	/* the group with the most calls is named; the other one in the message */
	assert_string_equal(f->title, "server: contention not judged: 8 busy in every window");
	assert_int_equal(f->pid, PID + 1);
	assert_int_equal(f->ts_first, 11 * W);
	assert_int_equal(f->ts_last, 69 * W);
	assert_int_equal(f->count, 58);
	assert_non_null(strstr(f->message, "The foreground threads server0, server1 (group server) "
			       "did I/O in 58 windows of 100 ms\nin which at least 1 background "
			       "thread did I/O too (5800 calls)"));
	assert_non_null(strstr(f->message, "- comparing the windows by how many were busy needs 10 "
			       "windows on each side,\n  those with fewer busy and those with more:\n"
			       "  8 were busy in every one of them, there is nothing to compare.\n"
			       "  busy  windows  calls/s  p99\n"
			       "    8        58     1000  100 us\n"
			       "Other foreground groups not judged: client.\n"));

	/* busy from 2 to 8, but 15 windows in all: too few on either side of any split */
	st = start();
	for (int i = 0; i < 17; i++) {
		batch_fg(10 + (uint64_t)i, PID, "client", 100, &fast, 1);
		batch_bg(10 + (uint64_t)i, busy(i));
		batch_feed(st);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].code, "contention.not-judged");
	assert_non_null(strstr(found[0].message, "- comparing the windows by how many were busy "
			       "needs 10 windows on each side,\n  those with fewer busy and those "
			       "with more:\n  from 2 to 8 were busy, and at best 6 windows had 2-4 "
			       "busy against 9 with 5-8.\n"));

	/* windows enough, calls too few: 20 windows at 2 and at 6, 3 calls in each */
	opts_reset("min_calls", "100", NULL);
	st = start();
	for (int i = 0; i < 42; i++) {
		batch_fg(10 + (uint64_t)i, PID, "client", 3, &fast, 1);
		batch_bg(10 + (uint64_t)i, i < 21 ? 2 : 6);
		batch_feed(st);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].title, "client: contention not judged: too few calls to "
			    "compare by how many were busy");
	assert_non_null(strstr(found[0].message, "there were windows enough, but at most 60 calls "
			       "on the smaller side, and min_calls is 100.\n"));

	/* more than 16 busy is one level, "16 or more" */
	opts_reset("min_background", "20", NULL);
	st = start();
	for (int i = 0; i < 30; i++) {
		batch_fg(10 + (uint64_t)i, PID, "client", 100, &fast, 1);
		batch_bg(10 + (uint64_t)i, 20 + i % 5);
		batch_feed(st);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].title, "client: contention not judged: 16 or more busy in "
			    "every window");
	assert_non_null(strstr(found[0].message, "   16+       28     1000  100 us\n"));

	/* none or one busy in turn, the clients alike in both: judged, and no harm */
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 30; i++) {
		batch_fg(10 + (uint64_t)i, PID, "client", 100, &slow, 1);
		batch_bg(10 + (uint64_t)i, i % 2);
		batch_feed(st);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

static void one_finding_per_program_and_a_handful_at_most(void **unused)
{
	static const uint64_t fast = 100000;
	static const char *const names[] = { "svcA", "svcB", "svcC", "svcD", "svcE", "svcF" };
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	/* six programs (one process each) whose clients lose 40 to 65 % of their calls from
	 * 5 busy on; the first has a second group, "db_bench", that loses 35 % */
	for (int i = 0; i < 140; i++) {
		for (int p = 0; p < 6; p++)
			batch_fg(10 + (uint64_t)i, 1000 + (uint32_t)p, names[p],
				 busy(i) >= 5 ? 60 - 5 * p : 100, &fast, 1);
		batch_fg(10 + (uint64_t)i, 1000, "db_bench", busy(i) >= 5 ? 65 : 100, &fast, 1);
		batch_bg(10 + (uint64_t)i, busy(i));
		batch_feed(st);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 4);
	assert_int_equal(nfindings(CODE), 4);
	/* the worst first: svcF lost the most */
	assert_string_equal(found[0].comm, "svcF");
	assert_string_equal(found[1].comm, "svcE");
	assert_string_equal(found[2].comm, "svcD");
	assert_string_equal(found[3].comm, "svcC");
	assert_non_null(strstr(found[0].message, "Foreground threads of 2 more programs were "
			       "slowed down too; these are the 4 worst.\n"));
	assert_null(strstr(found[1].message, "more programs"));

	/* svcA's process: one finding, db_bench named in it */
	opts_reset(NULL);
	st = start();
	for (int i = 0; i < 140; i++) {
		batch_fg(10 + (uint64_t)i, 1000, "svcA", busy(i) >= 5 ? 60 : 100, &fast, 1);
		batch_fg(10 + (uint64_t)i, 1000, "db_bench", busy(i) >= 5 ? 65 : 100, &fast, 1);
		batch_bg(10 + (uint64_t)i, busy(i));
		batch_feed(st);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	assert_string_equal(found[0].comm, "svcA");
	assert_non_null(strstr(found[0].message, "Other foreground groups of this program were "
			       "slowed down too: db_bench (-35% calls/s, p99 x1.0, 2.77 s lost).\n"));
	/* 79 windows of 100 ms at 40 % and at 35 % fewer calls */
	assert_int_equal(found[0].cost_ns, 5925000000);
	assert_int_equal(found[0].processes, 1);
}

static void processes_of_one_program_are_one_finding(void **unused)
{
	static const uint64_t fast = 100000;
	const struct fake_finding *f;
	void *st;

	(void)unused;
	opts_reset(NULL);
	st = start();
	/* three processes of kvd: readers in the first and the third (one group, "reader"),
	 * writers in the second; the readers lose half their calls from 5 busy on, the
	 * writers 40 % */
	for (uint32_t p = 2000; p <= 2002; p++) {
		struct dio_ev_proc e = exec_ev(9 * W, p, "kvd");

		feed(st, &e.hdr);
	}
	for (int i = 0; i < 140; i++) {
		batch_fg(10 + (uint64_t)i, 2000, "reader", busy(i) >= 5 ? 50 : 100, &fast, 1);
		batch_fg(10 + (uint64_t)i, 2001, "writer", busy(i) >= 5 ? 60 : 100, &fast, 1);
		batch_fg(10 + (uint64_t)i, 2002, "reader", busy(i) >= 5 ? 50 : 100, &fast, 1);
		batch_bg(10 + (uint64_t)i, busy(i));
		batch_feed(st);
	}
	stop_analyzer(st);
	assert_int_equal(nfound, 1);
	f = &found[0];
	assert_string_equal(f->code, CODE);
	/* the worse group leads: its first thread's process */
	assert_string_equal(f->comm, "reader");
	assert_int_equal(f->pid, 2000);
	assert_int_equal(f->processes, 3);
	/* 79 windows of 100 ms at half the calls, and at 40 % fewer */
	assert_int_equal(f->cost_ns, 7110000000);
	assert_non_null(strstr(f->message, "Other foreground groups of this program were slowed "
			       "down too: writer (-40% calls/s, p99 x1.0, 3.16 s lost).\n"
			       "3 processes of kvd showed it: 2000, 2001, 2002.\n"));
}

static void busy_background_same_stream_same_findings(void **unused)
{
	struct fake_finding first;

	(void)unused;
	opts_reset(NULL);
	busy_and_harmed();
	assert_int_equal(nfound, 1);
	first = found[0];
	busy_and_harmed();
	assert_int_equal(nfound, 1);
	assert_memory_equal(&first, &found[0], sizeof(first));
}

static void failed_and_other_calls_do_not_count(void **unused)
{
	void *st;
	uint64_t k;

	(void)unused;
	opts_reset(NULL);
	st = start();
	k = windows(st, 10, 20, 100, 100000, 0);
	/* the background threads only stat and fail writes: no contention */
	for (int i = 0; i < 5; i++, k++) {
		struct dio_ev_syscall a = sys_ev(k * W + 10, PID, 301, "rocksdb:low0", NR_newfstatat,
						 -1, NULL, -1, 0, 1000);
		struct dio_ev_syscall b = sys_ev(k * W + 20, PID, 302, "rocksdb:low1", NR_pwrite64, 5,
						 &bgfile, 0, -28, 1000);

		feed(st, &a);
		feed(st, &b);
		window(st, k, 50, 400000, 0);
	}
	windows(st, k, 5, 100, 100000, 0);
	stop_analyzer(st);
	assert_int_equal(nfound, 0);
}

static void same_stream_same_findings(void **unused)
{
	struct fake_finding first;

	(void)unused;
	opts_reset(NULL);
	scenario(10, 50, 400000, 4);
	assert_int_equal(nfound, 1);
	first = found[0];
	scenario(10, 50, 400000, 4);
	assert_int_equal(nfound, 1);
	assert_memory_equal(&first, &found[0], sizeof(first));
}

/* windows=FILE: a line per window and the verdict, in a file only its owner reads */
static void windows_file_says_what_was_decided(void **unused)
{
	char path[] = "/tmp/dio-test-contention-XXXXXX", text[1 << 16];
	struct stat st;
	size_t n;
	FILE *f;
	int fd;

	(void)unused;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	opts_reset("windows", path, NULL);
	scenario(10, 50, 400000, 4);
	assert_int_equal(nfindings(CODE), 1);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	unlink(path);
	text[n] = 0;
	/* the first window of the clients is an edge, a calm one and a contended one count */
	assert_non_null(strstr(text, "window 10 busy 0 | client 100 calls p99 100000 ns (edge)\n"));
	assert_non_null(strstr(text, "window 11 busy 0 | client 100 calls p99 100000 ns\n"));
	assert_non_null(strstr(text, "window 30 busy 4 | client 50 calls p99 400000 ns\n"));
	assert_non_null(strstr(text, "compare client 4-4 with 0-3: few 23 windows 2 stretches 2300 "
			       "calls p99 100000 ns, many 10 windows 1 stretches 500 calls p99 "
			       "400000 ns; rate z^2 "));
	assert_non_null(strstr(text, "level client 0: 23 windows 2300 calls p99 100000 ns\n"
			       "level client 4: 10 windows 500 calls p99 400000 ns\n"
			       "group client: verdict: harm (4-4 busy against 0-0, cost 500000000 "
			       "ns)\n"));
	opts_reset(NULL);
}

static void bad_options_are_refused(void **unused)
{
	static const char *const bad[][2] = {
		{ "window_ms", "0" }, { "min_background", "0" }, { "rate_drop", "0" },
		{ "rate_drop", "101" }, { "latency_factor", "0.5" }, { "min_calls", "0" },
		{ "baseline_windows", "0" }, { "max_threads", "0" }, { "max_groups", "0" },
{ "background", "" }, { "background", " , " },
		{ "foreground", "a,this-name-is-too-long" },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *st = NULL;

		opts_reset(bad[i][0], bad[i][1], NULL);
		logged[0] = 0;
		assert_int_equal(dio_analyzer.init(&fakehost, &fake_ctx, opts, &st), -EINVAL);
		assert_null(st);
		assert_true(logged[0] != 0);
	}
	assert_non_null(strstr(logged, "this-name-is-too-long"));
}

/* what the README says the defaults take: 2.71 MiB */
static void the_defaults_take_what_the_readme_says(void **unused)
{
	size_t used;

	(void)unused;
	opts_reset(NULL);
	used = init_heap_bytes();
	if (used < 2800000 || used > 2900000)
		fail_msg("%zu bytes after init", used);
}

static void memory_stays_bounded(void **unused)
{
	size_t before;
	void *st;
	uint64_t ts = 10 * W;

	(void)unused;
	opts_reset("max_threads", "256", "max_groups", "8", NULL);
	st = start();
	window(st, 9, 100, 100000, 4);
	before = heap_in_use();
	/* ever-new threads, many of them in ever-new groups, for 100 s of windows */
	for (uint32_t i = 0; i < 1200000; i++) {
		char comm[16];
		struct dio_ev_syscall e;
		int bg = i % 3 == 0;

		if (bg)
			snprintf(comm, sizeof(comm), "rocksdb:low%u", i % 7);
		else if (i % 3 == 1)
			snprintf(comm, sizeof(comm), "client%u", i);
		else
			snprintf(comm, sizeof(comm), "g%xz", i);
		e = sys_ev(ts += 80000, PID, 1000 + i, comm, bg ? NR_pwrite64 : NR_pread64,
			   3, &fgfile, 0, 4096, i % 1000 * 1000);
		feed(st, &e);
	}
	assert_true(heap_in_use() <= before);
	stop_analyzer(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pattern_gives_one_finding_with_the_numbers),
		cmocka_unit_test(threads_pushed_out_are_counted_in_the_finding),
		cmocka_unit_test(fixed_counterpart_gives_none),
		cmocka_unit_test(thresholds_at_their_edges),
		cmocka_unit_test(harm_below_the_cost_floor_is_no_finding),
		cmocka_unit_test(each_side_needs_its_windows),
		cmocka_unit_test(harm_in_several_stretches_is_one_finding),
		cmocka_unit_test(long_call_keeps_its_thread_busy_in_every_window),
		cmocka_unit_test(long_foreground_call_counts_where_it_began),
		cmocka_unit_test(clients_that_stop_or_start_during_contention_are_not_slow),
		cmocka_unit_test(groups_and_roles),
		cmocka_unit_test(busy_background_is_judged_by_levels),
		cmocka_unit_test(busy_background_that_does_no_harm_gives_none),
		cmocka_unit_test(a_drop_within_the_noise_is_no_harm),
		cmocka_unit_test(background_busy_alike_everywhere_is_not_judged),
		cmocka_unit_test(one_finding_per_program_and_a_handful_at_most),
		cmocka_unit_test(processes_of_one_program_are_one_finding),
		cmocka_unit_test(busy_background_same_stream_same_findings),
		cmocka_unit_test(failed_and_other_calls_do_not_count),
		cmocka_unit_test(same_stream_same_findings),
		cmocka_unit_test(windows_file_says_what_was_decided),
		cmocka_unit_test(bad_options_are_refused),
		cmocka_unit_test(the_defaults_take_what_the_readme_says),
		cmocka_unit_test(memory_stays_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
