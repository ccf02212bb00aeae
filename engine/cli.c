// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "config.h"
#include "util.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

enum {
	OPT_TID = 256, OPT_COMM, OPT_CGROUP, OPT_PATH, OPT_EXCLUDE, OPT_ONLY_FILES, OPT_SYSCALLS,
	OPT_MODE, OPT_HASH, OPT_HASH_BYTES, OPT_CAPTURE, OPT_RING, OPT_DRAIN, OPT_WAKEUP,
	OPT_TAGS, OPT_NO_IOURING, OPT_ATTACH, OPT_NO_DETAILS, OPT_ANALYZER, OPT_SINK, OPT_NO_SUMMARY,
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
	{ "no-iouring", no_argument, NULL, OPT_NO_IOURING },
	{ "attach", required_argument, NULL, OPT_ATTACH },
	{ "duration", required_argument, NULL, 'd' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "no-details", no_argument, NULL, OPT_NO_DETAILS },
	{ "analyzer", required_argument, NULL, OPT_ANALYZER },
	{ "sink", required_argument, NULL, OPT_SINK },
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "config", required_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void cli_usage(FILE *f)
{
	fprintf(f,
"usage: dio trace [OPTIONS] [--] COMMAND [ARGS...]\n"
"       dio trace [OPTIONS] -p PID[,PID...] | -a\n"
"\n"
"Trace the storage system calls of COMMAND (or of running processes, or of the\n"
"whole system), with paths, offsets, file tags and thread names.\n"
"\n"
"What to trace:\n"
"  -p, --pid PID[,PID]       attach to running processes (and their new children)\n"
"  -a, --all                 trace every process (dio never traces itself)\n"
"      --tid TID[,TID]       only these threads\n"
"      --comm NAME           only processes or threads named NAME\n"
"      --cgroup PATH         only tasks in this cgroup v2 directory or below\n"
"      --path PREFIX         only calls on files under PREFIX (repeatable)\n"
"      --exclude-path PREFIX drop calls on files under PREFIX (repeatable)\n"
"      --only-files          drop calls on sockets, pipes and anon inodes\n"
"  -e trace=SPEC, --syscalls SPEC\n"
"                            names and classes: %%data %%sync %%meta %%dir %%xattr %%async\n"
"                            %%file %%desc %%all; !name removes (see 'dio list syscalls')\n"
"How:\n"
"      --mode detailed|raw   raw: no file enrichment (cheapest)\n"
"      --hash user|kernel    hash the first --hash-bytes N (4096) bytes of read/write buffers\n"
"      --capture-data N      keep up to N bytes of each buffer in clear\n"
"      --ring-size SIZE      ring buffer, a power of two (default 64M)\n"
"      --drain-ms N          drain the ring every N ms (default 20)\n"
"      --wakeup-at PCT       wake the consumer early at PCT%% full (default 25)\n"
"      --tag-table N         file tags whose path the kernel remembers (default 65536)\n"
"      --no-iouring          no per-request io_uring events\n"
"      --attach auto|syscall|raw  per-syscall tracepoints, or the two raw syscall\n"
"                            tracepoints (auto: per-syscall up to 16 selected calls)\n"
"  -d, --duration SECONDS    stop after this long\n"
"Output:\n"
"  -o, --output FILE         console output to FILE (default: standard error)\n"
"  -t, -tt, -ttt             time of day, with microseconds, or epoch seconds\n"
"  -T                        time spent in each call\n"
"  -q, --quiet               no per-call lines; findings and summary only\n"
"      --no-details          no {off= type= tag=} suffix\n"
"      --analyzer NAME[:k=v,...]  load an analyzer (name, ./path.so, or all)\n"
"      --sink NAME[:k=v,...] load a sink (default: console)\n"
"      --no-summary          no summary table at exit\n"
"  -C, --config FILE         config file (default " SYSCONFDIR "/dio/dio.conf if present)\n"
"  -h, --help                this text\n"
"\n"
"Examples:\n"
"  sudo dio trace -- dd if=/dev/zero of=/tmp/x bs=4k count=100\n"
"  sudo dio trace -p 1234,1240 --path /var/lib/redis --only-files\n"
"  sudo dio trace -a --comm postgres -d 30\n"
"  sudo dio trace -e trace=%%data,fsync -T -tt -o trace.txt -- ./server\n");
}

static int bad_number(const char *opt, const char *v, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: '%s' is not %s", opt, v, what);
	return -EINVAL;
}

/* the config file comes first so the command line can override it */
static int load_config(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	const char *file = NULL, *def;
	int explicit = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if ((!strcmp(argv[i], "-C") || !strcmp(argv[i], "--config")) && i + 1 < argc) {
			file = argv[i + 1];
			explicit = 1;
		} else if (!strncmp(argv[i], "--config=", 9)) {
			file = argv[i] + 9;
			explicit = 1;
		} else if (!strncmp(argv[i], "-C", 2) && argv[i][2]) {
			file = argv[i] + 2;
			explicit = 1;
		}
	}
	if (!file) {
		def = getenv("DIO_CONFIG");
		file = def ? def : SYSCONFDIR "/dio/dio.conf";
		if (access(file, F_OK))
			return 0;
	}
	(void)explicit;
	return config_load(file, o, err, errlen);
}

/* list options given on the command line replace the config file's list */
static void clear_list_once(int *cleared, int *n, char **arr)
{
	if (*cleared)
		return;
	for (int i = 0; i < *n; i++)
		free(arr[i]);
	*n = 0;
	*cleared = 1;
}

