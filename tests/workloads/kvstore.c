// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RocksDB's compaction contention in small: two foreground threads ("client0",
 * "client1") each write 4 KiB and fdatasync it once a millisecond, as a
 * key-value store's clients commit small records; after a quiet baseline, four
 * background threads ("rocksdb:low0".."rocksdb:low3") write large files with
 * fsync, as compaction threads do, then stop, and the clients go on a little.
 *
 *   saturate   the background threads write 1 MiB at a time as fast as they
 *              can, an fsync every 16 MiB: the disk queue fills and each client
 *              fdatasync waits behind it.
 *   throttled  the same threads, rate-limited as RocksDB's rate_limiter would:
 *              256 KiB every 25 ms each (10 MiB/s), an fsync every 1 MiB. They
 *              still do I/O at the same time in every 100 ms, but leave the
 *              disk to the clients.
 *   busy       eight background threads that never all rest: from before the
 *              clients start until after they stop, 2 to 8 of them at a time
 *              (the number changes every 300 ms, slots aligned on 100 ms of
 *              CLOCK_MONOTONIC, the busy ones taking turns) each write 4 MiB and
 *              fdatasync it, again and again. Each busy thread adds 4 MiB to
 *              the device's queue, so the more are busy, the longer the
 *              clients' fdatasyncs wait. There is no quiet baseline.
 *
 * What the workload measured itself goes to descriptor 9, one key=value a line:
 * the thread names, the background phase in CLOCK_REALTIME ns, and the
 * clients' call rate (pwrite64 and fdatasync calls a second, both threads) and
 * p99 call time in the baseline and in the background phase; then every client
 * call as "call TS DURATION" (entry in CLOCK_REALTIME ns, as dio converts its
 * CLOCK_MONOTONIC times, and ns in the call), from which a test works out what
 * an analyzer must have counted in any window.
 *
 * The program is named kvstore, not after its compaction threads: the main
 * thread carries the program name, and "compact" is a default background
 * pattern of the analyzer.
 *
 * The facts also hold every background call as "bgcall TID TS DURATION", to
 * work out how many background threads were busy in a window.
 *
 * usage: kvstore DIR saturate|throttled|busy 9> FACTS
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "truth.h"

#define CLIENTS		2
#define BGS		4
#define BUSY_BGS	8
#define BUSY_NS		6000000000ULL		/* the clients' time in busy mode */
#define SLOT_NS		300000000ULL		/* one number of busy background threads */
#define LEAD_NS		300000000ULL		/* busy mode: background before and after */
#define GUARD_NS	20000000ULL		/* no new call so close to a slot's end */
#define BG_OPS		(1 << 17)		/* background calls kept per thread */
#define PERIOD_NS	1000000ULL		/* one write + fdatasync a millisecond */
#define BASELINE_NS	1500000000ULL
#define BG_NS		2500000000ULL
#define TAIL_NS		700000000ULL
#define CLIENT_FILE	(4 << 20)
#define BG_FILE		(32 << 20)
#define MAX_OPS		((BUSY_NS > BASELINE_NS + BG_NS + TAIL_NS ? BUSY_NS : \
			  BASELINE_NS + BG_NS + TAIL_NS) / PERIOD_NS + 16)

static const char *dir;
static int throttled, busy;
/* CLOCK_MONOTONIC ns: the phases, fixed before any thread starts */
static uint64_t t_start, t_bg, t_bg_end, t_end;

struct op {
	uint64_t ts, dur;	/* entry, time in the call */
};

struct client {
	pthread_t th;
	int id;
	pid_t tid;
	size_t nops;
	struct op ops[2 * MAX_OPS];
};

struct bgcalls {
	pid_t tid;
	size_t n;
	struct op ops[BG_OPS];
};

static struct client clients[CLIENTS];
static uint64_t bg_bytes[BUSY_BGS];
static struct bgcalls bgcalls[BUSY_BGS];

/*
 * busy mode: how many background threads are busy in each slot, in turn; 2
 * and 8 more often than the others, so that each end has windows enough for a
 * comparison in a 6 s run (5 on average: each thread is busy 5/8 of the time)
 */
static const int busy_seq[] = { 2, 8, 3, 7, 2, 6, 8, 4, 2, 8, 5 };

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ULL),
			       .tv_nsec = (long)(t % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int open_file(const char *name, off_t size)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	must(fd >= 0, path);
	must(posix_fallocate(fd, 0, size) == 0, "posix_fallocate");
	return fd;
}

