// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every option of dio trace, record, top, dump, analyze, report, push and
 * diff, one row each: names, config key, kind, field, range, the commands
 * that take it and its --help. The rows are in the order --help shows them.
 * An option whose value is more than a kind can check has its setter here,
 * above the table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings.h"
#include "optdefs.h"
#include "spec.h"
#include "syscalls.h"
#include "util.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

/* PID_MAX_LIMIT on 64-bit kernels: no pid or tid can be larger */
#define PID_LIMIT	(4L * 1024 * 1024)

/*
 * "12,34": every entry a positive id. The list replaces the previous one only
 * when all of it is valid, so a bad value leaves o as it was.
 */
static int set_idlist(pid_t *out, int *n, const char *list, const char *opt, const char *what,
		      char *err, size_t errlen)
{
	pid_t ids[OPT_MAX_PIDS];
	const char *p = list;
	int count = 0;

	if (!*list) {
		snprintf(err, errlen, "%s: give a %s id, or several separated by commas", opt,
			 what);
		return -EINVAL;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		char tok[32];
		long v;

		if (!len) {
			snprintf(err, errlen,
				 "%s: empty entry in '%s' (separate ids with one comma)",
				 opt, list);
			return -EINVAL;
		}
		snprintf(tok, sizeof(tok), "%.*s", (int)len, p);
		if (len >= sizeof(tok) || parse_long(tok, 1, PID_LIMIT, &v)) {
			snprintf(err, errlen, "%s: '%.*s' is not a %s id", opt, (int)len, p, what);
			return -EINVAL;
		}
		if (count == OPT_MAX_PIDS) {
			snprintf(err, errlen,
				 "%s: at most %d ids; trace fewer, or use -a with --comm", opt,
				 OPT_MAX_PIDS);
			return -EINVAL;
		}
		ids[count++] = v;
		p += len;
		if (!*p)
			break;
		p++;	/* the comma; "1," ends with an empty entry, refused above */
	}
	memcpy(out, ids, count * sizeof(ids[0]));
	*n = count;
	return 0;
}

static int set_pids(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	struct options *o = base;

	return set_idlist(o->pids, &o->npids, v, "-p", "process", err, errlen);
}

static int set_tids(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	struct options *o = base;

	return set_idlist(o->tids, &o->ntids, v, "--tid", "thread", err, errlen);
}

/* --analyzer, --sink: the session spec reads NAME[:key=value,...] (.val 1: a sink) */
static int set_module(void *base, const struct opt_def *d, const char *v, char *err,
		      size_t errlen)
{
	return options_add_plugin(base, d->val, v, err, errlen);
}

static int set_comm(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	struct options *o = base;

	/* the kernel keeps 15 characters of a task name: a longer one never matches */
	if (!*v || strlen(v) >= sizeof(o->comm)) {
		snprintf(err, errlen,
			 "--comm: '%s' must be 1 to 15 characters (the kernel's task name length)",
			 v);
		return -EINVAL;
	}
	snprintf(o->comm, sizeof(o->comm), "%s", v);
	return 0;
}

static int set_mode(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	struct options *o = base;

	if (!strcmp(v, "detailed")) {
		o->mode = MODE_DETAILED;
	} else if (!strcmp(v, "raw")) {
		o->mode = MODE_RAW;
	} else {
		snprintf(err, errlen, "--mode: '%s' is not a mode (use detailed or raw)", v);
		return -EINVAL;
	}
	return 0;
}

static int set_hash(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	struct options *o = base;

	if (!strcmp(v, "user")) {
		o->hash = HASH_USER;
	} else if (!strcmp(v, "kernel")) {
		o->hash = HASH_KERNEL;
	} else if (!strcmp(v, "off")) {
		o->hash = HASH_OFF;	/* so the command line can undo a config's hash */
	} else {
		snprintf(err, errlen, "--hash: '%s' is not a hash mode (use user, kernel or off)", v);
		return -EINVAL;
	}
	return 0;
}

static int set_attach(void *base, const struct opt_def *d, const char *v, char *err,
		      size_t errlen)
{
	struct options *o = base;

	if (!strcmp(v, "auto")) {
		o->attach = ATTACH_AUTO;
	} else if (!strcmp(v, "syscall")) {
		o->attach = ATTACH_SYSCALL;
	} else if (!strcmp(v, "raw")) {
		o->attach = ATTACH_RAW;
	} else {
		snprintf(err, errlen, "--attach: '%s' is not a method (use auto, syscall or raw)", v);
		return -EINVAL;
	}
	return 0;
}

