// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `dio trace` command line. The config file is read first and the command
 * line applied over it: a value given here replaces the config's, and so does
 * a list (--path, --exclude-path, --analyzer, --sink): repeating the option
 * here builds a new list instead of adding to the file's, so what the command
 * line says is all there is. What to trace (-p, -a, a command) is one choice:
 * naming any of them here drops the config's pid/all.
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "worktree.h"
#include "syscalls.h"
#include "config.h"
#include "util.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

/* '+': stop at the command; ':': report a missing value as ':' instead of '?' */
#define SHORTOPTS "+:p:ae:d:o:tTqC:h"
#define REPLAY_SHORTOPTS ":o:tTqC:p:e:h"
#define SEE_HELP "see 'dio %s --help'"

enum {
	OPT_TID = 256, OPT_COMM, OPT_CGROUP, OPT_PATH, OPT_EXCLUDE, OPT_ONLY_FILES, OPT_SYSCALLS,
	OPT_MODE, OPT_HASH, OPT_HASH_BYTES, OPT_CAPTURE, OPT_RING, OPT_DRAIN, OPT_WAKEUP,
	OPT_TAGS, OPT_INFLIGHT, OPT_NO_IOURING, OPT_ATTACH, OPT_NO_DETAILS, OPT_ANALYZER, OPT_SINK,
	OPT_NO_SUMMARY, OPT_SINCE, OPT_UNTIL, OPT_LEVEL, OPT_PRINT, OPT_NO_BLOCK, OPT_NO_RUNQ, OPT_RUNQ_MIN, OPT_FORMAT, OPT_MAX_SIZE, OPT_ROTATE,
	OPT_MAX_FINDINGS, OPT_FLUSH_MS, OPT_FAIL_ON, OPT_SRCROOT, OPT_BASELINE, OPT_SUPPRESS,
	OPT_FAIL_ON_REGRESS, OPT_MIN_CALLS, OPT_SORT, OPT_STATS, OPT_BENCH_FLOOR, OPT_REPORT,
	OPT_HINTS,
};

