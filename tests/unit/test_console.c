// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The console sink, linked in directly and driven through its descriptor with
 * a fake host: the exact text it writes for events and findings, the option
 * to DIO_FMT_* mapping, line growth, buffering until flush, and errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "fakehost.h"

/* ---- fake host ------------------------------------------------------------ */

#define LONG_LINE	0x10e6	/* args[0] that asks the fake for a line of args[1] bytes */

static int format_calls;
static int format_fails;		/* 1: format_event returns -EINVAL */

/*
 * The lines the sink prints are the host's (host->format_event): this one
 * says which flags the sink asked for, and can fail or give a long line.
 * snprintf semantics, like the real host: the length the whole line needs.
 */
static int fake_format(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
		       char *buf, size_t len)
{
	format_calls++;
	assert_ptr_equal(ctx, &fake_ctx);
	if (format_fails)
		return -EINVAL;
	switch (ev->type) {
	case DIO_EV_SYSCALL: {
		const struct dio_ev_syscall *e = (const void *)ev;

		if (e->args[0] == LONG_LINE) {
			size_t n = e->args[1], k = n < len ? n : len - 1;

			memset(buf, 'x', k);
			buf[k] = '\0';
			return (int)n;
		}
		return snprintf(buf, len, "sc %u/%u %s nr=%u ret=%lld fl=0x%x", e->pid, e->tid,
				e->comm, e->nr, (long long)e->ret, flags);
	}
	case DIO_EV_PATH: {
		const struct dio_ev_path *p = (const void *)ev;

		return snprintf(buf, len, "path ino=%llu \"%s\" fl=0x%x",
				(unsigned long long)p->tag.ino, (const char *)(p + 1), flags);
	}
	case DIO_EV_IOURING: {
		const struct dio_ev_iouring *u = (const void *)ev;

		return snprintf(buf, len, "uring op=%u res=%lld fl=0x%x", u->opcode,
				(long long)u->res, flags);
	}
	case DIO_EV_PROC: {
		const struct dio_ev_proc *p = (const void *)ev;

		return snprintf(buf, len, "proc kind=%u %s fl=0x%x", p->kind, p->comm, flags);
	}
	}
	return -EINVAL;
}

/* ---- records -------------------------------------------------------------- */

static struct dio_ev_syscall syscall_rec(uint32_t tid, uint16_t nr, int64_t ret)
{
	struct dio_ev_syscall e;

	memset(&e, 0, sizeof(e));
	e.hdr.type = DIO_EV_SYSCALL;
	e.hdr.size = sizeof(e);
	e.hdr.ts = 1000000000;
	e.pid = 10;
	e.tid = tid;
	e.nr = nr;
	e.ret = ret;
	e.fd = -1;
	memcpy(e.comm, "app", 4);
	return e;
}

struct path_rec {
	struct dio_ev_path ev;
	char path[16];
};

static struct path_rec path_rec(uint64_t ino, const char *path)
{
	struct path_rec r;

	memset(&r, 0, sizeof(r));
	r.ev.hdr.type = DIO_EV_PATH;
	r.ev.len = (uint16_t)(strlen(path) + 1);
	r.ev.hdr.size = (uint16_t)(sizeof(r.ev) + r.ev.len);
	r.ev.tag.ino = ino;
	memcpy(r.path, path, r.ev.len);
	return r;
}

static struct dio_ev_iouring uring_rec(uint8_t op, int64_t res)
{
	struct dio_ev_iouring u;

	memset(&u, 0, sizeof(u));
	u.hdr.type = DIO_EV_IOURING;
	u.hdr.size = sizeof(u);
	u.opcode = op;
	u.res = res;
	return u;
}

static struct dio_ev_proc proc_rec(uint16_t kind, const char *comm)
{
	struct dio_ev_proc p;

	memset(&p, 0, sizeof(p));
	p.hdr.type = DIO_EV_PROC;
	p.hdr.size = sizeof(p);
	p.kind = kind;
	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	return p;
}

/* ---- helpers -------------------------------------------------------------- */

static int setup(void **st)
{
	format_calls = 0;
	format_fails = 0;
	return sink_setup(st);
}

static void assert_file(const char *path, const char *want)
{
	char *got = slurp(path);

	assert_string_equal(got, want);
	free(got);
}

