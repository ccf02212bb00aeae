// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command lines of dio trace, record, top, dump, analyze, report, push
 * and diff, read by getopt over the rows of the option table (optdefs.c)
 * that each command takes, and over the rows of its own (dio top's, dio
 * diff's) in the same form. The config file is read first and the command
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
#include "optdefs.h"
#include "spec.h"
#include "util.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

#define SEE_HELP "see 'dio %s --help'"
#define CLI_MAX	96	/* the rows one command can know */

/* getopt's tables for one command, made of its rows */
struct cli_table {
	const struct opt_def *row[CLI_MAX];
	void *base[CLI_MAX];		/* the struct each row's field is in */
	size_t n;
	struct option lo[CLI_MAX + 1];
	char shortopts[2 * CLI_MAX + 3];
};

/* What the command line has said so far, to tell it apart from the config's values. */
struct seen {
	const char *cmd;		/* argv[0]: trace, record, dump, ... */
	unsigned char given[CLI_MAX];	/* times each row of the table was given */
	char *ids[CLI_MAX];		/* an OPT_IDS row's values, joined with commas */
};

#define HELP_COL	28	/* where --help's text starts */

/* One row's --help: "  -L, --NAME ARG" (or its label), then its text in a column. */
static void print_row(FILE *f, const struct opt_def *d, const char *text)
{
	size_t len = strcspn(text, "\n");
	char col[128];
	int n;

	if (d->label)
		n = snprintf(col, sizeof(col), "  %s", d->label);
	else if (d->letter && d->name)
		n = snprintf(col, sizeof(col), "  -%c, --%s", d->letter, d->name);
	else if (d->letter)
		n = snprintf(col, sizeof(col), "  -%c", d->letter);
	else
		n = snprintf(col, sizeof(col), "      --%s", d->name);
	if (!d->label && d->arg)
		n += snprintf(col + n, sizeof(col) - n, " %s", d->arg);
	/* a text whose first line is empty starts under the option, in its column */
	if (!len)
		fprintf(f, "%s\n", col);
	else
		fprintf(f, "%-*s%s%.*s\n", HELP_COL, col, n < HELP_COL ? "" : "  ", (int)len,
			text);
	for (text += len; *text; text += len) {
		text++;
		len = strcspn(text, "\n");
		fprintf(f, "%*s%.*s\n", HELP_COL, "", (int)len, text);
	}
}

/*
 * The --help of the rows from d to end that the commands cmds take, in their
 * order: with dio record's text where a row has one (record), and the
 * headings of their sections (headings).
 */
static void print_rows(FILE *f, const struct opt_def *d, const struct opt_def *end,
		       unsigned int cmds, int record, int headings)
{
	for (; d < end; d++) {
		const char *text = record && d->record_help ? d->record_help : d->help;

		if (!(d->cmds & cmds) || !text || (d->flags & OPTF_HIDDEN))
			continue;
		if (headings && d->section)
			fprintf(f, "%s\n", d->section);
		print_row(f, d, text);
	}
}

void cli_help(FILE *f, const struct opt_def *rows, size_t n)
{
	print_rows(f, rows, rows + n, ~0u, 0, 0);
}

void cli_help_rows(FILE *f, const struct opt_def *from, const struct opt_def *end,
		   unsigned int cmds)
{
	print_rows(f, from, end, cmds, 0, 0);
}

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
	/* dio trace and dio record share their table: record's own options show in both */
	print_rows(f, opt_defs, opt_defs + opt_ndefs, CMD_TRACE | CMD_RECORD, record, 1);
	fputs(
"\n"
"Options given here override the config file; --path, --exclude-path, --analyzer\n"
"and --sink given here replace the file's lists.\n"
"\n"
"Examples:\n", f);
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
	int e = 0, quiet = o->quiet;

	/* the config's quiet = true is -q's: the named sinks alone (quiet_given) */
	o->quiet = 0;
	if (!file) {
		file = secure_getenv("DIO_CONFIG");	/* not for a dio with file capabilities */
		if (!file)
			file = SYSCONFDIR "/dio/dio.conf";
		if (!*file || access(file, F_OK))
			file = NULL;
	}
	if (file)
		e = config_load(file, o, err, errlen);
	o->quiet_given = o->quiet;
	o->quiet |= quiet;
	/* no srcroot in the config: the git work tree's top, which CI tools resolve paths from */
	if (!e && !o->srcroot && getcwd(cwd, sizeof(cwd)) && !worktree_top(cwd, top, sizeof(top)))
		e = opt_set(o, optdefs__key("srcroot"), top, err, errlen);
	return e;
}