static const struct option longopts[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "all", no_argument, NULL, 'a' },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "path", required_argument, NULL, OPT_PATH },
	{ "exclude-path", required_argument, NULL, OPT_EXCLUDE },
	{ "only-files", no_argument, NULL, OPT_ONLY_FILES },
	{ "syscalls", required_argument, NULL, OPT_SYSCALLS },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "hash", required_argument, NULL, OPT_HASH },
	{ "hash-bytes", required_argument, NULL, OPT_HASH_BYTES },
	{ "capture-data", required_argument, NULL, OPT_CAPTURE },
	{ "ring-size", required_argument, NULL, OPT_RING },
	{ "drain-ms", required_argument, NULL, OPT_DRAIN },
	{ "wakeup-at", required_argument, NULL, OPT_WAKEUP },
	{ "tag-table", required_argument, NULL, OPT_TAGS },
	{ "inflight-table", required_argument, NULL, OPT_INFLIGHT },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "print", no_argument, NULL, OPT_PRINT },
	{ "no-block", no_argument, NULL, OPT_NO_BLOCK },
	{ "no-runq", no_argument, NULL, OPT_NO_RUNQ },
	{ "runq-min", required_argument, NULL, OPT_RUNQ_MIN },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "rotate", required_argument, NULL, OPT_ROTATE },
	{ "flush-ms", required_argument, NULL, OPT_FLUSH_MS },
	{ "no-iouring", no_argument, NULL, OPT_NO_IOURING },
	{ "attach", required_argument, NULL, OPT_ATTACH },
	{ "duration", required_argument, NULL, 'd' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "no-details", no_argument, NULL, OPT_NO_DETAILS },
	{ "hints", no_argument, NULL, OPT_HINTS },
	{ "analyzer", required_argument, NULL, OPT_ANALYZER },
	{ "sink", required_argument, NULL, OPT_SINK },
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "max-findings", required_argument, NULL, OPT_MAX_FINDINGS },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "srcroot", required_argument, NULL, OPT_SRCROOT },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "suppress", required_argument, NULL, OPT_SUPPRESS },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "report", required_argument, NULL, OPT_REPORT },
	/* for bench/overhead.sh, not in --help: what the attached probes alone cost */
	{ "bench-floor", no_argument, NULL, OPT_BENCH_FLOOR },
	{ "config", required_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* the filters dio trace, record and top share (a printf format: DIO_MAX_PREFIX) */
#define FILTER_HELP \
"  -p, --pid PID[,PID]       attach to running processes and their new children\n" \
"  -a, --all                 trace every process (dio never traces itself)\n" \
"      --tid TID[,TID]       only these threads (alone: these threads, wherever)\n" \
"      --comm NAME           only processes or threads named NAME\n" \
"      --cgroup PATH         only tasks in this cgroup v2 directory or below\n" \
"      --path PREFIX         only calls on files under PREFIX (up to %d times)\n" \
"      --exclude-path PREFIX drop calls on files under PREFIX (repeatable)\n" \
"      --only-files          drop calls on sockets, pipes and anon inodes\n" \
"  -e trace=SPEC, --syscalls SPEC\n" \
"                            names and classes: %%data %%sync %%meta %%dir %%xattr\n" \
"                            %%async %%file %%desc %%all; !name removes one\n" \
"                            (see 'dio list syscalls')\n"

void cli_usage(FILE *f, const char *cmd)
{
	int record = !strcmp(cmd, "record");

	if (record)
		fputs(
"usage: dio record -o FILE [OPTIONS] [--] COMMAND [ARGS...]\n"
"       dio record -o FILE [OPTIONS] -p PID[,PID...] | -a\n"
"\n"
"Record what dio trace would show into the trace file FILE: calls, paths,\n"
"process and thread events, losses and the session's metadata. Read it later,\n"
"on any machine and without root, with dio dump, dio analyze and dio info.\n"
"\n", f);
	else
		fputs(
"usage: dio trace [OPTIONS] [--] COMMAND [ARGS...]\n"
"       dio trace [OPTIONS] -p PID[,PID...] | -a\n"
"\n"
"Trace the storage system calls of COMMAND (or of running processes, or of the\n"
"whole system), with paths, offsets, file tags and thread names.\n"
"\n", f);
	fputs("What to trace:\n", f);
	fprintf(f, FILTER_HELP, DIO_MAX_PREFIX);
	fprintf(f,
"How:\n"
"      --mode detailed|raw   raw: no file lookups (cheapest; no --path filters)\n"
"      --hash user|kernel    hash the first --hash-bytes N (4096) bytes of each\n"
"                            read/write buffer, in dio or in the kernel\n"
"      --capture-data N      with --hash: also keep up to N bytes of each buffer\n"
"      --ring-size SIZE      ring buffer: power of two, 64k to 2G (default 64M)\n"
"      --drain-ms N          drain the ring every N ms, 1 to 1000 (default 20)\n"
"      --wakeup-at PCT       wake the consumer early at PCT%% full (default 25)\n"
"      --tag-table N         file tags with a path in the kernel (default 64k)\n"
"      --inflight-table N    entries of each table of requests and file mappings\n"
"                            in flight (block, io_uring, mmap; default 32k)\n"
"      --level N             dio record: zstd level 1-9, 0 stores (default 1)\n"
"      --max-size SIZE       dio record: go on in FILE.1, FILE.2, ... past SIZE\n"
"      --rotate N            dio record: with --max-size, keep N files only\n"
"      --flush-ms MS         dio record: write what is recorded at least this\n"
"                            often (default 1000): a kill loses at most that\n"
"      --print               dio record: also print the calls (on stderr, or\n"
"                            --sink console:output=FILE), as dio trace does\n"
"      --no-iouring          no per-request io_uring events\n"
"      --no-block            no block request events (issue to completion)\n"
"      --no-runq             no run-queue delay events of traced threads\n"
"      --runq-min USEC       shortest run-queue wait sent (default 10)\n"
"      --attach auto|syscall|raw  per-syscall tracepoints, or the two raw\n"
"                            syscall ones (auto: per-syscall up to %d calls)\n"
"  -d, --duration SECONDS    stop after this long\n"
"Output:\n"
"%s"
"  -t, -tt, -ttt             time of day, with microseconds, or epoch seconds\n"
"  -T                        time spent in each call\n"
"  -q, --quiet               no per-call lines; findings and summary only\n"
"      --no-details          no {off= type= tag=} suffix\n"
"      --analyzer NAME[:k=v,...]  load an analyzer (name, ./path.so, or all)\n"
"      --sink NAME[:k=v,...] load a sink (default: console)\n"
"      --no-summary          no summary table at exit\n"
"      --hints               print info findings (hints) on the console too;\n"
"                            otherwise one line counts them (files keep them)\n"
"      --report PAGE.html    at exit, a self-contained HTML page (dio report)\n"
"      --stats               at exit, where dio's time went (stderr): probe ns\n"
"                            per call, ring, consumer, writer, wakeups, drops\n"
"      --max-findings N      report at most N findings of each code (default 10,\n"
"                            0: all); one more says how many were left out\n"
"      --fail-on info|warning|error[,NAME...]  exit 3 when a finding this severe\n"
"                            or worse was reported (with --baseline: a new one);\n"
"                            run-queue waits (the machine) count only when NAME\n"
"                            names their analyzer or code: warning,latency\n"
"      --baseline SARIF      an earlier SARIF log of dio's: findings are new,\n"
"                            unchanged, or absent (fixed)\n"
"      --suppress FILE       accepted findings, each with a reason (dio(1))\n"
"      --srcroot DIR         paths under DIR are reported relative to it\n"
"                            (default: the top of the git work tree)\n"
"  -C, --config FILE         config file (default: $DIO_CONFIG, else\n"
"                            " SYSCONFDIR "/dio/dio.conf, when it exists)\n"
"  -h, --help                this text\n"
"\n"
"Options given here override the config file; --path, --exclude-path, --analyzer\n"
"and --sink given here replace the file's lists.\n"
"\n"
"Examples:\n",
		ATTACH_AUTO_MAX,
		record ? "  -o, --output FILE         the trace file to write (required)\n"
		       : "  -o, --output FILE         events, findings, summary to FILE (default: stderr)\n");
	if (record)
		fputs(
"  sudo dio record -o run.dio -- ./server\n"
"  sudo dio record -o db.dio -p 1234 --path /var/lib/db -d 60\n"
"  sudo dio record -o long.dio --max-size 1G --rotate 8 -a --comm rocksdb\n"
"  dio dump run.dio --since 2 --until 3; dio analyze run.dio --analyzer all\n", f);
	else
		fputs(
"  sudo dio trace -- dd if=/dev/zero of=/tmp/x bs=4k count=100\n"
"  sudo dio trace -p 1234,1240 --path /var/lib/redis --only-files\n"
"  sudo dio trace -a --comm postgres -d 30\n"
"  sudo dio trace -e trace=%data,fsync -T -tt -o trace.txt -- ./server\n"
"  sudo dio trace --hash kernel --capture-data 32 -e trace=write -- ./app\n"
"  sudo dio trace -C ./dio.conf --analyzer summary:top=5 -- make\n", f);
}

/*
 * -C and -h are looked for with getopt itself, so "-C" inside the command's
 * arguments or as the value of another option is not mistaken for ours.
 * Errors are left for the real pass, which reports them.
 */
static void prescan(int argc, char **argv, const char *shortopts, const struct option *lopts,
		    const char **file, int *help)
{
	/*
	 * getopt puts the options it read before the other arguments: on argv
	 * itself, a value missing at the end ("run.dio --since") would take an
	 * argument's place in the real pass
	 */
	char **copy = malloc((argc + 1) * sizeof(*copy));
	char **args = copy ? copy : argv;
	int c;

	if (copy) {
		memcpy(copy, argv, argc * sizeof(*copy));
		copy[argc] = NULL;
	}
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, args, shortopts, lopts, NULL)) != -1) {
		if (c == 'C')
			*file = optarg;
		else if (c == 'h')
			*help = 1;
	}
	free(copy);
}