static int set_syscalls(void *base, const struct opt_def *d, const char *v, char *err,
			size_t errlen)
{
	struct options *o = base;
	uint8_t sel[DIO_NR_MAX];
	int e;

	/* checked now so the message can point at the config line; applied in finish */
	e = syscalls_select(v, sel, err, errlen);
	return e ? e : options_set_string(&o->syscalls, v, err, errlen);
}

/* strace's -e: "trace=" is the default qualifier, and the only one here */
static int set_strace_e(void *base, const struct opt_def *d, const char *v, char *err,
			size_t errlen)
{
	if (strchr(v, '=')) {
		if (strncmp(v, "trace=", 6)) {
			snprintf(err, errlen,
				 "-e: only trace=SPEC is supported, e.g. -e trace=%%data,fsync");
			return -EINVAL;
		}
		v += 6;
	}
	return set_syscalls(base, d, v, err, errlen);
}

/* -t, -tt, -ttt; the config file's time = "tt" */
static int set_time(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	static const char *const styles[] = { "", "t", "tt", "ttt" };
	struct options *o = base;

	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++) {
		if (!strcmp(v, styles[i])) {
			o->time = (enum time_style)i;
			return 0;
		}
	}
	snprintf(err, errlen, "time: '%s' is not one of \"\", \"t\", \"tt\", \"ttt\"", v);
	return -EINVAL;
}

/* strace's -f and -y: what dio always does (follow children, show paths) */
static int set_always(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	return 0;
}

/* LEVEL, then the analyzers or codes about the machine it counts too */
static int set_fail_on(void *base, const struct opt_def *d, const char *v, char *err,
		       size_t errlen)
{
	struct options *o = base;
	size_t n = strcspn(v, ",");

	for (int i = DIO_SEV_INFO; i <= DIO_SEV_ERROR; i++)
		if (strlen(findings_severity((uint32_t)i)) == n &&
		    !strncmp(v, findings_severity((uint32_t)i), n)) {
			o->fail_on = i;
			free(o->fail_on_names);
			o->fail_on_names = NULL;
			if (!v[n])
				return 0;
			if (!v[n + 1] || strstr(v + n, ",,") || v[strlen(v) - 1] == ',') {
				snprintf(err, errlen, "--fail-on: '%s': name an analyzer or a code "
					 "after each comma (e.g. warning,latency)", v);
				return -EINVAL;
			}
			return options_set_string(&o->fail_on_names, v + n + 1, err, errlen);
		}
	snprintf(err, errlen, "--fail-on: '%.*s' is not a severity (use info, warning or error)",
		 (int)n, v);
	return -EINVAL;
}

static int set_srcroot(void *base, const struct opt_def *d, const char *v, char *err,
		       size_t errlen)
{
	struct options *o = base;
	/*
	 * Resolved like the kernel's paths when it exists here; a recording
	 * analyzed on another machine may name a directory only it had
	 */
	char *abs = *v ? realpath(v, NULL) : NULL;
	size_t n;

	if (!abs && v[0] == '/' && (abs = strdup(v)))
		for (n = strlen(abs); n > 1 && abs[n - 1] == '/'; n--)
			abs[n - 1] = 0;
	if (!abs) {
		snprintf(err, errlen, "--srcroot: '%s': %s (give an absolute path or an existing directory)",
			 v, *v ? strerror(errno) : "empty");
		return -EINVAL;
	}
	free(o->srcroot);
	/* "/" as a root: every path is under it, relative without its '/' */
	if (!strcmp(abs, "/"))
		abs[0] = 0;
	o->srcroot = abs;
	return 0;
}

/* --since/--until SECONDS after the trace's first record */
static int set_offset(void *base, const struct opt_def *d, const char *v, char *err,
		      size_t errlen)
{
	double *out = (double *)((char *)base + d->off);
	char *end;

	errno = 0;
	/* digits and a dot only: strtod() also takes inf, nan and hex */
	*out = v[strspn(v, "0123456789.")] || !*v ? -1 : strtod(v, &end);
	if (errno || *out < 0 || *end) {
		snprintf(err, errlen, "--%s %s: give seconds after the trace's start, e.g. --%s 1.5",
			 d->name, v, d->name);
		return -EINVAL;
	}
	/* a billion seconds (31 years) in ns still fits the 64-bit timestamps */
	if (*out > 1e9) {
		snprintf(err, errlen, "--%s %s: out of range (at most 1e9 seconds)", d->name, v);
		return -EINVAL;
	}
	return 0;
}

