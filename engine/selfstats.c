// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loss.h"
#include "selfstats.h"
#include "tracefile.h"
#include "util.h"
#include "weight.h"

#define SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

struct prog_time {
	char *name;
	uint64_t runs, ns;
};

struct selfstats {
	int stats_fd;		/* BPF_ENABLE_STATS, or -1 */
	int sysctl_old;		/* kernel.bpf_stats_enabled to put back, or -1 */
	int kernel_stats;	/* the probes' times are counted */
	struct prog_time *progs;
	size_t nprogs;
	uint64_t records, bytes, wakeups;
	uint64_t cpu_start, cpu_ns;
	int consuming;
	int consumer_nice;	/* the consumer thread's nice value, as weight__raise returns it */
	int writer;		/* selfstats__writer was called */
	struct tf_writer_time wt;
	uint64_t w_records, w_raw, w_disk;
	struct loss loss;
	int has_loss;
};

static int sysctl_read(void)
{
	char buf[16] = "";
	int fd = open(SYSCTL, O_RDONLY | O_CLOEXEC), n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -EIO;
}

static int sysctl_write(int val)
{
	char buf[4];
	int fd = open(SYSCTL, O_WRONLY | O_CLOEXEC), n, e = 0;

	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%d\n", !!val);
	if (write(fd, buf, n) != n)
		e = -errno;
	close(fd);
	return e;
}

/* the sysctl way: on until selfstats__free puts the old value back (not if dio is killed) */
static int enable_sysctl(struct selfstats *st)
{
	int old = sysctl_read(), e;

	if (old < 0)
		return old;
	if (old)
		return 0;	/* someone else's setting: leave it as it is */
	e = sysctl_write(1);
	if (!e)
		st->sysctl_old = old;
	return e;
}

static void enable(struct selfstats *st)
{
	const char *force = secure_getenv("DIO_STATS_SYSCTL");
	int e = -EINVAL;

	if (!force || strcmp(force, "1")) {
		st->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (st->stats_fd >= 0) {
			st->kernel_stats = 1;
			return;
		}
		e = -errno;
	}
	/* BPF_ENABLE_STATS came with Linux 5.8 */
	if (e == -EINVAL || e == -EOPNOTSUPP || e == -ENOSYS) {
		e = enable_sysctl(st);
		if (!e) {
			st->kernel_stats = 1;
			return;
		}
	}
	warn_msg("--stats: cannot turn on the kernel's BPF statistics (%s): the probes' times are "
		 "left out; run dio as root (CAP_SYS_ADMIN) for them", strerror(-e));
}

struct selfstats *selfstats__new(void)
{
	struct selfstats *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->stats_fd = -1;
	st->sysctl_old = -1;
	enable(st);
	return st;
}

void selfstats__free(struct selfstats *st)
{
	if (!st)
		return;
	if (st->stats_fd >= 0)
		close(st->stats_fd);
	if (st->sysctl_old >= 0 && sysctl_write(st->sysctl_old))
		warn_msg("--stats: cannot set kernel.bpf_stats_enabled back to %d: %s; "
			 "run 'sysctl kernel.bpf_stats_enabled=%d'", st->sysctl_old, strerror(errno),
			 st->sysctl_old);
	for (size_t i = 0; i < st->nprogs; i++)
		free(st->progs[i].name);
	free(st->progs);
	free(st);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void selfstats__consumer_start(struct selfstats *st)
{
	st->cpu_start = thread_cpu_ns();
	st->consuming = 1;
	errno = 0;
	st->consumer_nice = getpriority(PRIO_PROCESS, 0);
	if (st->consumer_nice == -1 && errno)
		st->consumer_nice = -1000 - errno;
}

void selfstats__consumer_stop(struct selfstats *st)
{
	if (!st->consuming)
		return;
	st->cpu_ns += thread_cpu_ns() - st->cpu_start;
	st->consuming = 0;
}

void selfstats__record(struct selfstats *st, size_t size)
{
	st->records++;
	st->bytes += size;
}

void selfstats__poll(struct selfstats *st, int n)
{
	if (n > 0)
		st->wakeups++;
}

int selfstats__progs(struct selfstats *st, struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		struct prog_time *p;
		int fd = bpf_program__fd(prog);

		if (fd < 0)	/* not loaded: not wanted on this kernel or by the options */
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len))
			return -errno;
		p = realloc(st->progs, (st->nprogs + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		st->progs = p;
		p = &st->progs[st->nprogs];
		p->name = strdup(bpf_program__name(prog));
		if (!p->name)
			return -ENOMEM;
		p->runs = info.run_cnt;
		p->ns = info.run_time_ns;
		st->nprogs++;
	}
	return 0;
}

void selfstats__writer(struct selfstats *st, const struct tf_writer_time *t, uint64_t records,
		       uint64_t raw_bytes, uint64_t disk_bytes)
{
	st->writer = 1;
	tf_writer_time__add(&st->wt, t);
	st->w_records += records;
	st->w_raw += raw_bytes;
	st->w_disk += disk_bytes;
}