/*
 * An explicit -C file must exist. The default one (DIO_CONFIG, which tests
 * and packagers use to point elsewhere, or SYSCONFDIR/dio/dio.conf) is read
 * only when it is there; DIO_CONFIG set to "" means no default file.
 */
static int load_config(const char *file, struct options *o, char *err, size_t errlen)
{
	char cwd[PATH_MAX], top[PATH_MAX];
	int e = 0;

	if (!file) {
		file = secure_getenv("DIO_CONFIG");	/* not for a dio with file capabilities */
		if (!file)
			file = SYSCONFDIR "/dio/dio.conf";
		if (!*file || access(file, F_OK))
			file = NULL;
	}
	if (file)
		e = config_load(file, o, err, errlen);
	/* no srcroot in the config: the git work tree's top, which CI tools resolve paths from */
	if (!e && !o->srcroot && getcwd(cwd, sizeof(cwd)) && !worktree_top(cwd, top, sizeof(top)))
		e = options_set(o, "srcroot", top, err, errlen);
	return e;
}

/* What the command line has said so far, to tell it apart from the config's values. */
struct seen {
	int target;		/* -p or -a */
	int all;		/* -a */
	char *pids, *tids;	/* every -p / --tid value, joined with commas */
	int path, exclude, analyzer, sink;
	int tcount;
	const char *cmd;	/* argv[0]: trace, record, dump or analyze */
};

/*
 * Repeated -p (and --tid) add up, as in strace: the setter checks the joined
 * list, so the limit and the messages cover all of them.
 */
static int add_ids(struct options *o, char **joined, const char *v, int tid, char *err,
		   size_t errlen)
{
	size_t len = *joined ? strlen(*joined) + 1 : 0;
	char *s;
	int e;

	/* this value alone first, so a message quotes what was typed with this option */
	e = tid ? options_set_tids(o, v, err, errlen) : options_set_pids(o, v, err, errlen);
	if (e)
		return e;
	s = malloc(len + strlen(v) + 1);
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	sprintf(s, "%s%s%s", *joined ? *joined : "", *joined ? "," : "", v);
	free(*joined);
	*joined = s;
	return tid ? options_set_tids(o, s, err, errlen) : options_set_pids(o, s, err, errlen);
}