static void start(struct fixture *fx)
{
	opt_set("output", fx->path);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	assert_non_null(fx->state);
}

/* ---- tests ---------------------------------------------------------------- */

static void descriptor_declares_abi_and_subscriptions(void **st)
{
	assert_int_equal(dio_sink.abi, DIO_SINK_ABI);
	assert_int_equal(dio_sink.size, sizeof(struct dio_sink));
	assert_string_equal(dio_sink.name, "console");
	assert_int_equal(dio_sink.events,
			 DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_IOURING) |
			 DIO_EV_MASK(DIO_EV_PROC) | DIO_EV_MASK(DIO_EV_PATH) |
			 DIO_EV_MASK(DIO_EV_BLOCK) | DIO_EV_MASK(DIO_EV_RUNQ));
	assert_int_equal(dio_sink.findings, 1);
	assert_non_null(dio_sink.flush);
	assert_non_null(dio_sink.finding);
}

static void defaults_print_tid_and_details_but_not_paths(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall e = syscall_rec(11, 0, 4096);
	struct path_rec p = path_rec(1234, "/tmp/a");
	struct dio_ev_iouring u = uring_rec(22, 8192);
	struct dio_ev_proc pr = proc_rec(DIO_PROC_EXEC, "cat");

	opts_reset(NULL);
	start(fx);
	deliver(fx, &e);
	deliver(fx, &p);
	deliver(fx, &u);
	deliver(fx, &pr);
	assert_int_equal(dio_sink.flush(fx->state), 0);
	/* DIO_FMT_TID | DIO_FMT_DETAILS */
	assert_file(fx->path,
		    "sc 10/11 app nr=0 ret=4096 fl=0x5\n"
		    "uring op=22 res=8192 fl=0x5\n"
		    "proc kind=2 cat fl=0x5\n");
	assert_int_equal(nlogged, 0);
}

static void options_map_to_format_flags(void **st)
{
	static const struct {
		const char *time;
		const char *durations, *tid, *details;
		const char *want;
	} cases[] = {
		{ "t", "false", "true", "true", "sc 10/11 app nr=0 ret=1 fl=0x15\n" },
		{ "tt", "true", "true", "true", "sc 10/11 app nr=0 ret=1 fl=0x27\n" },
		{ "ttt", "true", "false", "false", "sc 10/11 app nr=0 ret=1 fl=0x42\n" },
		{ "", "false", "false", "false", "sc 10/11 app nr=0 ret=1 fl=0x0\n" },
	};
	struct fixture *fx = *st;
	struct dio_ev_syscall e = syscall_rec(11, 0, 1);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opts_reset("time", cases[i].time, "durations", cases[i].durations,
			   "tid", cases[i].tid, "details", cases[i].details, NULL);
		start(fx);
		deliver(fx, &e);
		dio_sink.destroy(fx->state);	/* destroy writes out what is buffered */
		fx->state = NULL;
		assert_file(fx->path, cases[i].want);
	}
}

static void paths_on_and_proc_off(void **st)
{
	struct fixture *fx = *st;
	struct path_rec p = path_rec(1234, "/tmp/a");
	struct dio_ev_proc pr = proc_rec(DIO_PROC_FORK, "app");

	opts_reset("paths", "true", "proc", "false", "tid", "false", "details", "false", NULL);
	start(fx);
	deliver(fx, &pr);
	deliver(fx, &p);
	deliver(fx, &pr);
	assert_int_equal(dio_sink.flush(fx->state), 0);
	assert_file(fx->path, "path ino=1234 \"/tmp/a\" fl=0x0\n");
}

static void events_off_prints_findings_only(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall e = syscall_rec(11, 0, 1);
	struct dio_ev_proc pr = proc_rec(DIO_PROC_EXIT, "app");
	struct dio_finding f = {
		.size = sizeof(f), .severity = DIO_SEV_INFO, .code = "x.y", .title = "seen",
	};

	opts_reset("events", "false", "hints", "true", NULL);
	start(fx);
	deliver(fx, &e);
	deliver(fx, &pr);
	assert_int_equal(dio_sink.finding(fx->state, &f), 0);
	assert_int_equal(dio_sink.flush(fx->state), 0);
	assert_file(fx->path, "dio: [INFO] x.y: seen\n");
	assert_int_equal(format_calls, 0);
}