int optdefs__format(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen)
{
	if (strcmp(v, "text") && strcmp(v, "json")) {
		snprintf(err, errlen, "--%s %s: use text or json", d->name, v);
		return -EINVAL;
	}
	*(int *)((char *)base + d->off) = !strcmp(v, "json");
	return 0;
}

#define FIELD(f)	.off = offsetof(struct options, f), .size = sizeof(((struct options *)0)->f)
#define TRACING		(CMD_TRACE | CMD_RECORD)
#define FILTER		(TRACING | CMD_TOP | CMD_REPLAY)
#define ONLY_RECORD	.cmds = CMD_RECORD, \
			.why_not = { "is an option of dio record: dio ", " writes no trace file" }

const struct opt_def opt_defs[] = {
	{ .name = "pid", .letter = 'p', .key = "pid", .kind = OPT_IDS, .set = set_pids,
	  .cmds = FILTER, .section = "What to trace:", .arg = "PID[,PID]",
	  .help = "attach to running processes and their new children" },
	{ .name = "all", .letter = 'a', .key = "all", .kind = OPT_FLAG, FIELD(trace_all), .val = 1,
	  .cmds = TRACING | CMD_TOP,
	  .help = "trace every process (dio never traces itself)" },
	{ .name = "tid", .key = "tid", .kind = OPT_IDS, .set = set_tids, .cmds = FILTER,
	  .arg = "TID[,TID]", .help = "only these threads (alone: these threads, wherever)" },
	{ .name = "comm", .key = "comm", .kind = OPT_CUSTOM, .set = set_comm, .cmds = FILTER,
	  .arg = "NAME", .help = "only processes or threads named NAME" },
	{ .name = "cgroup", .key = "cgroup", .kind = OPT_STRING, FIELD(cgroup),
	  .hint = "give a cgroup v2 directory, e.g. /sys/fs/cgroup/system.slice/redis.service",
	  .cmds = TRACING | CMD_TOP,
	  .arg = "PATH", .help = "only tasks in this cgroup v2 directory or below" },
	{ .name = "path", .key = "path", .kind = OPT_PATHS, .val = 0, .cmds = FILTER,
	  .arg = "PREFIX",
	  .help = "only calls on files under PREFIX (up to " STR(DIO_MAX_PREFIX) " times)" },
	{ .name = "exclude-path", .key = "exclude_path", .kind = OPT_PATHS, .val = 1,
	  .cmds = FILTER, .arg = "PREFIX", .help = "drop calls on files under PREFIX (repeatable)" },
	{ .name = "only-files", .key = "only_files", .kind = OPT_FLAG, FIELD(only_files), .val = 1,
	  .cmds = TRACING | CMD_TOP, .help = "drop calls on sockets, pipes and anon inodes" },
	{ .letter = 'e', .kind = OPT_CUSTOM, .set = set_strace_e, .cmds = FILTER,
	  .label = "-e trace=SPEC, --syscalls SPEC", .arg = "SPEC",
	  .help = "\n"
		  "names and classes: %data %sync %meta %dir %xattr\n"
		  "%async %file %desc %all; !name removes one\n"
		  "(see 'dio list syscalls')" },
	/* in -e's line of --help */
	{ .name = "syscalls", .key = "syscalls", .kind = OPT_CUSTOM, .set = set_syscalls,
	  .cmds = FILTER, .arg = "SPEC" },

	{ .name = "mode", .key = "mode", .kind = OPT_CUSTOM, .set = set_mode,
	  .cmds = TRACING | CMD_TOP, .section = "How:", .arg = "detailed|raw",
	  .help = "raw: no file lookups (cheapest; no --path filters)" },
	{ .name = "hash", .key = "hash", .kind = OPT_CUSTOM, .set = set_hash, .cmds = TRACING,
	  .arg = "user|kernel",
	  .help = "hash the first --hash-bytes N (4096) bytes of each\n"
		  "read/write buffer, in dio or in the kernel" },
	/* in --hash's lines of --help */
	{ .name = "hash-bytes", .key = "hash_bytes", .kind = OPT_SIZE, FIELD(hash_bytes),
	  .min = 1, .max = DIO_PATH_MAX_BYTES, .range = "1 to 4096", .cmds = TRACING, .arg = "N" },
	{ .name = "capture-data", .key = "capture_data", .kind = OPT_SIZE, FIELD(capture_bytes),
	  .min = 0, .max = DIO_PATH_MAX_BYTES, .range = "0 to 4096", .cmds = TRACING,
	  .arg = "N", .help = "with --hash: also keep up to N bytes of each buffer" },
	/*
	 * A BPF ring is a power of two of pages sized by a u32, so 2G is the
	 * top; below 64k one call with two paths and captured data barely fits.
	 */
	{ .name = "ring-size", .key = "ring_size", .kind = OPT_SIZE, FIELD(ring_bytes),
	  .min = 64 << 10, .max = 1ULL << 31, .range = "64k to 2G", .flags = OPTF_POW2,
	  .cmds = TRACING,
	  .arg = "SIZE", .help = "all CPUs' rings: power of two, 64k-2G (default 64M)" },
	{ .name = "drain-ms", .key = "drain_ms", .kind = OPT_NUMBER, FIELD(drain_ms),
	  .min = 1, .max = 1000, .range = "1 to 1000", .cmds = TRACING,
	  .arg = "N", .help = "drain the ring every N ms, 1 to 1000 (default 20)" },
	{ .name = "wakeup-at", .key = "wakeup_at", .kind = OPT_NUMBER, FIELD(wakeup_pct),
	  .min = 1, .max = 100, .range = "1 to 100", .cmds = TRACING,
	  .arg = "PCT", .help = "wake the consumer early at PCT% full (default 25)" },
	{ .name = "tag-table", .key = "tag_table", .kind = OPT_SIZE, FIELD(tag_entries),
	  .min = 1024, .max = 16 << 20, .range = "1k to 16M", .cmds = TRACING | CMD_TOP,
	  .arg = "N", .help = "file tags with a path in the kernel (default 64k)" },
	/* as small as 1: a test fills the tables on purpose */
	{ .name = "inflight-table", .key = "inflight_table", .kind = OPT_SIZE,
	  FIELD(inflight_entries), .min = 1, .max = 16 << 20, .range = "1 to 16M",
	  .cmds = TRACING | CMD_TOP, .arg = "N",
	  .help = "entries of each table of requests and file mappings\n"
		  "in flight (block, io_uring, mmap; default 32k)" },
	{ .name = "level", .key = "level", .kind = OPT_NUMBER, FIELD(zlevel),
	  .min = 0, .max = 9, .range = "0 to 9", ONLY_RECORD,
	  .arg = "N", .help = "dio record: zstd level 1-9, 0 stores (default 1)" },
	{ .name = "max-size", .key = "max_size", .kind = OPT_SIZE, FIELD(max_size),
	  .min = 64 << 10, .max = 1ULL << 50, .range = "64k or more", ONLY_RECORD,
	  .arg = "SIZE", .help = "dio record: go on in FILE.1, FILE.2, ... past SIZE" },
	{ .name = "rotate", .key = "rotate", .kind = OPT_NUMBER, FIELD(rotate),
	  .min = 1, .max = 1000000, .range = "1 to 1000000", ONLY_RECORD,
	  .arg = "N", .help = "dio record: with --max-size or --rotate-every,\n"
			      "keep the last N files only" },
	{ .name = "rotate-every", .key = "rotate_every", .kind = OPT_SECONDS, FIELD(rotate_every),
	  ONLY_RECORD, .arg = "SECONDS",
	  .help = "\ndio record: go on in FILE.1, FILE.2, ... every\n"
		  "SECONDS, each file complete on its own" },
	{ .name = "flush-ms", .key = "flush_ms", .kind = OPT_NUMBER, FIELD(flush_ms),
	  .min = 10, .max = 3600000, .range = "10 to 3600000 milliseconds", ONLY_RECORD,
	  .arg = "MS", .help = "dio record: write what is recorded at least this\n"
			       "often (default 1000): a kill loses at most that" },
	{ .name = "print", .kind = OPT_FLAG, FIELD(print), .val = 1, .cmds = CMD_RECORD,
	  .why_not = { "is an option of dio record (dio ", " prints anyway)" },
	  .help = "dio record: also print the calls (on stderr, or\n"
		  "--sink console:output=FILE), as dio trace does" },
	{ .name = "no-iouring", .key = "iouring", .kind = OPT_FLAG, FIELD(iouring), .val = 0,
	  .cmds = TRACING, .help = "no per-request io_uring events" },
	{ .name = "no-block", .key = "block", .kind = OPT_FLAG, FIELD(block), .val = 0,
	  .cmds = TRACING | CMD_TOP, .help = "no block request events (issue to completion)" },
	{ .name = "no-runq", .key = "runq", .kind = OPT_FLAG, FIELD(runq), .val = 0,
	  .cmds = TRACING | CMD_TOP, .help = "no run-queue delay events of traced threads" },
	{ .name = "runq-min", .key = "runq_min", .kind = OPT_NUMBER, FIELD(runq_min_us),
	  .min = 0, .max = 10000000, .range = "0 to 10000000 microseconds", .cmds = TRACING,
	  .arg = "USEC", .help = "shortest run-queue wait sent (default 10)" },
	{ .name = "attach", .key = "attach", .kind = OPT_CUSTOM, .set = set_attach,
	  .cmds = TRACING | CMD_TOP, .arg = "auto|syscall|raw",
	  .help = "per-syscall tracepoints, or the two raw\n"
		  "syscall ones (auto: per-syscall up to " STR(ATTACH_AUTO_MAX) " calls)" },
	{ .name = "duration", .letter = 'd', .key = "duration", .kind = OPT_SECONDS,
	  FIELD(duration), .cmds = TRACING, .arg = "SECONDS", .help = "stop after this long" },

	{ .name = "output", .letter = 'o', .key = "output", .kind = OPT_STRING, FIELD(output),
	  .hint = "give a file name", .cmds = TRACING | CMD_REPLAY, .section = "Output:",
	  .arg = "FILE", .help = "events, findings, summary to FILE (default: stderr)",
	  .record_help = "the trace file to write (required)" },
	{ .letter = 't', .key = "time", .kind = OPT_COUNT, .max = 3, .set = set_time,
	  .cmds = TRACING | CMD_REPLAY, .label = "-t, -tt, -ttt",
	  .help = "time of day, with microseconds, or epoch seconds" },
	{ .letter = 'T', .key = "durations", .kind = OPT_FLAG, FIELD(durations), .val = 1,
	  .cmds = TRACING | CMD_REPLAY, .help = "time spent in each call" },
	{ .name = "quiet", .letter = 'q', .key = "quiet", .kind = OPT_FLAG, FIELD(quiet), .val = 1,
	  .cmds = TRACING | CMD_REPLAY, .help = "no per-call lines; findings and summary only" },
	{ .letter = 'c', .kind = OPT_FLAG, FIELD(quiet), .val = 1, .cmds = TRACING | CMD_REPLAY,
	  .help = "as strace -c: the summary (and findings), no calls" },
	{ .letter = 's', .key = "strsize", .kind = OPT_NUMBER, FIELD(strsize), .min = 0,
	  .max = 65535, .range = "0 to 65535", .cmds = TRACING | CMD_REPLAY, .arg = "N",
	  .help = "at most N bytes of --capture-data shown, as\n"
		  "strace -s (0: all, the default); paths are whole" },
	{ .letter = 'f', .kind = OPT_COUNT, .max = 1, .set = set_always, .cmds = TRACING,
	  .label = "-f, -y", .help = "accepted as strace takes them: dio always follows\n"
				     "children and always shows paths" },
	{ .letter = 'y', .kind = OPT_COUNT, .max = 1, .set = set_always, .cmds = TRACING,
	  .flags = OPTF_HIDDEN },
	{ .name = "no-details", .key = "details", .kind = OPT_FLAG, FIELD(details), .val = 0,
	  .cmds = TRACING | CMD_REPLAY, .help = "no {off= type= tag=} suffix" },
	{ .name = "analyzer", .key = "analyzers", .kind = OPT_MODULES, .val = 0, .set = set_module,
	  .cmds = TRACING | CMD_REPLAY | CMD_DIFF, .arg = "NAME[:k=v,...]",
	  .help = "load an analyzer (name, ./path.so, or all)" },
	{ .name = "sink", .key = "sinks", .kind = OPT_MODULES, .val = 1, .set = set_module,
	  .cmds = TRACING | CMD_REPLAY, .arg = "NAME[:k=v,...]",
	  .help = "add a sink beside the console (with -q: the\n"
		  "named sinks alone)" },
	{ .name = "no-summary", .key = "no_summary", .kind = OPT_FLAG, FIELD(no_summary),
	  .val = 1, .cmds = TRACING | CMD_REPLAY, .help = "no summary table at exit" },
	{ .name = "hints", .key = "hints", .kind = OPT_FLAG, FIELD(hints), .val = 1,
	  .cmds = TRACING | CMD_REPLAY,
	  .help = "print info findings (hints) on the console too;\n"
		  "otherwise one line counts them (files keep them)" },
	{ .name = "report", .kind = OPT_STRING, FIELD(report),
	  .hint = "give the page's file name, e.g. --report run.html", .cmds = TRACING,
	  .arg = "PAGE.html", .help = "at exit, a self-contained HTML page (dio report)" },
	{ .name = "stats", .kind = OPT_FLAG, FIELD(stats), .val = 1, .cmds = TRACING | CMD_TOP,
	  .help = "at exit, where dio's time went (stderr): probe ns\n"
		  "per call, ring, consumer, writer, wakeups, drops" },
	{ .name = "max-findings", .key = "max_findings", .kind = OPT_NUMBER, FIELD(max_findings),
	  .min = 0, .max = 1000000, .range = "0 (no limit) to 1000000",
	  .cmds = TRACING | CMD_REPLAY, .arg = "N",
	  .help = "report at most N findings of each code (default 10,\n"
		  "0: all); one more says how many were left out" },
	/*
	 * Off unless asked: a trace of a command reads as it did, findings
	 * after the calls; an always-on trace asks for it (in /etc/dio).
	 */
	{ .name = "report-every", .key = "report_every", .kind = OPT_SECONDS,
	  FIELD(report_every), .cmds = TRACING, .arg = "SECONDS",
	  .help = "send findings while tracing: judge every\n"
		  "SECONDS, each finding once, then its updates\n"
		  "(default: all at exit)" },
	{ .name = "fail-on", .key = "fail_on", .kind = OPT_CUSTOM, .set = set_fail_on,
	  .cmds = TRACING | CMD_REPLAY | CMD_DIFF, .arg = "info|warning|error[,NAME...]",
	  .help = "exit 3 when a finding this severe\n"
		  "or worse was reported (with --baseline: a new one);\n"
		  "run-queue waits (the machine) count only when NAME\n"
		  "names their analyzer or code: warning,latency" },
	{ .name = "baseline", .key = "baseline", .kind = OPT_STRING, FIELD(baseline),
	  .hint = "give a file name", .cmds = TRACING | CMD_REPLAY, .arg = "SARIF",
	  .help = "an earlier SARIF log of dio's: findings are new,\n"
		  "unchanged, or absent (fixed)" },
	{ .name = "suppress", .key = "suppress", .kind = OPT_STRING, FIELD(suppress),
	  .hint = "give a file name", .cmds = TRACING | CMD_REPLAY | CMD_DIFF, .arg = "FILE",
	  .help = "accepted findings, each with a reason (dio(1))" },
	{ .name = "srcroot", .key = "srcroot", .kind = OPT_CUSTOM, .set = set_srcroot,
	  .cmds = TRACING | CMD_REPLAY | CMD_DIFF, .arg = "DIR",
	  .help = "paths under DIR are reported relative to it\n"
		  "(default: the top of the git work tree)" },
	/* for bench/overhead.sh: what the attached probes alone cost */
	{ .name = "bench-floor", .kind = OPT_FLAG, FIELD(bench_floor), .val = 1,
	  .flags = OPTF_HIDDEN, .cmds = TRACING },
	{ .name = "config", .letter = 'C', .kind = OPT_CONFIG, .cmds = FILTER | CMD_DIFF,
	  .arg = "FILE", .help = "config file (default: $DIO_CONFIG, else\n"
				 SYSCONFDIR "/dio/dio.conf, when it exists)" },
	{ .name = "help", .letter = 'h', .kind = OPT_HELP, .cmds = TRACING | CMD_TOP | CMD_DIFF,
	  .help = "this text" },

	/* dio dump and analyze (and report and push, which run them) */
	{ .name = "since", .kind = OPT_CUSTOM, FIELD(since), .set = set_offset, .cmds = CMD_REPLAY,
	  .arg = "S" },
	{ .name = "until", .kind = OPT_CUSTOM, FIELD(until), .set = set_offset, .cmds = CMD_REPLAY,
	  .arg = "S" },
	{ .name = "format", .kind = OPT_CUSTOM, FIELD(json), .set = optdefs__format,
	  .cmds = CMD_REPLAY, .arg = "text|json" },
};

const size_t opt_ndefs = sizeof(opt_defs) / sizeof(opt_defs[0]);

const struct opt_def *optdefs__key(const char *key)
{
	for (size_t i = 0; i < opt_ndefs; i++)
		if (opt_defs[i].key && !strcmp(opt_defs[i].key, key))
			return &opt_defs[i];
	return NULL;
}