static void *client(void *arg)
{
	struct client *c = arg;
	static char buf[CLIENTS][4096];
	char name[16], file[32];
	uint64_t next = t_start;
	off_t off = 0;
	int fd;

	c->tid = gettid();
	snprintf(name, sizeof(name), "client%d", c->id);
	must(pthread_setname_np(pthread_self(), name) == 0, "pthread_setname_np");
	snprintf(file, sizeof(file), "client%d.dat", c->id);
	fd = open_file(file, CLIENT_FILE);
	memset(buf[c->id], 'c', sizeof(buf[0]));
	sleep_until(t_start);
	while (now_ns(CLOCK_MONOTONIC) < t_end) {
		uint64_t t0 = now_ns(CLOCK_MONOTONIC), t1, t2;

		must(pwrite(fd, buf[c->id], 4096, off) == 4096, "pwrite");
		t1 = now_ns(CLOCK_MONOTONIC);
		must(fdatasync(fd) == 0, "fdatasync");
		t2 = now_ns(CLOCK_MONOTONIC);
		c->ops[c->nops++] = (struct op){ t0, t1 - t0 };
		c->ops[c->nops++] = (struct op){ t1, t2 - t1 };
		off = (off + 4096) % CLIENT_FILE;
		/* a steady rate while the disk keeps up; no catching up after a stall */
		next += PERIOD_NS;
		if (next < t2)
			next = t2;
		sleep_until(next);
	}
	close(fd);
	return NULL;
}

/* busy mode: is background thread id busy in slot i? The busy ones take turns. */
static int busy_in(int id, uint64_t i)
{
	int n = busy_seq[i % (sizeof(busy_seq) / sizeof(busy_seq[0]))];

	return (id + BUSY_BGS - (int)(3 * i % BUSY_BGS)) % BUSY_BGS < n;
}

/* one background call, timed */
static void bg_op(struct bgcalls *b, uint64_t t0)
{
	must(b->n < BG_OPS, "too many background calls to keep");
	b->ops[b->n++] = (struct op){ t0, now_ns(CLOCK_MONOTONIC) - t0 };
}