/* getopt's complaints, in our words; before is the argv index getopt was reading. */
/* cmd: the command whose --help to point at; opts: its long options (for "ambiguous") */
static int bad_option(int c, char **argv, int before, const struct option *opts, const char *cmd,
		      char *err, size_t errlen)
{
	const char *arg = argv[before];
	int len, matches = 0;

	if (strncmp(arg, "--", 2)) {
		if (c == ':')
			snprintf(err, errlen, "-%c: missing value; " SEE_HELP, optopt, cmd);
		else
			snprintf(err, errlen, "unknown option '-%c'; " SEE_HELP, optopt, cmd);
		return -EINVAL;
	}
	len = strcspn(arg, "=");
	if (c == ':') {
		snprintf(err, errlen, "%.*s: missing value; " SEE_HELP, len, arg, cmd);
		return -EINVAL;
	}
	if (optopt) {
		snprintf(err, errlen, "%.*s takes no value; " SEE_HELP, len, arg, cmd);
		return -EINVAL;
	}
	for (const struct option *lo = opts; lo->name; lo++)
		matches += !strncmp(lo->name, arg + 2, len - 2);
	if (matches > 1)
		snprintf(err, errlen,
			 "option '%.*s' is ambiguous; write it out in full (" SEE_HELP ")",
			 len, arg, cmd);
	else
		snprintf(err, errlen, "unknown option '%.*s'; " SEE_HELP, len, arg, cmd);
	return -EINVAL;
}

/*
 * The next option of a command whose options may come after its files
 * (getopt moves them before the files as it reads): its code, -1 after the
 * last, or -EINVAL with the message in err.
 */
static int next_option(int argc, char **argv, const char *shortopts, const struct option *lopts,
		       char *err, size_t errlen)
{
	int before = optind ? optind : 1;
	int c = getopt_long(argc, argv, shortopts, lopts, NULL);

	if (c != '?' && c != ':')
		return c;
	/* moved before the files: a bad long option is the one just read */
	if (optind > 1 && !strncmp(argv[optind - 1], "--", 2))
		before = optind - 1;
	return bad_option(c, argv, before, lopts, argv[0], err, errlen);
}