/*
 * Into a file of its own the console makes each line in place at the end of
 * its batch: one pass a line. A line longer than the whole batch goes through
 * a line buffer that grows to it, after the batch's lines: never cut, never
 * out of order.
 */
static void long_line_grows_the_buffer_and_is_not_cut(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall big = syscall_rec(11, 0, 0), small = syscall_rec(12, 0, 7);
	struct dio_ev_syscall mid = syscall_rec(13, 0, 0);
	const size_t bigl = 3u << 20, midl = 10240;
	char *want = malloc(2 * bigl + midl + 64), *w;
	char *got;

	assert_non_null(want);
	big.args[0] = mid.args[0] = LONG_LINE;
	big.args[1] = bigl;
	mid.args[1] = midl;
	opts_reset(NULL);
	start(fx);
	deliver(fx, &mid);
	/* 10240 bytes fit the batch: one pass */
	assert_int_equal(format_calls, 1);
	deliver(fx, &big);
	/*
	 * the batch's end too short, the batch written and the whole of it too
	 * short, the line buffer too short, grown to the line: four passes
	 */
	assert_int_equal(format_calls, 5);
	deliver(fx, &small);
	assert_int_equal(format_calls, 6);
	/* the line buffer stayed large: the batch twice, then the line buffer once */
	deliver(fx, &big);
	assert_int_equal(format_calls, 9);
	assert_int_equal(dio_sink.flush(fx->state), 0);

	w = want;
	memset(w, 'x', midl);
	w += midl;
	*w++ = '\n';
	memset(w, 'x', bigl);
	w += bigl;
	w += sprintf(w, "\nsc 10/12 app nr=0 ret=7 fl=0x5\n");
	memset(w, 'x', bigl);
	w += bigl;
	strcpy(w, "\n");
	got = slurp(fx->path);
	assert_int_equal(strlen(got), midl + 1 + bigl + 1 + 31 + bigl + 1);
	assert_true(!strcmp(got, want));
	free(got);
	free(want);
}

/* on standard output, shared with the host, lines go through a line buffer that grows */
static void long_line_on_stdout_grows_the_buffer(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall big = syscall_rec(11, 0, 0), small = syscall_rec(12, 0, 7);
	char *got;
	int saved, fd;

	big.args[0] = LONG_LINE;
	big.args[1] = 10240;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(fx->path, O_WRONLY | O_TRUNC);
	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	close(fd);

	opts_reset("output", "-", NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	deliver(fx, &big);
	/* once too short, once with room for all 10240 bytes and the NUL */
	assert_int_equal(format_calls, 2);
	deliver(fx, &small);
	assert_int_equal(format_calls, 3);
	/* the buffer stayed large: the next long line takes one pass */
	deliver(fx, &big);
	assert_int_equal(format_calls, 4);
	dio_sink.destroy(fx->state);
	fx->state = NULL;
	fflush(stdout);
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);

	got = slurp(fx->path);
	assert_int_equal(strlen(got), 10241 + 31 + 10241);
	assert_int_equal(strspn(got, "x"), 10240);
	assert_memory_equal(got + 10240, "\nsc 10/12 app nr=0 ret=7 fl=0x5\n", 32);
	assert_int_equal(strspn(got + 10272, "x"), 10240);
	free(got);
}

static void lines_stay_buffered_until_flush(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall e = syscall_rec(11, 0, 1);
	struct stat sb;

	opts_reset(NULL);
	start(fx);
	for (int i = 0; i < 1000; i++)
		deliver(fx, &e);
	/* 1000 lines of 31 bytes: well within the buffer, so no write(2) yet */
	assert_int_equal(stat(fx->path, &sb), 0);
	assert_int_equal(sb.st_size, 0);
	assert_int_equal(dio_sink.flush(fx->state), 0);
	assert_int_equal(stat(fx->path, &sb), 0);
	assert_int_equal(sb.st_size, 1000 * 31);
}

