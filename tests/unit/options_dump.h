/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct options as one line of what differs from options_init(), for the CLI
 * and config tests: a case then pins the field it sets and that nothing else
 * moved, in one string compare.
 */
#ifndef DIO_TEST_OPTIONS_DUMP_H
#define DIO_TEST_OPTIONS_DUMP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine/options.h"

static void dump_ids(FILE *f, const char *name, const pid_t *ids, int n)
{
	if (!n)
		return;
	fprintf(f, " %s=", name);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", (int)ids[i]);
}

static void dump_strs(FILE *f, const char *name, char *const *s, int n)
{
	if (!n)
		return;
	fprintf(f, " %s=", name);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", s[i]);
}

static void dump_sels(FILE *f, const char *name, const struct plugin_sel *s, int n)
{
	if (!n)
		return;
	fprintf(f, " %s=", name);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s%s", i ? "," : "", s[i].name);
		if (!s[i].nkv)
			continue;
		fputc('{', f);
		for (int k = 0; k < s[i].nkv; k++) {
			/* FILE:LINE without the test's temporary directory */
			const char *at = strrchr(s[i].where[k], '/');

			fprintf(f, "%s%s=%s@%s", k ? "," : "", s[i].key[k], s[i].val[k],
				at ? at + 1 : s[i].where[k]);
		}
		fputc('}', f);
	}
}

/* Groups print without their FILE:LINE, which the config tests check on their own. */
static void dump_groups(FILE *f, const struct options *o)
{
	for (int g = 0; g < o->ngroups; g++) {
		const struct plugin_group *grp = &o->groups[g];

		fprintf(f, " %s.%s{", grp->kind, grp->name);
		for (int k = 0; k < grp->nkv; k++)
			fprintf(f, "%s%s=%s", k ? "," : "", grp->key[k], grp->val[k]);
		fputc('}', f);
	}
}

/* Writes the description into buf (truncated to len); the config file is left out. */
static void options_dump(const struct options *o, char *buf, size_t len)
{
	static const char *const modes[] = { "detailed", "raw" };
	static const char *const hashes[] = { "off", "user", "kernel" };
	static const char *const attach[] = { "auto", "syscall", "raw" };
	static const char *const times[] = { "", "t", "tt", "ttt" };
	struct options d;
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);

	options_init(&d);
	if (o->trace_all)
		fputs(" all", f);
	dump_ids(f, "pids", o->pids, o->npids);
	dump_ids(f, "tids", o->tids, o->ntids);
	if (o->argv) {
		fputs(" argv=", f);
		for (char **a = o->argv; *a; a++)
			fprintf(f, "%s%s", a == o->argv ? "" : ",", *a);
	}
	if (o->comm[0])
		fprintf(f, " comm=%s", o->comm);
	if (o->cgroup)
		fprintf(f, " cgroup=%s", o->cgroup);
	dump_strs(f, "path", o->prefix, o->nprefix);
	dump_strs(f, "exclude", o->exclude, o->nexclude);
	if (o->only_files)
		fputs(" only_files", f);
	if (o->syscalls)
		fprintf(f, " syscalls=%s", o->syscalls);
	if (o->mode != d.mode)
		fprintf(f, " mode=%s", modes[o->mode]);
	if (o->hash != d.hash)
		fprintf(f, " hash=%s", hashes[o->hash]);
	if (o->hash_bytes != d.hash_bytes)
		fprintf(f, " hash_bytes=%u", o->hash_bytes);
	if (o->capture_bytes != d.capture_bytes)
		fprintf(f, " capture=%u", o->capture_bytes);
	if (o->ring_bytes != d.ring_bytes)
		fprintf(f, " ring=%llu", (unsigned long long)o->ring_bytes);
	if (o->drain_ms != d.drain_ms)
		fprintf(f, " drain_ms=%u", o->drain_ms);
	if (o->zlevel != d.zlevel)
		fprintf(f, " level=%u", o->zlevel);
	if (o->max_size != d.max_size)
		fprintf(f, " max_size=%llu", (unsigned long long)o->max_size);
	if (o->rotate != d.rotate)
		fprintf(f, " rotate=%u", o->rotate);
	if (o->wakeup_pct != d.wakeup_pct)
		fprintf(f, " wakeup=%u", o->wakeup_pct);
	if (o->tag_entries != d.tag_entries)
		fprintf(f, " tags=%u", o->tag_entries);
	if (o->inflight_entries != d.inflight_entries)
		fprintf(f, " inflight=%u", o->inflight_entries);
	if (!o->iouring)
		fputs(" no_iouring", f);
	if (!o->block)
		fputs(" no_block", f);
	if (!o->runq)
		fputs(" no_runq", f);
	if (o->runq_min_us != d.runq_min_us)
		fprintf(f, " runq_min_us=%u", o->runq_min_us);
	if (o->attach != d.attach)
		fprintf(f, " attach=%s", attach[o->attach]);
	if (o->duration != d.duration)
		fprintf(f, " duration=%g", o->duration);
	if (o->output)
		fprintf(f, " output=%s", o->output);
	if (o->time != d.time)
		fprintf(f, " time=%s", times[o->time]);
	if (o->durations)
		fputs(" durations", f);
	if (o->quiet)
		fputs(" quiet", f);
	if (!o->details)
		fputs(" no_details", f);
	dump_sels(f, "analyzers", o->analyzers, o->nanalyzers);
	dump_sels(f, "sinks", o->sinks, o->nsinks);
	dump_groups(f, o);
	if (o->no_summary)
		fputs(" no_summary", f);
	if (o->stats)
		fputs(" stats", f);
	if (o->bench_floor)
		fputs(" bench_floor", f);
	fclose(f);
	snprintf(buf, len, "%s", out && *out ? out + 1 : "");
	free(out);
}

#endif