/* One option from the real pass; 0 or -errno with the message in err. */
static int apply(int c, const char *v, struct options *o, struct seen *st, char *err,
		 size_t errlen)
{
	switch (c) {
	case 'p':
		st->target = 1;
		return add_ids(o, &st->pids, v, 0, err, errlen);
	case 'a':
		st->target = st->all = 1;
		o->trace_all = 1;
		return 0;
	case OPT_TID:
		return add_ids(o, &st->tids, v, 1, err, errlen);
	case OPT_COMM:
		return options_set(o, "comm", v, err, errlen);
	case OPT_CGROUP:
		return options_set(o, "cgroup", v, err, errlen);
	case OPT_PATH:
		if (!st->path++)
			options_clear_list(o, "path");
		return options_add_prefix(o, v, 0, err, errlen);
	case OPT_EXCLUDE:
		if (!st->exclude++)
			options_clear_list(o, "exclude-path");
		return options_add_prefix(o, v, 1, err, errlen);
	case OPT_ONLY_FILES:
		o->only_files = 1;
		return 0;
	case 'e':
		/* strace's -e: "trace=" is the default qualifier, and the only one here */
		if (strchr(v, '=')) {
			if (strncmp(v, "trace=", 6)) {
				snprintf(err, errlen,
					 "-e: only trace=SPEC is supported, e.g. -e trace=%%data,fsync");
				return -EINVAL;
			}
			v += 6;
		}
		return options_set(o, "syscalls", v, err, errlen);
	case OPT_SYSCALLS:
		return options_set(o, "syscalls", v, err, errlen);
	case OPT_MODE:
		return options_set(o, "mode", v, err, errlen);
	case OPT_HASH:
		return options_set(o, "hash", v, err, errlen);
	case OPT_HASH_BYTES:
		return options_set(o, "hash-bytes", v, err, errlen);
	case OPT_CAPTURE:
		return options_set(o, "capture-data", v, err, errlen);
	case OPT_RING:
		return options_set(o, "ring-size", v, err, errlen);
	case OPT_DRAIN:
		return options_set(o, "drain-ms", v, err, errlen);
	case OPT_WAKEUP:
		return options_set(o, "wakeup-at", v, err, errlen);
	case OPT_TAGS:
		return options_set(o, "tag-table", v, err, errlen);
	case OPT_INFLIGHT:
		return options_set(o, "inflight-table", v, err, errlen);
	case OPT_LEVEL:
	case OPT_MAX_SIZE:
	case OPT_ROTATE:
	case OPT_FLUSH_MS:
		if (strcmp(st->cmd, "record")) {
			snprintf(err, errlen, "--%s is an option of dio record: dio %s writes no trace file",
				 c == OPT_LEVEL ? "level" : c == OPT_MAX_SIZE ? "max-size" :
				 c == OPT_ROTATE ? "rotate" : "flush-ms", st->cmd);
			return -EINVAL;
		}
		return options_set(o, c == OPT_LEVEL ? "level" : c == OPT_MAX_SIZE ? "max-size" :
				   c == OPT_ROTATE ? "rotate" : "flush-ms", v, err, errlen);
	case OPT_PRINT:
		if (strcmp(st->cmd, "record")) {
			snprintf(err, errlen, "--print is an option of dio record (dio %s prints anyway)",
				 st->cmd);
			return -EINVAL;
		}
		o->print = 1;
		return 0;
	case OPT_NO_IOURING:
		o->iouring = 0;
		return 0;
	case OPT_NO_BLOCK:
		o->block = 0;
		return 0;
	case OPT_NO_RUNQ:
		o->runq = 0;
		return 0;
	case OPT_RUNQ_MIN:
		return options_set(o, "runq-min", v, err, errlen);
	case OPT_ATTACH:
		return options_set(o, "attach", v, err, errlen);
	case 'd':
		return options_set(o, "duration", v, err, errlen);
	case 'o':
		return options_set(o, "output", v, err, errlen);
	case 't':
		/* -t, -tt, -ttt; a fourth t changes nothing, as in strace */
		st->tcount++;
		o->time = st->tcount == 1 ? TIME_T : st->tcount == 2 ? TIME_TT : TIME_TTT;
		return 0;
	case 'T':
		o->durations = 1;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	case OPT_HINTS:
		o->hints = 1;
		return 0;
	case OPT_NO_DETAILS:
		o->details = 0;
		return 0;
	case OPT_ANALYZER:
		if (!st->analyzer++)
			options_clear_list(o, "analyzer");
		return options_add_plugin(o, 0, v, err, errlen);
	case OPT_SINK:
		if (!st->sink++)
			options_clear_list(o, "sink");
		return options_add_plugin(o, 1, v, err, errlen);
	case OPT_NO_SUMMARY:
		o->no_summary = 1;
		return 0;
	case OPT_STATS:
		o->stats = 1;
		return 0;
	case OPT_REPORT:
		if (!*v || strchr(v, ',')) {
			snprintf(err, errlen, "--report '%s': give the page's file name, without ','", v);
			return -EINVAL;
		}
		free(o->report);
		o->report = strdup(v);
		return o->report ? 0 : -ENOMEM;
	case OPT_BENCH_FLOOR:
		o->bench_floor = 1;
		return 0;
	case OPT_MAX_FINDINGS:
		return options_set(o, "max-findings", v, err, errlen);
	case OPT_FAIL_ON:
		return options_set(o, "fail-on", v, err, errlen);
	case OPT_SRCROOT:
		return options_set(o, "srcroot", v, err, errlen);
	case OPT_BASELINE:
		return options_set(o, "baseline", v, err, errlen);
	case OPT_SUPPRESS:
		return options_set(o, "suppress", v, err, errlen);
	case 'C':
		return 0;	/* read by prescan(), before everything else */
	}
	snprintf(err, errlen, "internal error: option %d has no handler", c);
	return -EINVAL;
}

/*
 * A tracing command's command line: -C and --help first, the config file,
 * then every option; own (NULL: none) takes the command's own options first
 * and returns -ENOENT for the others. 0 to run, 1 after --help, or -errno.
 */
static int parse_tracing(int argc, char **argv, const char *shortopts, const struct option *lopts,
			 void (*usage)(FILE *f, const char *cmd), struct options *o,
			 int (*own)(void *ud, int c, const char *v, char *err, size_t errlen),
			 void *ud, char *err, size_t errlen)
{
	const char *file = NULL;
	struct seen st = { .cmd = argv[0] };
	int c, e, help = 0;

	prescan(argc, argv, shortopts, lopts, &file, &help);
	if (help) {
		usage(stdout, argv[0]);
		return 1;
	}
	e = load_config(file, o, err, errlen);
	if (e)
		return e;

	opterr = 0;
	optind = 0;	/* glibc: 0 re-initialises, so every call starts afresh */
	for (;;) {
		/* the argv element getopt is in; optind is 0 before the first call */
		int before = optind ? optind : 1;

		c = getopt_long(argc, argv, shortopts, lopts, NULL);
		if (c == -1)
			break;
		if (c == '?' || c == ':')
			e = bad_option(c, argv, before, lopts, argv[0], err, errlen);
		else if (!own || (e = own(ud, c, optarg, err, errlen)) == -ENOENT)
			e = apply(c, optarg, o, &st, err, errlen);
		if (e)
			goto cleanup;
	}
	o->argv = optind < argc ? &argv[optind] : NULL;
	/* a target named here replaces the config's: "-p 7" must not also mean its "all" */
	if (st.target || o->argv) {
		if (!st.all)
			o->trace_all = 0;
		if (!st.pids)
			o->npids = 0;
	}
	e = options_finish(o, err, errlen);
cleanup:
	free(st.pids);
	free(st.tids);
	return e;
}

