/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Everything a dio session can be told, from the config file and the command
 * line (the command line wins). One struct so both parsers fill the same thing.
 */
#ifndef DIO_ENGINE_OPTIONS_H
#define DIO_ENGINE_OPTIONS_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include "bpf/dio.h"

#define OPT_MAX_PIDS	64
#define DIO_PATH_MAX_BYTES 4096	/* largest --hash-bytes and --capture-data */

enum trace_mode { MODE_DETAILED = 0, MODE_RAW };
enum time_style { TIME_NONE = 0, TIME_T, TIME_TT, TIME_TTT };
enum hash_mode { HASH_OFF = 0, HASH_USER, HASH_KERNEL };
enum attach_mode { ATTACH_AUTO = 0, ATTACH_SYSCALL, ATTACH_RAW };

#define OPT_MAX_PLUGINS	16
#define OPT_MAX_KV	32

/* A module chosen with --analyzer/--sink: name or path, plus key=value options. */
struct plugin_sel {
	char *name;			/* "console", "./mine.so" */
	int nkv;
	char *key[OPT_MAX_KV];
	char *val[OPT_MAX_KV];
	const char *where[OPT_MAX_KV];	/* "command line" (static) or origin */
	char *origin;			/* "FILE:LINE" of a config file's entry; NULL: command line */
};

/*
 * Config-file groups for plugins: `analyzer: { summary: { top = 10; }; }` and
 * `sink: { console: { ... }; }`. Values are kept as text with their file:line
 * so the plugin loader can check them against the module's option table.
 */
struct plugin_group {
	char *kind;	/* "analyzer" or "sink" */
	char *name;
	int nkv;
	char *key[OPT_MAX_KV];
	char *val[OPT_MAX_KV];
	char *where[OPT_MAX_KV];	/* "FILE:LINE" */
};

/* Free what an entry owns and zero it; safe twice. */
void options_free_sel(struct plugin_sel *s);
void options_free_group(struct plugin_group *g);

/* --attach auto: per-syscall tracepoints up to this many selected syscalls */
#define ATTACH_AUTO_MAX	16

struct session;

struct options {
	/* what to trace */
	int trace_all;			/* -a */
	int npids;
	pid_t pids[OPT_MAX_PIDS];	/* -p PID[,PID...] */
	int ntids;
	pid_t tids[OPT_MAX_PIDS];	/* --tid */
	char comm[16];			/* --comm */
	char *cgroup;			/* --cgroup PATH */
	int nprefix;
	char *prefix[DIO_MAX_PREFIX];	/* --path */
	int nexclude;
	char *exclude[DIO_MAX_PREFIX];	/* --exclude-path */
	int only_files;			/* --only-files */
	char *syscalls;			/* --syscalls / -e trace= ; NULL: all */
	uint8_t sel[DIO_NR_MAX];	/* parsed selection */
	int iouring;			/* io_uring request events (on unless --no-iouring) */
	int block;			/* block request events (on unless --no-block) */
	int runq;			/* run-queue delay events (on unless --no-runq) */
	uint32_t runq_min_us;		/* --runq-min: shorter run-queue waits are not sent, default 10 */
	enum attach_mode attach;	/* --attach auto|syscall|raw */
	char **argv;			/* CMD ARGS... (NULL when none); points into main's argv */
	/* how */
	enum trace_mode mode;		/* --mode detailed|raw */
	enum hash_mode hash;		/* --hash user|kernel */
	uint32_t hash_bytes;		/* --hash-bytes, default 4096 */
	uint32_t capture_bytes;		/* --capture-data N */
	uint64_t ring_bytes;		/* --ring-size, default 64M */
	uint32_t drain_ms;		/* --drain-ms: consumer timer, default 20 */
	uint32_t wakeup_pct;		/* --wakeup-at PCT of the ring: force a wakeup, default 25 */
	uint32_t tag_entries;		/* --tag-table entries, default 65536 */
	uint32_t inflight_entries;	/* --inflight-table: entries of each in-flight table, default 32768 */
	double duration;		/* -d SECONDS, 0: until CMD exits / SIGINT */
	uint32_t zlevel;		/* dio record --level: zlib level, default 1 */
	uint64_t max_size;		/* dio record --max-size: start a new file past this, 0: never */
	int print;			/* dio record --print: also show the calls as dio trace does */
	uint32_t rotate;		/* dio record --rotate N: keep N files, 0: keep all */
	double rotate_every;		/* dio record --rotate-every SECONDS: a new file this often, 0: never */
	double since, until;		/* dio dump/analyze --since/--until: s after the first record; <0: unset */
	int json;			/* dio dump/analyze --format json: the json sink in the console's place */
	/* console sink shortcuts (strace compatible) */
	char *output;			/* -o FILE */
	int output_implied;		/* output is the command's default, not -o: console:output= wins */
	enum time_style time;		/* -t -tt -ttt */
	int durations;			/* -T */
	uint32_t strsize;		/* -s N: bytes of captured data shown; 0: all */
	int quiet;			/* -q: no per-event lines, findings/summary only */
	int quiet_given;		/* -q given (or quiet = true): --sink's sinks without the console */
	int console_taken;		/* the command's own sink has the console's place (dio report,
					 * dio push, --format json) */
	int details;			/* 1 (default): {off= type= tag=} suffix; --no-details */
	int hints;			/* --hints: info findings on the console too */
	/* modules */
	int nanalyzers;
	struct plugin_sel analyzers[OPT_MAX_PLUGINS];
	int nsinks;
	struct plugin_sel sinks[OPT_MAX_PLUGINS];
	int ngroups;
	struct plugin_group groups[2 * OPT_MAX_PLUGINS];
	int no_summary;			/* --no-summary */
	uint32_t flush_ms;		/* dio record --flush-ms: records older than this reach the file, default 1000 */
	double report_every;		/* --report-every SECONDS: findings while tracing; 0: at the end */
	uint32_t max_findings;		/* --max-findings: reported per finding code, 0: all; default 10 */
	int fail_on;			/* --fail-on: DIO_SEV_* that makes the exit status
					 * DIO_EXIT_FINDINGS; -1 (default): none */
	char *srcroot;			/* --srcroot DIR, made absolute */
	char *fail_on_names;		/* --fail-on LEVEL,NAME...: the analyzers or codes of
					 * DIO_RULE_MACHINE rules it counts too, comma-separated */
	char *baseline;			/* --baseline SARIF */
	char *report;			/* --report PAGE: the html sink writes it at the end */
	char *suppress;			/* --suppress FILE */
	char *config_file;		/* -C FILE (or the default one that was read) */
	/* a replay: host->info of the recorded run, set before any module starts */
	void (*recorded_info)(struct session *s, void *ud);
	void *recorded_ud;
	int count_mode;			/* dio top: calls counted in kernel maps, no call records */
	int stats;			/* --stats: where dio's time went, at exit (selfstats.h) */
	int bench_floor;		/* --bench-floor: every BPF program returns at once */
	int findings_only;		/* dio diff: no sink (not even the console), analyzers'
					 * tables to /dev/null: findings reach session__on_finding */
};