static int takes_value(const struct opt_def *d)
{
	return d->kind != OPT_FLAG && d->kind != OPT_COUNT && d->kind != OPT_HELP;
}

static int add_row(struct cli_table *t, const struct opt_def *d, void *base, int short_too)
{
	size_t i = t->n, nlo = 0, len = strlen(t->shortopts);

	if (i == CLI_MAX)
		return -E2BIG;
	while (t->lo[nlo].name)
		nlo++;
	t->row[i] = d;
	t->base[i] = base;
	t->n++;
	/* a short option is its letter; a long one alone, 256 and up */
	if (d->name)
		t->lo[nlo] = (struct option){ d->name, takes_value(d) ? required_argument : no_argument,
					      NULL, d->letter ? d->letter : 256 + (int)i };
	if (d->letter && short_too) {
		t->shortopts[len++] = (char)d->letter;
		if (takes_value(d))
			t->shortopts[len++] = ':';
	}
	return 0;
}

/*
 * The command's own rows, then the table's rows it takes or knows. A row it
 * only knows (dio record's --level in dio trace) is there by its long name,
 * to be refused with a reason; one whose letter is the command's own is left
 * out (dio top's -d is its delay: --duration means nothing there).
 */
static int table_build(struct cli_table *t, const struct cli_cmd *c, struct options *o,
		       const char *cmd, char *err, size_t errlen)
{
	int e = 0;

	memset(t, 0, sizeof(*t));
	/* '+': stop at the command; ':': report a missing value as ':' instead of '?' */
	snprintf(t->shortopts, sizeof(t->shortopts), "%s:", c->in_order ? "+" : "");
	for (size_t i = 0; !e && i < c->nown; i++)
		e = add_row(t, &c->own[i], c->own_base, 1);
	for (size_t i = 0; !e && i < opt_ndefs; i++) {
		const struct opt_def *d = &opt_defs[i];
		int mine = 0;

		if (!(d->cmds & (c->cmd | c->knows)))
			continue;
		for (size_t k = 0; d->letter && k < c->nown; k++)
			mine |= c->own[k].letter == d->letter;
		if (!mine)
			e = add_row(t, d, o, !!(d->cmds & c->cmd));
	}
	if (e)
		snprintf(err, errlen, "internal error: dio %s has more than %d options", cmd, CLI_MAX);
	return e;
}

/* The row getopt's code stands for: its index in t. */
static size_t table_row(const struct cli_table *t, int code)
{
	size_t i = 0;

	if (code >= 256)
		return (size_t)code - 256;
	while (i < t->n - 1 && t->row[i]->letter != code)
		i++;
	return i;
}

static int given(const struct cli_table *t, const struct seen *st, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->row[i]->name && !strcmp(t->row[i]->name, name))
			return st->given[i];
	return 0;
}

static void seen_free(struct seen *st)
{
	for (size_t i = 0; i < CLI_MAX; i++)
		free(st->ids[i]);
}

/*
 * Repeated -p (and --tid) add up, as in strace: the setter checks the joined
 * list, so the limit and the messages cover all of them.
 */