static void finding_prints_as_an_indented_block(void **st)
{
	struct fixture *fx = *st;
	struct dio_finding f = {
		.size = sizeof(f),
		.severity = DIO_SEV_WARNING,
		.code = "fsync.missing",
		.title = "file written but never synced",
		.message = "Data can be lost on power failure.\nCall fsync(2) before close.",
		.analyzer = "fsync",
		.pid = 10,
		.tid = 11,
		.comm = "app",
		.path = "/tmp/a",
		.tag = { .ino = 1234, .dev = (8 << 20) | 1, .gen = 5 },
		.has_tag = 1,
		.ts_first = 1000000000,
		.ts_last = 3500250000,
		.count = 3,
		.excerpt = "write(3</tmp/a>, ..., 4096) = 4096\nclose(3</tmp/a>) = 0\n",
	};

	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_sink.finding(fx->state, &f), 0);
	/* written at once, without waiting for the host's flush */
	assert_file(fx->path,
		    "dio: [WARNING] fsync.missing: file written but never synced\n"
		    "    Data can be lost on power failure.\n"
		    "    Call fsync(2) before close.\n"
		    "    process: 10/11 app\n"
		    "    file: /tmp/a (tag 8:1|1234|5)\n"
		    "    time: 03:04:05.000000 - 03:04:07.500250 (2.500250 s)\n"
		    "    count: 3\n"
		    "    calls:\n"
		    "      write(3</tmp/a>, ..., 4096) = 4096\n"
		    "      close(3</tmp/a>) = 0\n");
}

static void finding_without_evidence_is_one_line(void **st)
{
	struct fixture *fx = *st;
	struct dio_finding f = {
		.size = sizeof(f), .severity = DIO_SEV_ERROR, .code = "a.b", .title = "t",
		.ts_first = 2000000000,
	};
	struct dio_finding g = {
		.size = sizeof(f), .severity = DIO_SEV_INFO, .code = "c.d", .title = "u",
		.tag = { .ino = 7, .dev = (259 << 20) | 3, .gen = 0 }, .has_tag = 1,
	};

	opts_reset("hints", "true", NULL);
	start(fx);
	assert_int_equal(dio_sink.finding(fx->state, &f), 0);
	assert_int_equal(dio_sink.finding(fx->state, &g), 0);
	assert_file(fx->path,
		    "dio: [ERROR] a.b: t\n"
		    "    time: 03:04:06.000000\n"
		    "dio: [INFO] c.d: u\n"
		    "    file: ? (tag 259:3|7|0)\n");
}

/* hints (info findings) are counted in one line at the end, unless hints=true */
static void hints_are_counted_not_printed(void **st)
{
	struct fixture *fx = *st;
	struct dio_finding w = {
		.size = sizeof(w), .severity = DIO_SEV_WARNING, .code = "a.b", .title = "t",
	};
	struct dio_finding i = {
		.size = sizeof(i), .severity = DIO_SEV_INFO, .code = "c.d", .title = "u",
	};

	opts_reset(NULL);
	start(fx);
	assert_int_equal(dio_sink.finding(fx->state, &i), 0);
	assert_int_equal(dio_sink.finding(fx->state, &w), 0);
	assert_int_equal(dio_sink.finding(fx->state, &i), 0);
	assert_int_equal(dio_sink.finish(fx->state), 0);
	assert_int_equal(dio_sink.flush(fx->state), 0);
	assert_file(fx->path,
		    "dio: [WARNING] a.b: t\n"
		    "dio: 2 hints (info findings) not shown: --hints shows them\n");
}

static void events_and_findings_keep_their_order(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall e = syscall_rec(11, 0, 1);
	struct dio_finding f = { .size = sizeof(f), .code = "a.b", .title = "t" };

	opts_reset("tid", "false", "details", "false", "hints", "true", NULL);
	start(fx);
	deliver(fx, &e);
	assert_int_equal(dio_sink.finding(fx->state, &f), 0);
	deliver(fx, &e);
	dio_sink.destroy(fx->state);
	fx->state = NULL;
	assert_file(fx->path,
		    "sc 10/11 app nr=0 ret=1 fl=0x0\n"
		    "dio: [INFO] a.b: t\n"
		    "sc 10/11 app nr=0 ret=1 fl=0x0\n");
}

static void unopenable_output_fails_with_errno_and_says_why(void **st)
{
	struct fixture *fx = *st;
	void *state = NULL;

	opts_reset("output", "/nonexistent-dio/out", NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &state), -ENOENT);
	assert_null(state);
	assert_string_equal(logged,
			    "cannot create output '/nonexistent-dio/out': No such file or directory");
	(void)fx;
}