/* The commands that take an option (struct opt_def.cmds). */
#define CMD_TRACE	(1u << 0)
#define CMD_RECORD	(1u << 1)
#define CMD_TOP		(1u << 2)
#define CMD_REPLAY	(1u << 3)	/* dio dump, analyze, report, push */
#define CMD_DIFF	(1u << 4)

/* How an option's value is read, and what the config file takes for it. */
enum opt_kind {
	OPT_FLAG,	/* no value: the int field takes .val; config: true or false */
	OPT_NUMBER,	/* a whole number from .min to .max into a 32- or 64-bit field */
	OPT_SIZE,	/* the same with an optional k, M or G suffix (1024-based) */
	OPT_SECONDS,	/* a number of seconds greater than 0, into a double */
	OPT_STRING,	/* a copy into a char *; empty: "--NAME: " .hint */
	OPT_IDS,	/* ids by .set; repeated on the command line they add up */
	OPT_PATHS,	/* a path prefix added to a list (.val 1: the exclude list) */
	OPT_MODULES,	/* a module added to a list (.val 1: the sinks), by .set */
	OPT_COUNT,	/* no value: -t, -tt, -ttt; .set gets the letter as often, at most .max */
	OPT_CUSTOM,	/* .set takes the text */
	OPT_CONFIG,	/* -C FILE: read before all else */
	OPT_HELP,	/* --help: the command's text, nothing else */
};

/*
 * One option: the command line's names, the config file's key, where its
 * value goes and in what range, which commands take it and how --help
 * shows it. A command's own options (dio top's, dio diff's) have rows of the
 * same form whose field is in the command's own struct.
 */
struct opt_def {
	const char *name;	/* the long option; NULL: a short one only */
	int letter;		/* the short option; 0: none */
	const char *key;	/* the config file's key; NULL: command line only */
	enum opt_kind kind;
	size_t off, size;	/* the field: offset and size in the struct set */
	uint64_t min, max;	/* OPT_NUMBER, OPT_SIZE; OPT_COUNT: max */
	const char *range;	/* the range as messages say it: "1 to 1000" */
	unsigned int flags;	/* OPTF_* */
	int val;		/* OPT_FLAG: what it sets; OPT_PATHS, OPT_MODULES: which list */
	const char *hint;	/* OPT_STRING: what to give when the value is empty */
	/* OPT_IDS, OPT_COUNT, OPT_CUSTOM: sets the field from the text; 0 or -errno */
	int (*set)(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen);
	unsigned int cmds;	/* CMD_* that take it */
	/*
	 * A command that shares the table but does not take it says "--NAME "
	 * why_not[0] CMD why_not[1] (dio trace of dio record's --level).
	 */
	const char *why_not[2];
	/* --help: heading before it, column (NULL: "-L, --NAME ARG"), value, text lines */
	const char *section, *label, *arg, *help;
	const char *record_help;	/* dio record's text, when not help */
};

#define OPTF_POW2	1u	/* OPT_SIZE: a power of two */
#define OPTF_HIDDEN	2u	/* in no --help and no manual: a switch for benchmarks */

void options_init(struct options *o);
void options_free(struct options *o);

/*
 * Set the field d defines in base (a struct options, or the command's own
 * struct for its own rows) from the text v: the command line's value, or the
 * config file's as text ("true"/"false" for a flag; v NULL or "" on the
 * command line). On error -EINVAL with a one-line message in err that names
 * the option as the command line spells it, without a "where" prefix.
 */
int opt_set(void *base, const struct opt_def *d, const char *v, char *err, size_t errlen);
/* Replaces *dst with a copy of v; the old string is freed only on success. */
int options_set_string(char **dst, const char *v, char *err, size_t errlen);
int options_add_prefix(struct options *o, const char *p, int exclude, char *err, size_t errlen);
/*
 * Empty a list option ("path", "exclude-path", "analyzer" or "sink"), freeing
 * what it held: a list on the command line replaces the config file's.
 */
void options_clear_list(struct options *o, const char *name);
/* Parse the selection in o->syscalls (or all when NULL) into o->sel. */
int options_finish(struct options *o, char *err, size_t errlen);

#endif
