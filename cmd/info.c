// SPDX-License-Identifier: GPL-2.0-or-later
/* dio info: the metadata and the counts of a trace file */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dio/plugin.h>
#include "cmd/cmd.h"
#include "engine/record.h"
#include "engine/sources.h"
#include "engine/syscalls.h"
#include "engine/tracefile.h"
#include "engine/util.h"

/* dio info's records per process: open addressing on pid, bounded */
#define PROC_SLOTS	65536	/* processes counted one by one; the rest go to "others" */
#define PROC_SHOWN	20

struct proc_count {
	uint32_t pid;		/* 0: free slot */
	char comm[DIO_COMM_LEN];
	uint64_t n;
};

static void count_proc(struct proc_count *t, uint64_t *others, uint32_t pid, const char *comm)
{
	uint32_t i = (pid * 2654435761u) % PROC_SLOTS;

	for (uint32_t probes = 0; probes < PROC_SLOTS / 2; probes++, i = (i + 1) % PROC_SLOTS) {
		if (t[i].pid == pid || !t[i].pid) {
			t[i].pid = pid;
			/* the process's name as of its last record: after exec, the new one */
			memcpy(t[i].comm, comm, DIO_COMM_LEN);
			t[i].comm[DIO_COMM_LEN - 1] = 0;
			t[i].n++;
			return;
		}
	}
	(*others)++;
}

static int by_count(const void *a, const void *b)
{
	const struct proc_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/*
 * The metadata, a line at a time, escaped: it holds the command line and
 * names a traced program chose, which must not drive the terminal.
 */
static void print_meta(const char *meta)
{
	char line[4 * 1024 + 1];

	while (*meta) {
		size_t n = strcspn(meta, "\n");

		for (size_t off = 0; off < n; off += 1024) {
			dio_escape(meta + off, n - off < 1024 ? n - off : 1024, 0, line, sizeof(line));
			fputs(line, stdout);
		}
		putchar('\n');
		meta += n + (meta[n] == '\n');
	}
}

static void print_procs(struct proc_count *t, uint64_t others)
{
	size_t n = 0;

	for (size_t i = 0; i < PROC_SLOTS; i++)
		if (t[i].pid)
			t[n++] = t[i];
	qsort(t, n, sizeof(*t), by_count);
	printf("processes: %zu\n", n);
	for (size_t i = 0; i < n && i < PROC_SHOWN; i++) {
		char comm[4 * DIO_COMM_LEN + 1];

		dio_escape(t[i].comm, DIO_COMM_LEN, 0, comm, sizeof(comm));
		printf("  %-8u %-16s %llu\n", t[i].pid, comm, (unsigned long long)t[i].n);
	}
	if (n > PROC_SHOWN)
		printf("  ... %zu more processes\n", n - PROC_SHOWN);
	if (others)
		printf("  %llu records of processes past the first %d\n", (unsigned long long)others,
		       PROC_SLOTS / 2);
}

int cmd_info(int argc, char **argv)
{
	struct tf_reader *r;
	struct tf_stats st;
	uint64_t per_type[DIO_EV_MAX] = { 0 }, per_nr[DIO_NR_MAX] = { 0 }, first = 0, last = 0;
	uint64_t others = 0, malformed = 0;
	struct proc_count *procs;
	const void *rec;
	size_t size;
	long long fsize;
	struct stat sb;
	int e, code = 0;

	if (argc != 2 || argv[1][0] == '-') {
		if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			printf("usage: dio info FILE\n  metadata, counts and damage of a recorded trace\n");
			return 0;
		}
		die_msg("dio info: give exactly one trace file (dio info run.dio)");
		return 2;
	}
	r = sources__open_trace(argv[1]);
	if (!r)
		return 1;
	procs = calloc(PROC_SLOTS, sizeof(*procs));
	if (!procs) {
		die_msg("dio info: out of memory");
		tf_reader__close(r);
		return 1;
	}
	while ((e = tf_reader__next(r, &rec, &size)) == 1) {
		const struct dio_ev_hdr *h = rec;

		/* what dump and analyze would leave out is not counted as what the file holds */
		if (record_check(rec, size, 0, NULL)) {
			malformed++;
			continue;
		}
		per_type[h->type]++;
		if (h->type == DIO_EV_SYSCALL) {
			const struct dio_ev_syscall *sc = rec;

			if (sc->nr < DIO_NR_MAX)
				per_nr[sc->nr]++;
			count_proc(procs, &others, sc->pid, sc->comm);
		} else if (h->type == DIO_EV_IOURING) {
			const struct dio_ev_iouring *u = rec;

			count_proc(procs, &others, u->pid, u->comm);
		}
		if (!first || h->ts < first)
			first = h->ts;
		if (h->ts > last)
			last = h->ts;
	}
	tf_reader__stats(r, &st);
	fsize = !stat(argv[1], &sb) ? (long long)sb.st_size : -1;
	printf("file: %s (%lld bytes)\n", argv[1], fsize);
	print_meta(tf_reader__meta(r));
	printf("records: %llu (syscall %llu, path %llu, io_uring %llu, process %llu, block %llu, "
	       "runq %llu)\n",
	       (unsigned long long)(st.records - malformed),
	       (unsigned long long)per_type[DIO_EV_SYSCALL],
	       (unsigned long long)per_type[DIO_EV_PATH], (unsigned long long)per_type[DIO_EV_IOURING],
	       (unsigned long long)per_type[DIO_EV_PROC], (unsigned long long)per_type[DIO_EV_BLOCK],
	       (unsigned long long)per_type[DIO_EV_RUNQ]);
	if (malformed)
		printf("malformed records: %llu (dio dump and dio analyze leave them out)\n",
		       (unsigned long long)malformed);
	if (st.records)
		printf("bytes per record: %.1f\n", (double)fsize / st.records);
	printf("time span: %.6f s\n", st.records ? (last - first) / 1e9 : 0.0);
	printf("blocks: %llu intact, %llu damaged; %s\n", (unsigned long long)st.blocks,
	       (unsigned long long)st.bad_blocks,
	       st.truncated ? "cut short (no index at the end)" : "complete");
	printf("syscalls:\n");
	for (uint32_t nr = 0; nr < DIO_NR_MAX; nr++) {
		const struct dio_syscall *sc;

		if (!per_nr[nr])
			continue;
		sc = syscall_by_nr(nr);
		printf("  %-18s %llu\n", sc ? sc->name : "?", (unsigned long long)per_nr[nr]);
	}
	print_procs(procs, others);
	free(procs);
	if (e < 0) {
		die_msg("reading %s failed: %s", argv[1], strerror(-e));
		code = 1;
	}
	if (malformed)
		warn_msg("%s: %llu malformed records, which dio dump and dio analyze leave out",
			 argv[1], (unsigned long long)malformed);
	if (sources__damage(argv[1], r) || malformed)
		code = 1;
	tf_reader__close(r);
	return code;
}