int cli_parse_trace(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	char spec[PATH_MAX + 16];
	int e = parse_tracing(argc, argv, SHORTOPTS, longopts, cli_usage, o, NULL, NULL, err,
			      errlen);

	if (e || !o->report)
		return e;
	/* --report: the html sink beside the console (or the sinks --sink named) */
	if (!o->nsinks && !o->findings_only)
		e = options_add_plugin(o, 1, "console", err, errlen);
	snprintf(spec, sizeof(spec), "html:file=%s", o->report);
	return e ? e : options_add_plugin(o, 1, spec, err, errlen);
}

int cli_trace_args(int argc, char **argv, struct options *o, int *code)
{
	char err[1024];
	int e = cli_parse_trace(argc, argv, o, err, sizeof(err));

	if (e == 1) {
		*code = 0;
		return 1;
	}
	if (e) {
		die_msg("%s", err);
		*code = 2;
		return 1;
	}
	return 0;
}

/* dio dump and dio analyze: what to run over a trace file and how to print it */
static const struct option replay_longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "no-details", no_argument, NULL, OPT_NO_DETAILS },
	{ "hints", no_argument, NULL, OPT_HINTS },
	{ "analyzer", required_argument, NULL, OPT_ANALYZER },
	{ "sink", required_argument, NULL, OPT_SINK },
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "max-findings", required_argument, NULL, OPT_MAX_FINDINGS },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "srcroot", required_argument, NULL, OPT_SRCROOT },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "suppress", required_argument, NULL, OPT_SUPPRESS },
	{ "config", required_argument, NULL, 'C' },
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "path", required_argument, NULL, OPT_PATH },
	{ "exclude-path", required_argument, NULL, OPT_EXCLUDE },
	{ "syscalls", required_argument, NULL, OPT_SYSCALLS },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ 0 }
};

/* --since/--until SECONDS after the trace's first record */
static int set_seconds(const char *name, const char *v, double *out, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	/* digits and a dot only: strtod() also takes inf, nan and hex */
	*out = v[strspn(v, "0123456789.")] || !*v ? -1 : strtod(v, &end);
	if (errno || *out < 0 || *end) {
		snprintf(err, errlen, "%s %s: give seconds after the trace's start, e.g. %s 1.5",
			 name, v, name);
		return -EINVAL;
	}
	/* a billion seconds (31 years) in ns still fits the 64-bit timestamps */
	if (*out > 1e9) {
		snprintf(err, errlen, "%s %s: out of range (at most 1e9 seconds)", name, v);
		return -EINVAL;
	}
	return 0;
}

static int set_format(const char *v, int *json, char *err, size_t errlen)
{
	if (strcmp(v, "text") && strcmp(v, "json")) {
		snprintf(err, errlen, "--format %s: use text or json", v);
		return -EINVAL;
	}
	*json = !strcmp(v, "json");
	return 0;
}

int cli_parse_replay(int argc, char **argv, struct options *o, const char **trace, char *err,
		     size_t errlen)
{
	const char *file = NULL;
	struct seen st = { .cmd = argv[0] };
	int c, e, help = 0, json = 0;

	/* the replay's own options, which may follow the trace file: dio analyze run.dio -C x */
	prescan(argc, argv, REPLAY_SHORTOPTS, replay_longopts, &file, &help);
	e = load_config(file, o, err, errlen);
	if (e)
		return e;
	/* the config's targets and filters are for tracing; here the command line filters */
	o->npids = o->ntids = 0;
	o->comm[0] = 0;
	options_clear_list(o, "path");
	options_clear_list(o, "exclude-path");
	free(o->syscalls);
	o->syscalls = NULL;
	o->since = o->until = -1;
	opterr = 0;
	optind = 0;
	/* no '+': options may follow the trace file (dio analyze run.dio --analyzer x) */
	while ((c = next_option(argc, argv, REPLAY_SHORTOPTS, replay_longopts, err, errlen)) != -1) {
		if (c < 0)
			e = c;
		else if (c == OPT_SINCE)
			e = set_seconds("--since", optarg, &o->since, err, errlen);
		else if (c == OPT_UNTIL)
			e = set_seconds("--until", optarg, &o->until, err, errlen);
		else if (c == OPT_FORMAT)
			e = set_format(optarg, &json, err, errlen);
		else
			e = apply(c, optarg, o, &st, err, errlen);
		if (e)
			goto cleanup;
	}
	memset(o->sel, 1, sizeof(o->sel));
	if (o->syscalls) {
		e = syscalls_select(o->syscalls, o->sel, err, errlen);
		if (e)
			goto cleanup;
	}
	/* --format json: the json sink in the console's place, on the same output */
	if (json) {
		char spec[1100];

		snprintf(spec, sizeof(spec), "json:file=%s", o->output ? o->output : "-");
		if (strchr(spec + 10, ',')) {
			snprintf(err, errlen, "--format json: the output file name may not contain ','");
			e = -EINVAL;
			goto cleanup;
		}
		e = options_add_plugin(o, 1, spec, err, errlen);
		if (e)
			goto cleanup;
	}
	if (optind != argc - 1) {
		snprintf(err, errlen, "%s: give exactly one trace file (dio %s run.dio)", argv[0],
			 argv[0]);
		e = -EINVAL;
		goto cleanup;
	}
	*trace = argv[optind];
cleanup:
	free(st.pids);
	free(st.tids);
	return e;
}

