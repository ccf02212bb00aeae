/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the fake hosts of analyzer tests check of every finding: its code is
 * one of the analyzer's rules, and those rules are fit for CI reports and
 * `dio list rules`. Called from emit_finding, it makes each analyzer test that
 * provokes a finding prove that its code is declared, with no list of codes
 * kept by hand. Include it after <cmocka.h> and <dio/analyzer.h>.
 */
#ifndef DIO_TEST_DECLARED_RULES_H
#define DIO_TEST_DECLARED_RULES_H

#include <stddef.h>
#include <string.h>

/* plain text for XML, JSON and terminals: no Markdown, newlines only between paragraphs */
static void assert_plain_text(const char *code, const char *what, const char *s, int paragraphs)
{
	if (!s || !*s) {
		print_error("rule %s has no %s\n", code, what);
		fail();
	}
	for (const char *p = s; *p; p++) {
		if (*p == '`' || (p[0] == ']' && p[1] == '(') || (p[0] == '*' && p[1] == '*')) {
			print_error("rule %s: its %s holds Markdown at \"%.20s\"\n", code, what, p);
			fail();
		}
		if (*p != '\n')
			continue;
		if (paragraphs && p > s && p[-1] != '\n' && p[1] == '\n' && p[2] && p[2] != '\n') {
			p++;	/* "\n\n" between two paragraphs */
			continue;
		}
		print_error("rule %s: its %s has a line break that is no paragraph break "
			    "(\"\\n\\n\") at \"%.20s\"\n", code, what, p);
		fail();
	}
}

/* a's rules are well formed: codes "NAME.what", unique; every string there, plain text */
static void assert_rules_fit(const struct dio_analyzer *a)
{
	size_t name_len = strlen(a->name);

	if (a->size < offsetof(struct dio_analyzer, rules) + sizeof(a->rules) || !a->rules) {
		print_error("analyzer %s declares no rules\n", a->name);
		fail();
	}
	for (const struct dio_rule *r = a->rules; r->code; r++) {
		const char *what = r->code + name_len + 1;

		if (strncmp(r->code, a->name, name_len) || r->code[name_len] != '.' || !*what ||
		    strspn(what, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != strlen(what)) {
			print_error("rule code %s is not %s.what (lower case, digits, '-', '_')\n",
				    r->code, a->name);
			fail();
		}
		for (const struct dio_rule *q = a->rules; q < r; q++)
			if (!strcmp(q->code, r->code)) {
				print_error("rule %s is declared twice\n", r->code);
				fail();
			}
		assert_true(r->severity <= DIO_SEV_ERROR);
		assert_int_equal(r->flags & ~(uint32_t)DIO_RULE_MACHINE, 0);
		assert_plain_text(r->code, "title", r->title, 0);
		if (r->title[strlen(r->title) - 1] == '.') {
			print_error("rule %s: a title is no sentence: \"%s\"\n", r->code, r->title);
			fail();
		}
		assert_plain_text(r->code, "description", r->description, 0);
		assert_plain_text(r->code, "help", r->help, 1);
	}
}

/* Fail unless code is one of a's rules (and those are well formed). */
static void assert_declared(const struct dio_analyzer *a, const char *code)
{
	assert_rules_fit(a);
	for (const struct dio_rule *r = a->rules; r->code; r++)
		if (!strcmp(r->code, code))
			return;
	print_error("%s emitted a finding %s, which its rules do not declare\n", a->name, code);
	fail();
}

#endif