static void *background(void *arg)
{
	int id = (int)(intptr_t)arg;
	size_t chunk = throttled ? 256 << 10 : busy ? 4 << 20 : 1 << 20;
	uint64_t sync_every = throttled ? 1 << 20 : busy ? chunk : 16 << 20, since_sync = 0;
	uint64_t next = t_bg;
	struct bgcalls *b = &bgcalls[id];
	char name[16], file[32];
	char *buf;
	off_t off = 0;
	int fd;

	b->tid = gettid();
	snprintf(name, sizeof(name), "rocksdb:low%d", id);
	must(pthread_setname_np(pthread_self(), name) == 0, "pthread_setname_np");
	snprintf(file, sizeof(file), "sst%d.dat", id);
	fd = open_file(file, BG_FILE);
	buf = malloc(chunk);
	must(buf != NULL, "malloc");
	memset(buf, 'b', chunk);
	sleep_until(t_bg);
	while (now_ns(CLOCK_MONOTONIC) < t_bg_end) {
		uint64_t t0 = now_ns(CLOCK_MONOTONIC);

		if (busy && (!busy_in(id, (t0 - t_bg) / SLOT_NS) ||
			     (t0 - t_bg) % SLOT_NS > SLOT_NS - GUARD_NS)) {
			/* no call that would still run when the slot ends */
			sleep_until(t_bg + ((t0 - t_bg) / SLOT_NS + 1) * SLOT_NS);
			continue;
		}
		must(pwrite(fd, buf, chunk, off) == (ssize_t)chunk, "pwrite");
		bg_op(b, t0);
		bg_bytes[id] += chunk;
		off = (off + (off_t)chunk) % BG_FILE;
		since_sync += chunk;
		if (since_sync >= sync_every) {
			t0 = now_ns(CLOCK_MONOTONIC);
			must((busy ? fdatasync(fd) : fsync(fd)) == 0, "fsync");
			bg_op(b, t0);
			since_sync = 0;
		}
		if (throttled) {
			next += 25000000ULL;
			sleep_until(next);
		}
	}
	free(buf);
	close(fd);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* calls a second and p99 call time (ns) of the client calls that began in [from, to) */
static void phase(uint64_t from, uint64_t to, double *rate, uint64_t *p99)
{
	static uint64_t d[CLIENTS * 2 * MAX_OPS];
	size_t n = 0;

	for (int i = 0; i < CLIENTS; i++)
		for (size_t k = 0; k < clients[i].nops; k++)
			if (clients[i].ops[k].ts >= from && clients[i].ops[k].ts < to)
				d[n++] = clients[i].ops[k].dur;
	qsort(d, n, sizeof(d[0]), cmp_u64);
	*rate = (double)n * 1e9 / (double)(to - from);
	/* the smallest time at least 99 % of the calls do not exceed */
	*p99 = n ? d[(n * 99 + 99) / 100 - 1] : 0;
}

int main(int argc, char **argv)
{
	pthread_t bg[BUSY_BGS];
	uint64_t mono, real, total = 0, off;
	double base_rate, cont_rate;
	uint64_t base_p99, cont_p99;
	int nbg;
	FILE *facts;

	truth_init("kvstore");
	if (argc != 3 || (strcmp(argv[2], "saturate") && strcmp(argv[2], "throttled") &&
			  strcmp(argv[2], "busy"))) {
		fprintf(stderr, "usage: kvstore DIR saturate|throttled|busy 9> FACTS\n");
		return 2;
	}
	dir = argv[1];
	throttled = !strcmp(argv[2], "throttled");
	busy = !strcmp(argv[2], "busy");
	nbg = busy ? BUSY_BGS : BGS;
	/* time for the threads to name themselves and lay out their files first */
	t_start = now_ns(CLOCK_MONOTONIC) + 300000000ULL;
	if (busy) {
		/* the slots begin and end with the analyzer's 100 ms windows */
		t_start += 100000000ULL - t_start % 100000000ULL + LEAD_NS;
		t_end = t_start + BUSY_NS;
		t_bg = t_start - LEAD_NS;
		t_bg_end = t_end + LEAD_NS;
	} else {
		t_bg = t_start + BASELINE_NS;
		t_bg_end = t_bg + BG_NS;
		t_end = t_bg_end + TAIL_NS;
	}
	for (int i = 0; i < CLIENTS; i++) {
		clients[i].id = i;
		must(pthread_create(&clients[i].th, NULL, client, &clients[i]) == 0,
		     "pthread_create");
	}
	for (int i = 0; i < nbg; i++)
		must(pthread_create(&bg[i], NULL, background, (void *)(intptr_t)i) == 0,
		     "pthread_create");
	for (int i = 0; i < nbg; i++)
		pthread_join(bg[i], NULL);
	for (int i = 0; i < CLIENTS; i++)
		pthread_join(clients[i].th, NULL);

	if (!busy) {
		phase(t_start, t_bg, &base_rate, &base_p99);
		phase(t_bg, t_bg_end, &cont_rate, &cont_p99);
	}
	for (int i = 0; i < nbg; i++)
		total += bg_bytes[i];
	mono = now_ns(CLOCK_MONOTONIC);
	real = now_ns(CLOCK_REALTIME);
	off = real - mono;
	/* buffered: a write a line would be calls of a group of its own */
	facts = fdopen(TRUTH_FD, "w");
	must(facts != NULL, "fdopen");
	fprintf(facts, "pid=%d\nfg_group=client\n", getpid());
	fprintf(facts, "fg_tids=%d %d\n", clients[0].tid, clients[1].tid);
	fprintf(facts, "bg_threads=");
	for (int i = 0; i < nbg; i++)
		fprintf(facts, "%srocksdb:low%d", i ? ", " : "", i);
	fprintf(facts, "\nbg_start_ns=%llu\n", (unsigned long long)(t_bg + off));
	fprintf(facts, "bg_end_ns=%llu\n", (unsigned long long)(t_bg_end + off));
	fprintf(facts, "bg_bytes=%llu\n", (unsigned long long)total);
	if (busy) {
		fprintf(facts, "fg_start_ns=%llu\n", (unsigned long long)(t_start + off));
		fprintf(facts, "fg_end_ns=%llu\n", (unsigned long long)(t_end + off));
	} else {
		fprintf(facts, "base_rate=%.0f\nbase_p99_us=%llu\n", base_rate,
			(unsigned long long)(base_p99 / 1000));
		fprintf(facts, "cont_rate=%.0f\ncont_p99_us=%llu\n", cont_rate,
			(unsigned long long)(cont_p99 / 1000));
	}
	for (int i = 0; i < CLIENTS; i++)
		for (size_t k = 0; k < clients[i].nops; k++)
			fprintf(facts, "call %llu %llu\n",
				(unsigned long long)(clients[i].ops[k].ts + off),
				(unsigned long long)clients[i].ops[k].dur);
	for (int i = 0; i < nbg; i++)
		for (size_t k = 0; k < bgcalls[i].n; k++)
			fprintf(facts, "bgcall %d %llu %llu\n", bgcalls[i].tid,
				(unsigned long long)(bgcalls[i].ops[k].ts + off),
				(unsigned long long)bgcalls[i].ops[k].dur);
	must(fclose(facts) == 0, "writing the facts");
	return 0;
}