/* dio diff A B */
#define DIFF_SHORTOPTS ":o:C:h"

static const struct option diff_longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "analyzer", required_argument, NULL, OPT_ANALYZER },
	{ "srcroot", required_argument, NULL, OPT_SRCROOT },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "suppress", required_argument, NULL, OPT_SUPPRESS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "fail-on-regress", required_argument, NULL, OPT_FAIL_ON_REGRESS },
	{ "min-calls", required_argument, NULL, OPT_MIN_CALLS },
	{ "config", required_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

/* A whole number for one of diff's own options, with the range in the message. */
static int diff_number(const char *name, const char *v, long max, const char *example, long *out,
		       char *err, size_t errlen)
{
	if (!parse_long(v, 0, max, out))
		return 0;
	snprintf(err, errlen, "--%s %s: give a whole number from 0 to %ld, e.g. --%s %s", name, v,
		 max, name, example);
	return -EINVAL;
}

int cli_parse_diff(int argc, char **argv, struct options *o, struct diff_args *d, char *err,
		   size_t errlen)
{
	const char *file = NULL;
	struct seen st = { .cmd = argv[0] };
	int c, e, help = 0;

	memset(d, 0, sizeof(*d));
	d->regress_pct = -1;
	d->min_calls = DIFF_MIN_CALLS;
	prescan(argc, argv, DIFF_SHORTOPTS, diff_longopts, &file, &help);
	e = load_config(file, o, err, errlen);
	if (e)
		return e;
	/*
	 * From the config, the analyzers' settings, --srcroot and --suppress
	 * hold; its sinks, output and baseline are for a trace, not a diff.
	 */
	options_clear_list(o, "sink");
	free(o->output);
	o->output = NULL;
	free(o->baseline);
	o->baseline = NULL;
	opterr = 0;
	optind = 0;
	while ((c = next_option(argc, argv, DIFF_SHORTOPTS, diff_longopts, err, errlen)) != -1) {
		if (c < 0)
			e = c;
		else if (c == 'o')
			d->output = optarg;
		else if (c == OPT_FORMAT)
			e = set_format(optarg, &d->json, err, errlen);
		else if (c == OPT_FAIL_ON_REGRESS)
			e = diff_number("fail-on-regress", optarg, 1000000, "50", &d->regress_pct, err,
					errlen);
		else if (c == OPT_MIN_CALLS)
			e = diff_number("min-calls", optarg, 1000000000, "100", &d->min_calls, err,
					errlen);
		else
			e = apply(c, optarg, o, &st, err, errlen);
		if (e)
			return e;
	}
	/* every analyzer unless the command line names some */
	if (!st.analyzer) {
		options_clear_list(o, "analyzer");
		e = options_add_plugin(o, 0, "all", err, errlen);
		if (e)
			return e;
	}
	if (optind != argc - 2) {
		snprintf(err, errlen, "diff: give two trace files (dio diff before.dio after.dio)");
		return -EINVAL;
	}
	d->file[0] = argv[optind];
	d->file[1] = argv[optind + 1];
	return 0;
}

/* ---- dio top ------------------------------------------------------------- */

#define TOP_SHORTOPTS "+:p:ae:d:n:bSC:h"

/* top's own long options; it takes dio trace's filters too (top_longopts()) */
static const struct option top_own_longopts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "cumulative", no_argument, NULL, 'S' },
};

#define NTOP_OWN (sizeof(top_own_longopts) / sizeof(top_own_longopts[0]))
#define NLONGOPTS (sizeof(longopts) / sizeof(longopts[0]))

