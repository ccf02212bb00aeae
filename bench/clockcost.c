// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What one helper call costs a BPF program, measured in isolation: a program
 * that only calls the helper K times (built from instructions here, no
 * compiler), run by the kernel's BPF_PROG_TEST_RUN REPEAT times; the kernel
 * times the loop and gives the mean per run. The cost of one call is the
 * difference between K = N and K = 0, divided by N: what is left of the run
 * (the test harness, the program's entry and exit) cancels out.
 *
 * The helpers: the clocks dio's probes read (bpf_ktime_get_ns at a call's
 * entry and exit), the cheaper clocks that could stand in for them, and
 * bpf_get_smp_processor_id for scale. Each row is the best of ROUNDS rounds,
 * the rounds alternating between the helpers.
 *
 * usage: bench/clockcost [-r ROUNDS] [-n CALLS] [-R REPEAT]   (root)
 */
#include <errno.h>
#include <getopt.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#define MAX_CALLS	512

static const struct {
	const char *name;
	int id;
	const char *what;
} helpers[] = {
	{ "ktime_get_ns", BPF_FUNC_ktime_get_ns, "CLOCK_MONOTONIC: what dio's probes read" },
	{ "ktime_get_boot_ns", BPF_FUNC_ktime_get_boot_ns, "CLOCK_BOOTTIME" },
	{ "ktime_get_coarse_ns", BPF_FUNC_ktime_get_coarse_ns, "CLOCK_MONOTONIC_COARSE (a tick's resolution)" },
	{ "jiffies64", BPF_FUNC_jiffies64, "jiffies (a tick's resolution)" },
	{ "get_smp_processor_id", BPF_FUNC_get_smp_processor_id, "the CPU number, for scale" },
};
#define NHELPERS	(sizeof(helpers) / sizeof(helpers[0]))

/* a socket filter calling helper k times, then returning 0; -errno */
static int load(int helper, int k)
{
	static struct bpf_insn insn[MAX_CALLS + 2];
	char log[4096] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log), .log_level = 0);
	int n = 0, fd;

	for (int i = 0; i < k; i++)
		insn[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .imm = helper };
	insn[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 };
	insn[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "clockcost", "GPL", insn, (size_t)n, &opts);
	if (fd < 0) {
		int e = errno;

		fprintf(stderr, "clockcost: the kernel refused a program calling helper %d: %s%s%s\n",
			helper, strerror(e), *log ? "\n" : "", log);
		return -e;
	}
	return fd;
}

/* mean ns of one run of prog over repeat runs, or -1 */
static double run(int fd, unsigned int repeat)
{
	unsigned char pkt[64] = { 0 };	/* an Ethernet header and then some */
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = repeat);

	if (bpf_prog_test_run_opts(fd, &t)) {
		fprintf(stderr, "clockcost: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
		return -1;
	}
	return t.duration;
}

int main(int argc, char **argv)
{
	unsigned int rounds = 5, calls = 256, repeat = 200000;
	double base = 0, best[NHELPERS];
	int fd0, fd[NHELPERS], c;

	while ((c = getopt(argc, argv, "r:n:R:h")) != -1) {
		switch (c) {
		case 'r': rounds = (unsigned int)atoi(optarg); break;
		case 'n': calls = (unsigned int)atoi(optarg); break;
		case 'R': repeat = (unsigned int)atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-r ROUNDS] [-n CALLS 1-%d] [-R REPEAT]\n", argv[0],
				MAX_CALLS);
			return c == 'h' ? 0 : 2;
		}
	}
	if (!rounds || !calls || calls > MAX_CALLS || !repeat) {
		fprintf(stderr, "clockcost: -r, -R at least 1, -n 1 to %d\n", MAX_CALLS);
		return 2;
	}
	if ((fd0 = load(BPF_FUNC_ktime_get_ns, 0)) < 0)
		return 1;
	for (size_t h = 0; h < NHELPERS; h++) {
		fd[h] = load(helpers[h].id, (int)calls);
		if (fd[h] < 0)
			return 1;
		best[h] = -1;
	}
	for (unsigned int r = 0; r < rounds; r++) {
		double d = run(fd0, repeat);

		if (d < 0)
			return 1;
		if (!r || d < base)
			base = d;
		for (size_t h = 0; h < NHELPERS; h++) {
			d = run(fd[h], repeat / calls ? repeat / calls * 4 : 1);
			if (d < 0)
				return 1;
			if (best[h] < 0 || d < best[h])
				best[h] = d;
		}
	}
	printf("%-22s %12s  %s\n", "helper", "ns per call", "");
	for (size_t h = 0; h < NHELPERS; h++)
		printf("%-22s %12.1f  %s\n", helpers[h].name, (best[h] - base) / calls,
		       helpers[h].what);
	printf("(an empty run: %.1f ns; %u calls a run, best of %u rounds)\n", base, calls, rounds);
	return 0;
}