static int add_ids(void *base, const struct opt_def *d, char **joined, const char *v, char *err,
		   size_t errlen)
{
	size_t len = *joined ? strlen(*joined) + 1 : 0;
	char *s;
	int e;

	/* this value alone first, so a message quotes what was typed with this option */
	e = opt_set(base, d, v, err, errlen);
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
	return opt_set(base, d, s, err, errlen);
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

/* One option from the real pass, row i of t; 0 or -errno with the message in err. */
static int apply(const struct cli_table *t, size_t i, const struct cli_cmd *c, const char *v,
		 struct options *o, struct seen *st, char *err, size_t errlen)
{
	const struct opt_def *d = t->row[i];
	char count[8];
	size_t n;

	if (!(d->cmds & c->cmd)) {
		if (c->refuse)
			snprintf(err, errlen, "--%s %s", d->name, c->refuse);
		else
			snprintf(err, errlen, "--%s %s%s%s", d->name, d->why_not[0], st->cmd,
				 d->why_not[1]);
		return -EINVAL;
	}
	if (st->given[i] < UCHAR_MAX)
		st->given[i]++;
	switch (d->kind) {
	case OPT_IDS:
		return add_ids(t->base[i], d, &st->ids[i], v, err, errlen);
	case OPT_PATHS:
	case OPT_MODULES:
		/* the first one here replaces the config file's list */
		if (st->given[i] == 1)
			options_clear_list(o, d->name);
		break;
	case OPT_COUNT:
		/* -t, -tt, -ttt; a fourth t changes nothing, as in strace */
		n = st->given[i] < d->max ? st->given[i] : d->max;
		memset(count, d->letter, n);
		count[n] = 0;
		v = count;
		break;
	default:
		break;
	}
	return opt_set(t->base[i], d, v, err, errlen);
}

/* Every option of argv into o, after the config file; 0 or -errno. */
static int read_options(const struct cli_table *t, const struct cli_cmd *c, int argc, char **argv,
			struct options *o, struct seen *st, char *err, size_t errlen)
{
	int code, e;

	opterr = 0;
	optind = 0;	/* glibc: 0 re-initialises, so every call starts afresh */
	while ((code = next_option(argc, argv, t->shortopts, t->lo, err, errlen)) != -1) {
		if (code < 0)
			return code;
		e = apply(t, table_row(t, code), c, optarg, o, st, err, errlen);
		if (e)
			return e;
	}
	return 0;
}

/*
 * A tracing command's command line: -C and --help first, the config file,
 * then every option. 0 to run, 1 after --help, or -errno.
 */
int cli_parse_tracing(const struct cli_cmd *c, int argc, char **argv,
		      void (*usage)(FILE *f, const char *cmd), struct options *o, char *err,
		      size_t errlen)
{
	const char *file = NULL;
	struct cli_table t;
	struct seen st = { .cmd = argv[0] };
	int e, help = 0, pid, all;

	e = table_build(&t, c, o, argv[0], err, errlen);
	if (e)
		return e;
	prescan(argc, argv, t.shortopts, t.lo, &file, &help);
	if (help) {
		usage(stdout, argv[0]);
		return 1;
	}
	e = load_config(file, o, err, errlen);
	if (!e)
		e = read_options(&t, c, argc, argv, o, &st, err, errlen);
	if (e)
		goto cleanup;
	o->argv = optind < argc ? &argv[optind] : NULL;
	o->quiet_given |= given(&t, &st, "quiet");
	/* a target named here replaces the config's: "-p 7" must not also mean its "all" */
	pid = given(&t, &st, "pid");
	all = given(&t, &st, "all");
	if (pid || all || o->argv) {
		if (!all)
			o->trace_all = 0;
		if (!pid)
			o->npids = 0;
	}
	e = options_finish(o, err, errlen);
cleanup:
	seen_free(&st);
	return e;
}

int cli_parse_trace(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	const struct cli_cmd c = {
		.cmd = strcmp(argv[0], "record") ? CMD_TRACE : CMD_RECORD,
		.knows = CMD_TRACE | CMD_RECORD, .in_order = 1,
	};
	int e = cli_parse_tracing(&c, argc, argv, cli_usage, o, err, errlen);

	if (e || !o->report)
		return e;
	return spec__report(o, o->report, err, errlen);
}

int cli_read(const struct cli_cmd *c, int argc, char **argv, struct options *o,
	     struct cli_given *g, char *err, size_t errlen)
{
	const char *file = NULL;
	struct cli_table t;
	struct seen st = { .cmd = argv[0] };
	int e, help = 0;

	e = table_build(&t, c, o, argv[0], err, errlen);
	if (e)
		return e;
	/* the command's own options, which may follow its files: dio analyze run.dio -C x */
	prescan(argc, argv, t.shortopts, t.lo, &file, &help);
	if (help && c->help_stops)
		return 1;
	e = load_config(file, o, err, errlen);
	if (e)
		return e;
	if (c->after_config)
		c->after_config(o);
	e = read_options(&t, c, argc, argv, o, &st, err, errlen);
	o->quiet_given |= given(&t, &st, "quiet");
	if (g) {
		g->sink = given(&t, &st, "sink");
		g->analyzer = given(&t, &st, "analyzer");
	}
	seen_free(&st);
	return e;
}