/*
 * top's table: its own options, then dio trace's but --duration (-d is the
 * delay here), so that trace's options reach top_option, which refuses those
 * that do not filter.
 */
static void top_longopts(struct option *out)
{
	size_t n = 0;

	for (size_t i = 0; i < NTOP_OWN; i++)
		out[n++] = top_own_longopts[i];
	for (size_t i = 0; i < NLONGOPTS; i++)
		if (!longopts[i].name || strcmp(longopts[i].name, "duration"))
			out[n++] = longopts[i];
}

/* dio trace's options that say what to count, and -C */
static int top_filter(int c)
{
	static const int filters[] = {
		'p', 'a', OPT_TID, OPT_COMM, OPT_CGROUP, OPT_PATH, OPT_EXCLUDE, OPT_ONLY_FILES, 'e',
		OPT_SYSCALLS, OPT_MODE, OPT_ATTACH, OPT_NO_BLOCK, OPT_NO_RUNQ, OPT_TAGS, OPT_INFLIGHT,
		OPT_STATS, 'C', 'h',
	};

	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++)
		if (filters[i] == c)
			return 1;
	return 0;
}

void cli_top_usage(FILE *f)
{
	fputs(
"usage: dio top [OPTIONS] [--] COMMAND [ARGS...]\n"
"       dio top [OPTIONS] -p PID[,PID...] | -a\n"
"\n"
"Show the busiest processes, threads and files by storage calls, bytes and\n"
"time in the calls, with block request latency and run-queue wait per process,\n"
"every second. The kernel counts the calls in maps: no record per call.\n"
"\n"
"What to count (as dio trace):\n", f);
	fprintf(f, FILTER_HELP, DIO_MAX_PREFIX);
	fputs(
"      --mode detailed|raw   raw: no file lookups (no files shown)\n"
"      --attach auto|syscall|raw, --tag-table N, --inflight-table N\n"
"                            as dio trace\n"
"      --no-block, --no-runq no block latency, no run-queue wait\n"
"How to show it:\n"
"  -b, --batch               plain lines, frame after frame (files, pipes)\n"
"  -d, --delay SECONDS       between frames (default 1)\n"
"  -n, --iterations COUNT    stop after COUNT frames\n"
"      --sort calls|bytes|time  order of the rows (default calls)\n"
"  -S, --cumulative          totals since the start instead of the last interval\n"
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

static int top_sort_of(const char *v, enum top_sort *out, char *err, size_t errlen)
{
	static const char *const names[] = { "calls", "bytes", "time" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(v, names[i])) {
			*out = i;
			return 0;
		}
	snprintf(err, errlen, "--sort %s: use calls, bytes or time", v);
	return -EINVAL;
}

static int top_delay(const char *v, double *out, char *err, size_t errlen)
{
	if (parse_seconds(v, out) || *out < 0.05 || *out > 86400) {
		snprintf(err, errlen, "-d %s: give the seconds between frames, 0.05 to 86400, e.g. -d 2",
			 v);
		return -EINVAL;
	}
	return 0;
}

/* top's own options; -ENOENT for the filters it shares with dio trace */
static int top_option(void *ud, int c, const char *v, char *err, size_t errlen)
{
	struct top_args *t = ud;

	switch (c) {
	case 'b':
		t->batch = 1;
		return 0;
	case 'S':
		t->cumulative = 1;
		return 0;
	case 'd':
		return top_delay(v, &t->delay, err, errlen);
	case 'n':
		if (!parse_long(v, 1, 1000000000, &t->iterations))
			return 0;
		snprintf(err, errlen, "-n %s: give the number of frames, 1 or more, e.g. -n 5", v);
		return -EINVAL;
	case OPT_SORT:
		return top_sort_of(v, &t->sort, err, errlen);
	}
	if (top_filter(c))
		return -ENOENT;
	for (size_t i = 0; i < NLONGOPTS; i++)
		if (longopts[i].val == c && longopts[i].name) {
			snprintf(err, errlen,
				 "--%s is an option of dio trace, not of dio top; see 'dio top --help'",
				 longopts[i].name);
			return -EINVAL;
		}
	snprintf(err, errlen, "internal error: option %d has no handler", c);
	return -EINVAL;
}

static void top_usage(FILE *f, const char *cmd)
{
	(void)cmd;
	cli_top_usage(f);
}

int cli_parse_top(int argc, char **argv, struct options *o, struct top_args *t, char *err,
		  size_t errlen)
{
	struct option lopts[NTOP_OWN + NLONGOPTS];

	memset(t, 0, sizeof(*t));
	t->delay = 1;
	top_longopts(lopts);
	return parse_tracing(argc, argv, TOP_SHORTOPTS, lopts, top_usage, o, top_option, t, err,
			     errlen);
}