int cli_parse_trace(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int c, e, tcount = 0, cleared_path = 0, cleared_excl = 0;
	long l;
	uint64_t sz;

	e = load_config(argc, argv, o, err, errlen);
	if (e)
		return e;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+p:ae:d:o:tTqC:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			e = options_set_pids(o, optarg, err, errlen);
			break;
		case 'a':
			o->trace_all = 1;
			break;
		case OPT_TID:
			e = options_set_tids(o, optarg, err, errlen);
			break;
		case OPT_COMM:
			e = options_set_comm(o, optarg, err, errlen);
			break;
		case OPT_CGROUP:
			free(o->cgroup);
			o->cgroup = strdup(optarg);
			break;
		case OPT_PATH:
			clear_list_once(&cleared_path, &o->nprefix, o->prefix);
			e = options_add_prefix(o, optarg, 0, err, errlen);
			break;
		case OPT_EXCLUDE:
			clear_list_once(&cleared_excl, &o->nexclude, o->exclude);
			e = options_add_prefix(o, optarg, 1, err, errlen);
			break;
		case OPT_ONLY_FILES:
			o->only_files = 1;
			break;
		case 'e':
			if (strncmp(optarg, "trace=", 6)) {
				snprintf(err, errlen,
					 "-e: only trace=SPEC is supported, e.g. -e trace=%%data,fsync");
				return -EINVAL;
			}
			free(o->syscalls);
			o->syscalls = strdup(optarg + 6);
			break;
		case OPT_SYSCALLS:
			free(o->syscalls);
			o->syscalls = strdup(optarg);
			break;
		case OPT_MODE:
			e = options_set_mode(o, optarg, err, errlen);
			break;
		case OPT_HASH:
			e = options_set_hash(o, optarg, err, errlen);
			break;
		case OPT_HASH_BYTES:
			if (parse_size(optarg, 1, DIO_PATH_MAX_BYTES, &sz))
				return bad_number("--hash-bytes", optarg, "a size from 1 to 4096", err, errlen);
			o->hash_bytes = sz;
			break;
		case OPT_CAPTURE:
			if (parse_size(optarg, 0, DIO_PATH_MAX_BYTES, &sz))
				return bad_number("--capture-data", optarg, "a size from 0 to 4096", err, errlen);
			o->capture_bytes = sz;
			break;
		case OPT_RING:
			if (parse_size(optarg, 4096, 1ULL << 32, &sz))
				return bad_number("--ring-size", optarg,
						  "a size (use a number with an optional k, M or G suffix, 4k to 4G)",
						  err, errlen);
			if (sz & (sz - 1)) {
				snprintf(err, errlen, "--ring-size: %s is not a power of two (use e.g. 16M or 64M)",
					 optarg);
				return -EINVAL;
			}
			o->ring_bytes = sz;
			break;
		case OPT_DRAIN:
			if (parse_long(optarg, 1, 1000, &l))
				return bad_number("--drain-ms", optarg, "a number of milliseconds from 1 to 1000",
						  err, errlen);
			o->drain_ms = l;
			break;
		case OPT_WAKEUP:
			if (parse_long(optarg, 1, 100, &l))
				return bad_number("--wakeup-at", optarg, "a percentage from 1 to 100", err,
						  errlen);
			o->wakeup_pct = l;
			break;
		case OPT_TAGS:
			if (parse_size(optarg, 1024, 1 << 24, &sz))
				return bad_number("--tag-table", optarg, "a number from 1024 to 16M", err,
						  errlen);
			o->tag_entries = sz;
			break;
		case OPT_NO_IOURING:
			o->iouring = 0;
			break;
		case OPT_ATTACH:
			e = options_set_attach(o, optarg, err, errlen);
			break;
		case 'd':
			if (parse_seconds(optarg, &o->duration))
				return bad_number("-d", optarg, "a number of seconds greater than 0", err,
						  errlen);
			break;
		case 'o':
			free(o->output);
			o->output = strdup(optarg);
			break;
		case 't':
			tcount++;
			o->time = tcount == 1 ? TIME_T : tcount == 2 ? TIME_TT : TIME_TTT;
			break;
		case 'T':
			o->durations = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_NO_DETAILS:
			o->details = 0;
			break;
		case OPT_ANALYZER:
			e = options_add_plugin(o, 0, optarg, err, errlen);
			break;
		case OPT_SINK:
			e = options_add_plugin(o, 1, optarg, err, errlen);
			break;
		case OPT_NO_SUMMARY:
			o->no_summary = 1;
			break;
		case 'C':
			break;	/* read before the loop */
		case 'h':
			cli_usage(stdout);
			return 1;
		case ':':
			snprintf(err, errlen, "%s needs a value; see 'dio trace --help'", argv[optind - 1]);
			return -EINVAL;
		case '?':
		default:
			if (optopt && optopt < 256 && !strchr("pedoC", optopt))
				snprintf(err, errlen, "unknown option '-%c'; see 'dio trace --help'", optopt);
			else if (optopt)
				snprintf(err, errlen, "%s needs a value; see 'dio trace --help'",
					 argv[optind - 1]);
			else
				snprintf(err, errlen, "unknown option '%s'; see 'dio trace --help'",
					 argv[optind - 1]);
			return -EINVAL;
		}
		if (e)
			return e;
	}
	if (optind < argc)
		o->argv = &argv[optind];
	return options_finish(o, err, errlen);
}
