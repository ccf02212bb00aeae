/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the unit tests of the report sinks (sarif, junit) share on top of the
 * fake sink host: they take findings only, so the host's event functions are
 * never to be called; the report is read back whole and searched. Include it
 * after <cmocka.h>.
 */
#ifndef DIO_TEST_FAKE_REPORT_HOST_H
#define DIO_TEST_FAKE_REPORT_HOST_H

#include "fake_sink_host.h"

static const char *fake_syscall_name(uint32_t nr)
{
	fail_msg("a report sink names no system call");
	return "";
}

static const char *fake_tag_path(struct dio_ctx *ctx, const struct dio_file_tag *tag)
{
	fail_msg("a report sink looks up no file tag");
	return NULL;
}

static int fake_format(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
		       char *buf, size_t len)
{
	fail_msg("a report sink formats no record");
	return -EINVAL;
}

/* the whole file (at most 1 MiB), NUL-terminated; the caller frees it */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* the report holds want somewhere */
static void has(const char *report, const char *want)
{
	if (!strstr(report, want))
		fail_msg("not in the report: %s\nreport: %s", want, report ? report : "");
}

static void has_not(const char *report, const char *unwanted)
{
	if (strstr(report, unwanted))
		fail_msg("in the report: %s\nreport: %s", unwanted, report ? report : "");
}

#endif