void selfstats__loss(struct selfstats *st, const struct loss *l)
{
	st->loss = *l;
	st->has_loss = 1;
}

/* ns per item, or "-" when there were none */
static const char *per(char *buf, size_t len, uint64_t ns, uint64_t n)
{
	if (!n)
		return "-";
	snprintf(buf, len, "%.0f", (double)ns / (double)n);
	return buf;
}

/* a trace file's compression level, as --stats names it */
static const char *level_name(int level, char *buf, size_t len)
{
	if (!level)
		return "packing only";
	snprintf(buf, len, "zstd level %d", level);
	return buf;
}

/* what the writer's pace did: how far below --level it went and for how many records */
static void pace_row(FILE *f, const struct tf_writer_time *t)
{
	char b[32];

	if (!t->downs) {
		fprintf(f, "  %-28s %12" PRIu64 " %12s %10s  %s\n", "writer below --level", t->lowered,
			"", "", "records written below the level asked for: none, it kept up");
		return;
	}
	fprintf(f, "  %-28s %12" PRIu64 " %12s %10s  records written below --level %d: %" PRIu64
		" steps down, to %s at the lowest, %" PRIu64 " back up\n", "writer below --level",
		t->lowered, "", "", t->level, t->downs, level_name(t->level - t->depth, b, sizeof(b)),
		t->ups);
}

/* one row: what, count, total ms, ns each, and a note */
static void row(FILE *f, const char *what, uint64_t n, uint64_t ns, const char *note)
{
	char b[32];

	fprintf(f, "  %-28s %12" PRIu64 " %12.1f %10s  %s\n", what, n, ns / 1e6,
		per(b, sizeof(b), ns, n), note);
}

static void loss_row(void *ud, const char *key, const char *what, uint64_t n)
{
	char name[40];

	if (!n)
		return;
	snprintf(name, sizeof(name), "dropped %s", key);
	fprintf(ud, "  %-28s %12" PRIu64 " %12s %10s  %s\n", name, n, "", "", what);
}

void selfstats__print(const struct selfstats *st, FILE *f)
{
	uint64_t runs = 0, ns = 0;
	char name[64];

	fprintf(f, "dio: --stats: where the time went\n");
	fprintf(f, "  %-28s %12s %12s %10s\n", "", "count", "total ms", "ns each");
	for (size_t i = 0; i < st->nprogs; i++) {
		const struct prog_time *p = &st->progs[i];

		if (!p->runs)
			continue;
		snprintf(name, sizeof(name), "probe %s", p->name);
		row(f, name, p->runs, p->ns, "runs of the BPF program");
		runs += p->runs;
		ns += p->ns;
	}
	if (st->kernel_stats)
		row(f, "probes", runs, ns, "all programs together");
	else
		fprintf(f, "  %-28s %12s %12s %10s  %s\n", "probes", "-", "-", "-",
			"the kernel's BPF statistics could not be turned on");
	fprintf(f, "  %-28s %12" PRIu64 " %12s %10s  %s\n", "ring records", st->records, "", "",
		"records the consumer took from the ring");
	fprintf(f, "  %-28s %12" PRIu64 " %12s %10.1f  %s\n", "ring bytes", st->bytes, "",
		st->records ? (double)st->bytes / (double)st->records : 0.0, "bytes per record");
	row(f, "consumer", st->records, st->cpu_ns, "consumer thread's CPU time per record");
	fprintf(f, "  %-28s %12" PRIu64 " %12s %10.1f  %s\n", "wakeups", st->wakeups, "",
		st->wakeups ? (double)st->records / (double)st->wakeups : 0.0,
		"records per wakeup");
	if (st->writer) {
		row(f, "writer busy", st->w_records, st->wt.busy_ns,
		    "writer thread's wall time per record written");
		row(f, "writer compressing", st->w_records, st->wt.compress_ns, "its CPU time");
		row(f, "writer writing", st->w_records, st->wt.write_ns, "its CPU time in write(2)");
		row(f, "writer waiting for a CPU", st->w_records, st->wt.runq_ns,
		    "runnable but not running, while busy");
		fprintf(f, "  %-28s %12" PRIu64 " %12s %10.2f  %s\n", "compression", st->w_disk, "",
			st->w_disk ? (double)st->w_raw / (double)st->w_disk : 0.0,
			"bytes on disk; ratio of record bytes to them");
		pace_row(f, &st->wt);
	}
	{
		char c[96], w[96];

		fprintf(f, "  %-28s %12s %12s %10s  consumer at %s%s%s\n", "scheduling", "", "", "",
			weight__text(st->consumer_nice, c, sizeof(c)), st->writer ? ", writer at " : "",
			st->writer ? weight__text(st->wt.nice, w, sizeof(w)) : "");
	}
	if (st->has_loss) {
		fprintf(f, "  %-28s %12" PRIu64 " %12s %10s  %s\n", "dropped", loss__records(&st->loss),
			"", "", "records lost, every reason together");
		loss__each(&st->loss, loss_row, f);
	}
}
