// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option table (engine/optdefs.c) and the commands' own rows: the manual
 * names every option, and no command can be given two options of one name,
 * letter or config key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cmd/cmd.h"
#include "cmd/diff.h"
#include "engine/cli.h"
#include "engine/optdefs.h"

/* docs/dio.1 as plain text: "\-\-ring\-size" and "\fB\-p\fR" read as --ring-size and -p */
static char *manual_text(void)
{
	const char *top = getenv("top_srcdir");
	char path[512], *raw = NULL, *out;
	size_t len = 0, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/docs/dio.1", top ? top : ".");
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s (set top_srcdir)", path);
	assert_true(getdelim(&raw, &len, 0, f) > 0);
	fclose(f);
	out = malloc(strlen(raw) + 1);
	assert_non_null(out);
	for (const char *p = raw; *p; p++) {
		if (p[0] == '\\' && p[1] == '-') {
			out[n++] = '-';
			p++;
		} else if (p[0] == '\\' && p[1] == 'f' && p[2]) {
			p += 2;	/* a font change: \fB, \fI, \fR */
		} else {
			out[n++] = *p;
		}
	}
	out[n] = 0;
	free(raw);
	return out;
}

/* whether text has opt ("--path", "-T") as a whole word, not "--path" of "--path-x" */
static int names(const char *text, const char *opt)
{
	size_t len = strlen(opt);

	for (const char *p = strstr(text, opt); p; p = strstr(p + 1, opt)) {
		char after = p[len];

		if ((p == text || p[-1] != '-') &&
		    !(after == '-' || after == '_' || (after >= 'a' && after <= 'z') ||
		      (after >= 'A' && after <= 'Z') || (after >= '0' && after <= '9')))
			return 1;
	}
	return 0;
}

static int unnamed(const char *text, const struct opt_def *rows, size_t n, const char *table)
{
	int failed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct opt_def *d = &rows[i];
		char opt[64];

		if (d->flags & OPTF_HIDDEN)
			continue;
		if (d->name)
			snprintf(opt, sizeof(opt), "--%s", d->name);
		else
			snprintf(opt, sizeof(opt), "-%c", d->letter);
		if (!names(text, opt)) {
			print_error("docs/dio.1 does not name %s (%s)\n", opt, table);
			failed++;
		}
	}
	return failed;
}

static void manual_names_every_option(void **state)
{
	char *text = manual_text();
	int failed = 0;

	(void)state;
	failed += unnamed(text, opt_defs, opt_ndefs, "the option table");
	failed += unnamed(text, cli_top_opts, cli_top_nopts, "dio top's own");
	failed += unnamed(text, cli_diff_opts, cli_diff_nopts, "dio diff's own");
	/* what a switch for benchmarks is not */
	if (names(text, "--bench-floor")) {
		print_error("docs/dio.1 names --bench-floor\n");
		failed++;
	}
	free(text);
	assert_int_equal(failed, 0);
}

/* The rows one command takes: the table's with its CMD_* bit, and its own. */
static size_t rows_of(unsigned int cmd, const struct opt_def **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < opt_ndefs && n < max; i++)
		if (opt_defs[i].cmds & cmd)
			out[n++] = &opt_defs[i];
	for (size_t i = 0; cmd == CMD_TOP && i < cli_top_nopts && n < max; i++)
		out[n++] = &cli_top_opts[i];
	for (size_t i = 0; cmd == CMD_DIFF && i < cli_diff_nopts && n < max; i++)
		out[n++] = &cli_diff_opts[i];
	return n;
}

static void no_command_has_two_options_of_one_name(void **state)
{
	static const struct { unsigned int cmd; const char *name; } cmds[] = {
		{ CMD_TRACE, "trace" }, { CMD_RECORD, "record" }, { CMD_TOP, "top" },
		{ CMD_REPLAY, "dump" }, { CMD_DIFF, "diff" },
	};
	const struct opt_def *rows[256];
	int failed = 0;

	(void)state;
	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
		size_t n = rows_of(cmds[c].cmd, rows, 256);

		assert_true(n < 256);
		for (size_t i = 0; i < n; i++)
			for (size_t k = i + 1; k < n; k++) {
				const struct opt_def *a = rows[i], *b = rows[k];

				if ((a->name && b->name && !strcmp(a->name, b->name)) ||
				    (a->letter && a->letter == b->letter)) {
					print_error("dio %s: two options %s/%c\n", cmds[c].name,
						    a->name ? a->name : "", a->letter ? a->letter : ' ');
					failed++;
				}
			}
	}
	for (size_t i = 0; i < opt_ndefs; i++)
		for (size_t k = i + 1; opt_defs[i].key && k < opt_ndefs; k++)
			if (opt_defs[k].key && !strcmp(opt_defs[i].key, opt_defs[k].key)) {
				print_error("two rows with the config key %s\n", opt_defs[i].key);
				failed++;
			}
	assert_int_equal(failed, 0);
}

/* A row's --help names its value, and only a row without a value names none. */
static void every_value_is_named_in_help(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < opt_ndefs; i++) {
		const struct opt_def *d = &opt_defs[i];
		int value = d->kind != OPT_FLAG && d->kind != OPT_COUNT && d->kind != OPT_HELP;

		if (value != !!d->arg) {
			print_error("%s: %s\n", d->name ? d->name : "-", value ?
				    "takes a value but --help names none (arg)" :
				    "takes no value but has an arg");
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(manual_names_every_option),
		cmocka_unit_test(no_command_has_two_options_of_one_name),
		cmocka_unit_test(every_value_is_named_in_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