/* the host ignores flush's result: the sink itself must say, once, that output is lost */
static void write_error_is_returned_and_logged_once(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall e = syscall_rec(11, 0, 1);

	opts_reset(NULL);
	opt_set("output", "/dev/full");
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	deliver(fx, &e);
	assert_int_equal(dio_sink.flush(fx->state), -ENOSPC);
	assert_int_equal(nlogged, 1);
	assert_string_equal(logged, "cannot write output: No space left on device");
	deliver(fx, &e);
	assert_int_equal(dio_sink.flush(fx->state), -ENOSPC);
	dio_sink.destroy(fx->state);
	fx->state = NULL;
	assert_int_equal(nlogged, 1);
}

static void bad_time_value_is_rejected(void **st)
{
	struct fixture *fx = *st;
	void *state = NULL;

	opts_reset("time", "tttt", "output", fx->path, NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &state), -EINVAL);
	assert_null(state);
	assert_string_equal(logged, "time: 'tttt' is not one of \"\", \"t\", \"tt\", \"ttt\"");
}

static void unformattable_record_is_skipped_and_reported_once(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall e = syscall_rec(11, 0, 1);

	opts_reset(NULL);
	start(fx);
	format_fails = 1;
	deliver(fx, &e);
	deliver(fx, &e);
	assert_int_equal(nlogged, 1);
	assert_string_equal(logged, "cannot format a record of type 1: Invalid argument");
	format_fails = 0;
	deliver(fx, &e);
	dio_sink.destroy(fx->state);
	fx->state = NULL;
	assert_int_equal(nlogged, 2);
	assert_string_equal(logged, "2 records could not be formatted and were not printed");
	assert_file(fx->path, "sc 10/11 app nr=0 ret=1 fl=0x5\n");
}

/* "-" is standard output; after destroy stdout works again (its buffer was given back) */
static void dash_writes_to_stdout(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall e = syscall_rec(11, 0, 1);
	int saved, fd;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(fx->path, O_WRONLY | O_TRUNC);
	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	close(fd);

	opts_reset("output", "-", NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	deliver(fx, &e);
	dio_sink.destroy(fx->state);
	fx->state = NULL;
	fputs("after\n", stdout);
	fflush(stdout);

	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	assert_file(fx->path, "sc 10/11 app nr=0 ret=1 fl=0x5\nafter\n");
}

/* the default is standard error; afterwards stderr is unbuffered again, as the host expects */
static void default_output_is_stderr_and_stays_unbuffered_after(void **st)
{
	struct fixture *fx = *st;
	struct dio_ev_syscall e = syscall_rec(11, 0, 1);
	int saved, fd;

	saved = dup(STDERR_FILENO);
	fd = open(fx->path, O_WRONLY | O_TRUNC);
	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	close(fd);

	opts_reset(NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	deliver(fx, &e);
	/* the host's own messages share the buffer, so they keep their place among the lines */
	fputs("host says\n", stderr);
	deliver(fx, &e);
	dio_sink.destroy(fx->state);
	fx->state = NULL;
	fputs("after\n", stderr);	/* no fflush: must reach the file at once */
	assert_file(fx->path, "sc 10/11 app nr=0 ret=1 fl=0x5\nhost says\n"
		    "sc 10/11 app nr=0 ret=1 fl=0x5\nafter\n");

	assert_int_equal(dup2(saved, STDERR_FILENO), STDERR_FILENO);
	close(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(descriptor_declares_abi_and_subscriptions),
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, sink_teardown)
		T(defaults_print_tid_and_details_but_not_paths),
		T(options_map_to_format_flags),
		T(paths_on_and_proc_off),
		T(events_off_prints_findings_only),
		T(long_line_grows_the_buffer_and_is_not_cut),
		T(long_line_on_stdout_grows_the_buffer),
		T(lines_stay_buffered_until_flush),
		T(finding_prints_as_an_indented_block),
		T(finding_without_evidence_is_one_line),
		T(hints_are_counted_not_printed),
		T(events_and_findings_keep_their_order),
		T(unopenable_output_fails_with_errno_and_says_why),
		T(write_error_is_returned_and_logged_once),
		T(bad_time_value_is_rejected),
		T(unformattable_record_is_skipped_and_reported_once),
		T(dash_writes_to_stdout),
		T(default_output_is_stderr_and_stays_unbuffered_after),
#undef T
	};

	fakehost.format_event = fake_format;
	/* finding times print in local time: pin the zone */
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
