// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The json sink, linked in directly and driven through its descriptor with a
 * fake host: the exact line it writes for each kind of record and for a
 * finding, JSON string escaping (control bytes, NUL, invalid UTF-8), gzip
 * output read back with zlib, and errors that must stop dio. Records are fed
 * as the host feeds them: each one passes the host's check first.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <zlib.h>
#include <cmocka.h>
#include "fakehost.h"
#include "engine/record.h"

/* ---- fake host ------------------------------------------------------------ */

#define TS		1000000000ULL	/* before any test's start: rel_ns counts from it */

/* the names the lines are checked against: the decoding alone is the host's */
static const char *syscall_name(uint32_t nr)
{
	return nr == 257 ? "openat" : nr == 0 ? "read" : nr == 18 ? "pwrite64" : "other";
}

static int refuse_format(struct dio_ctx *ctx, const struct dio_ev_hdr *ev, uint32_t flags,
			 char *buf, size_t len)
{
	fail_msg("the json sink formats its own lines");
	return -EINVAL;
}

/* ---- records -------------------------------------------------------------- */

/* a syscall record with room for strings and captured data */
struct sc_rec {
	struct dio_ev_syscall ev;
	char tail[256];
};

static void sc_init(struct sc_rec *r, uint16_t nr, int64_t ret)
{
	memset(r, 0, sizeof(*r));
	r->ev.hdr.type = DIO_EV_SYSCALL;
	r->ev.hdr.size = sizeof(r->ev);
	r->ev.hdr.ts = TS;
	r->ev.hdr.cpu = 3;
	r->ev.pid = 10;
	r->ev.tid = 11;
	r->ev.nr = nr;
	r->ev.ret = ret;
	r->ev.fd = -1;
	r->ev.duration = 1500;
	memcpy(r->ev.comm, "app", 4);
}

/* append a string argument (n bytes, NUL counted by the caller) */
static void sc_str(struct sc_rec *r, int i, const char *s, size_t n)
{
	memcpy(r->tail + r->ev.str_len[0] + (i ? r->ev.str_len[1] : 0), s, n);
	r->ev.str_len[i] = (uint16_t)n;
	r->ev.hdr.size += (uint16_t)n;
}

/* append the content tail: hash and n bytes of data */
static void sc_data(struct sc_rec *r, uint64_t hash, const char *data, size_t n)
{
	struct dio_ev_content ct = { .hash = hash, .hashed_len = 4096, .data_len = (uint32_t)n };
	char *p = r->tail + r->ev.str_len[0] + r->ev.str_len[1];

	memcpy(p, &ct, sizeof(ct));
	memcpy(p + sizeof(ct), data, n);
	r->ev.flags |= DIO_SF_HASH;
	r->ev.hdr.size += (uint16_t)(sizeof(ct) + n);
}

/* ---- helpers -------------------------------------------------------------- */

/* the whole file through zlib, which reads plain files as they are; the caller frees */
static char *read_gz(const char *path)
{
	gzFile gz = gzopen(path, "rb");
	size_t cap = 1 << 16;
	char *buf = malloc(cap);
	int n;

	assert_non_null(gz);
	assert_non_null(buf);
	n = gzread(gz, buf, (unsigned int)cap - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	gzclose(gz);
	return buf;
}

static void assert_file(const char *path, const char *want)
{
	char *got = read_gz(path);

	assert_string_equal(got, want);
	free(got);
}

static void start(struct fixture *fx, const char *path)
{
	opts_reset("file", path, NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &fx->state), 0);
	assert_non_null(fx->state);
}

static void finish(struct fixture *fx)
{
	dio_sink.destroy(fx->state);
	fx->state = NULL;
}

/* a record as the host hands it over: one that passed its check (engine/record.h) */
static void feed_checked(struct fixture *fx, const void *ev)
{
	const char *why = "";

	if (record_check(ev, ((const struct dio_ev_hdr *)ev)->size, 0, &why))
		fail_msg("the test's record is malformed: %s", why);
	assert_int_equal(dio_sink.event(fx->state, ev), 0);
}

/* one record through a fresh sink must give exactly the line want; name says which case */
static void one_line(struct fixture *fx, const void *ev, const char *name, const char *want)
{
	char *got;

	start(fx, fx->path);
	feed_checked(fx, ev);
	finish(fx);
	got = read_gz(fx->path);
	if (strcmp(got, want))
		fail_msg("case '%s':\n got  %s want %s", name, got, want);
	free(got);
}

/* a finding's head; a record's (RHEAD) says which CPU produced it too */
#define HEAD "\"ts_ns\":1704164645000000000,\"rel_ns\":0,\"pid\":10,\"tid\":11"
#define RHEAD HEAD ",\"cpu\":3"

/* one_line for a record of type of thread 10/11 "app" at TS on CPU 3: fields follow comm */
static void one_rec(struct fixture *fx, const void *ev, const char *name, const char *type,
		    const char *fields)
{
	char want[1024];

	snprintf(want, sizeof(want), "{\"type\":\"%s\"," RHEAD ",\"comm\":\"app\",%s}\n", type,
		 fields);
	one_line(fx, ev, name, want);
}

/* ---- tests ---------------------------------------------------------------- */

static void descriptor_declares_abi_and_subscriptions(void **st)
{
	assert_int_equal(dio_sink.abi, DIO_SINK_ABI);
	assert_int_equal(dio_sink.size, sizeof(struct dio_sink));
	assert_string_equal(dio_sink.name, "json");
	assert_int_equal(dio_sink.events,
			 DIO_EV_MASK(DIO_EV_SYSCALL) | DIO_EV_MASK(DIO_EV_IOURING) |
			 DIO_EV_MASK(DIO_EV_PROC) | DIO_EV_MASK(DIO_EV_PATH) |
			 DIO_EV_MASK(DIO_EV_BLOCK) | DIO_EV_MASK(DIO_EV_RUNQ));
	assert_int_equal(dio_sink.findings, 1);
	assert_non_null(dio_sink.flush);
}

static void openat_has_every_field(void **st)
{
	struct fixture *fx = *st;
	struct sc_rec r;

	sc_init(&r, 257, 3);
	r.ev.args[0] = (uint32_t)-100;	/* AT_FDCWD as the tracepoint passes it */
	r.ev.args[1] = 0x7ffd0000;
	r.ev.args[2] = 01101;		/* O_WRONLY|O_CREAT|O_TRUNC */
	r.ev.args[3] = 0644;
	r.ev.fd = 3;
	r.ev.flags = DIO_SF_FILE;
	r.ev.ftype = 8;
	r.ev.tag = (struct dio_file_tag){ .ino = 1234, .dev = (254 << 20) | 0, .gen = 77 };
	sc_str(&r, 0, "a", 2);
	start(fx, fx->path);
	feed_checked(fx, &r);
	finish(fx);
	assert_file(fx->path,
		    "{\"type\":\"syscall\"," RHEAD ",\"comm\":\"app\",\"syscall\":\"openat\","
		    "\"nr\":257,\"args\":[4294967196,2147287040,577,420],"
		    "\"decoded\":[\"AT_FDCWD\",null,\"O_WRONLY|O_CREAT|O_TRUNC\",\"0644\"],"
		    "\"ret\":3,\"duration_ns\":1500,\"fd\":3,\"file_tag\":\"254:0|1234|77\","
		    "\"file_type\":\"reg\",\"path\":\"/tmp/a \\\"q\\\"\",\"strings\":[\"a\"]}\n");
	assert_int_equal(nlogged, 0);
}

static void failure_has_errno_name_and_offset_and_cut_strings(void **st)
{
	struct fixture *fx = *st;
	struct sc_rec r;

	sc_init(&r, 0, -9);	/* read(7, ...) = -1 EBADF */
	r.ev.args[0] = 7;
	r.ev.flags = DIO_SF_OFFSET | DIO_SF_STR0_TRUNC;
	r.ev.offset = 4096;
	sc_str(&r, 0, "x", 2);
	start(fx, fx->path);
	feed_checked(fx, &r);
	finish(fx);
	assert_file(fx->path,
		    "{\"type\":\"syscall\"," RHEAD ",\"comm\":\"app\",\"syscall\":\"read\","
		    "\"nr\":0,\"args\":[7,0,0],\"decoded\":[null,null,null],"
		    "\"ret\":-9,\"errno\":\"EBADF\",\"duration_ns\":1500,\"fd\":-1,"
		    "\"offset\":4096,\"strings\":[\"x\"],\"strings_truncated\":true}\n");
}

/* a call dio does not know: every register, and no decoded, since nothing names them */
static void unknown_call_has_six_args_and_nothing_decoded(void **st)
{
	struct fixture *fx = *st;
	struct sc_rec r;

	sc_init(&r, 39, 42);	/* getpid: dio does not trace it */
	for (int i = 0; i < 6; i++)
		r.ev.args[i] = (uint64_t)i + 1;
	one_line(fx, &r, "unknown call",
		 "{\"type\":\"syscall\"," RHEAD ",\"comm\":\"app\",\"syscall\":\"other\","
		 "\"nr\":39,\"args\":[1,2,3,4,5,6],\"ret\":42,\"duration_ns\":1500,\"fd\":-1}\n");
}

/* a host's name longer than the line's first try (no table of dio's has one) is whole */
static int long_decode_arg(struct dio_ctx *ctx, const struct dio_ev_syscall *ev, unsigned int i,
			   char *buf, size_t len)
{
	char text[601];

	if (i != 2)
		return -ENOENT;
	memset(text, 'F', 600);
	text[600] = '\0';
	return snprintf(buf, len, "%s", text);
}

static void long_decoded_text_is_whole(void **st)
{
	struct fixture *fx = *st;
	struct dio_host h = fakehost;
	struct sc_rec r;
	char *got;

	h.decode_arg = long_decode_arg;
	sc_init(&r, 257, 3);
	opts_reset("file", fx->path, NULL);
	assert_int_equal(dio_sink.init(&h, &fake_ctx, opts, &fx->state), 0);
	feed_checked(fx, &r);
	finish(fx);
	got = read_gz(fx->path);
	assert_non_null(strstr(got, "\"decoded\":[null,null,\"FFFFFFFF"));
	assert_non_null(strstr(got, "FFFFFFFF\",null],\"ret\":3,"));
	assert_int_equal(strspn(strstr(got, "FFFF"), "F"), 600);
	free(got);
}

/* an unreadable string is null in its own place: the other one is kept */
static void unreadable_string_keeps_its_place(void **st)
{
	static const struct {
		const char *name;
		uint8_t flags;
		const char *s0, *s1;	/* NULL: unreadable, no bytes */
		const char *want;
	} cases[] = {
		{ "first unreadable", DIO_SF_STR0_FAULT, NULL, "b", "[null,\"b\"]" },
		{ "second unreadable", DIO_SF_STR1_FAULT, "a", NULL, "[\"a\",null]" },
		{ "both unreadable", DIO_SF_STR0_FAULT | DIO_SF_STR1_FAULT, NULL, NULL,
		  "[null,null]" },
		{ "second cut", DIO_SF_STR1_TRUNC, "a", "b", "[\"a\",\"b\"],\"strings_truncated\":true" },
	};
	struct fixture *fx = *st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sc_rec r;
		char want[512];

		sc_init(&r, 82, 0);	/* rename */
		r.ev.flags = cases[i].flags;
		if (cases[i].s0)
			sc_str(&r, 0, cases[i].s0, strlen(cases[i].s0) + 1);
		if (cases[i].s1)
			sc_str(&r, 1, cases[i].s1, strlen(cases[i].s1) + 1);
		snprintf(want, sizeof(want),
			 "{\"type\":\"syscall\"," RHEAD ",\"comm\":\"app\",\"syscall\":\"other\","
			 "\"nr\":82,\"args\":[0,0],\"decoded\":[null,null],\"ret\":0,"
			 "\"duration_ns\":1500,\"fd\":-1,\"strings\":%s}\n", cases[i].want);
		one_line(fx, &r, cases[i].name, want);
	}
}

/* captured bytes go through the escaping as they are, NUL included */
static void data_bytes_are_escaped(void **st)
{
	static const struct {
		const char *name;
		const char *in;
		size_t n;
		const char *want;
	} cases[] = {
		{ "plain", "abc", 3, "abc" },
		{ "quote and backslash", "a\"b\\c", 5, "a\\\"b\\\\c" },
		{ "short escapes", "\b\f\n\r\t", 5, "\\b\\f\\n\\r\\t" },
		{ "other controls and DEL", "\x01\x1f\x7f", 3, "\\u0001\\u001f\\u007f" },
		{ "NUL byte inside", "a\0b", 3, "a\\u0000b" },
		{ "valid UTF-8 kept", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9,
		  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" },
		{ "invalid byte", "a\xff" "b", 3, "a\\udcffb" },
		{ "lead byte at the end", "a\xc3", 2, "a\\udcc3" },
		{ "overlong slash", "\xc0\xaf", 2, "\\udcc0\\udcaf" },
		{ "UTF-8 surrogate", "\xed\xa0\x80", 3, "\\udced\\udca0\\udc80" },
		{ "cut three-byte sequence", "\xe2\x82z", 3, "\\udce2\\udc82z" },
		{ "past U+10FFFF", "\xf4\x90\x80\x80", 4, "\\udcf4\\udc90\\udc80\\udc80" },
	};
	struct fixture *fx = *st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sc_rec r;
		char want[512];

		sc_init(&r, 1, (int64_t)cases[i].n);
		r.ev.flags = DIO_SF_FILE;
		r.ev.ftype = DIO_FT_FIFO;
		r.ev.tag.ino = 5;
		sc_data(&r, 0x0123456789abcdefULL, cases[i].in, cases[i].n);
		snprintf(want, sizeof(want),
			 "{\"type\":\"syscall\"," RHEAD ",\"comm\":\"app\",\"syscall\":\"other\","
			 "\"nr\":1,\"args\":[0,0,0],\"decoded\":[null,null,null],\"ret\":%zu,"
			 "\"duration_ns\":1500,\"fd\":-1,\"file_tag\":\"0:0|5|0\","
			 "\"file_type\":\"fifo\",\"hash\":\"0123456789abcdef\",\"hashed_len\":4096,"
			 "\"data\":\"%s\"}\n", cases[i].n, cases[i].want);
		one_line(fx, &r, cases[i].name, want);
	}
}

static void other_records_and_a_finding(void **st)
{
	struct fixture *fx = *st;
	struct {
		struct dio_ev_path ev;
		char path[8];
	} p = { .ev = { .hdr = { .type = DIO_EV_PATH, .size = sizeof(struct dio_ev_path) + 7,
				 .cpu = 1, .ts = TS },
			.tag = { .ino = 9, .dev = (8 << 20) | 1, .gen = 2 }, .len = 7,
			.flags = DIO_PF_DELETED, .ftype = 4, .pid = 10 },
		.path = "/d\nir" };
	struct dio_ev_iouring u = {
		.hdr = { .type = DIO_EV_IOURING, .size = sizeof(u), .cpu = 7, .ts = TS + 5 },
		.pid = 10, .tid = 11, .duration = 99, .res = -11, .offset = 8192,
		.user_data = 42, .comm = "app", .len = 4096, .fd = 2, .opcode = 22,
		.flags = DIO_IF_FIXED,
	};
	struct dio_ev_proc f = {
		.hdr = { .type = DIO_EV_PROC, .size = sizeof(f), .ts = TS + 6 },
		.pid = 10, .tid = 11, .other_pid = 12, .other_tid = 12,
		.kind = DIO_PROC_FORK, .comm = "app", .mnt_ns = 4026531841u,
	};
	/* a thread other than the leader called execve: it goes on as the leader */
	struct dio_ev_proc e = {
		.hdr = { .type = DIO_EV_PROC, .size = sizeof(e), .ts = TS + 6 },
		.pid = 10, .tid = 10, .other_tid = 11, .kind = DIO_PROC_EXEC, .comm = "new",
	};
	struct dio_ev_proc x = {
		.hdr = { .type = DIO_EV_PROC, .size = sizeof(x), .cpu = 2, .ts = TS + 7 },
		.pid = 10, .tid = 11, .exit_code = 3 << 8, .kind = DIO_PROC_EXIT,
		.flags = DIO_PROCF_GROUP_DEAD, .comm = "app",
	};
	struct dio_finding fi = {
		.size = sizeof(fi), .severity = DIO_SEV_WARNING, .code = "fsync.missing",
		.title = "never synced", .message = "Call fsync(2).\nNow.", .analyzer = "fsync",
		.pid = 10, .tid = 11, .comm = "app", .path = "/tmp/a",
		.tag = { .ino = 1234, .dev = (8 << 20) | 1, .gen = 5 }, .has_tag = 1,
		.ts_first = TS, .ts_last = TS + 250, .count = 3,
	};

	start(fx, fx->path);
	feed_checked(fx, &p);
	feed_checked(fx, &u);
	feed_checked(fx, &f);
	feed_checked(fx, &e);
	feed_checked(fx, &x);
	assert_int_equal(dio_sink.finding(fx->state, &fi), 0);
	finish(fx);
	assert_file(fx->path,
		    "{\"type\":\"path\",\"ts_ns\":1704164645000000000,\"rel_ns\":0,\"pid\":10,"
		    "\"tid\":10,\"cpu\":1,\"file_tag\":\"8:1|9|2\",\"file_type\":\"dir\",\"path\":\"/d\\nir\","
		    "\"truncated\":false,\"deleted\":true,\"renamed\":false}\n"
		    "{\"type\":\"io_uring\",\"ts_ns\":1704164645000000005,\"rel_ns\":5,\"pid\":10,"
		    "\"tid\":11,\"cpu\":7,\"comm\":\"app\",\"op\":\"READ\",\"opcode\":22,\"fd\":2,"
		    "\"fixed\":true,\"sqpoll\":false,\"offset\":8192,\"len\":4096,"
		    "\"user_data\":42,\"ret\":-11,\"errno\":\"EAGAIN\",\"duration_ns\":99}\n"
		    "{\"type\":\"proc\",\"ts_ns\":1704164645000000006,\"rel_ns\":6,\"pid\":10,"
		    "\"tid\":11,\"cpu\":0,\"comm\":\"app\",\"kind\":\"fork\",\"mnt_ns\":4026531841,"
		    "\"child_pid\":12,"
		    "\"child_tid\":12,\"thread\":false}\n"
		    "{\"type\":\"proc\",\"ts_ns\":1704164645000000006,\"rel_ns\":6,\"pid\":10,"
		    "\"tid\":10,\"cpu\":0,\"comm\":\"new\",\"kind\":\"exec\",\"mnt_ns\":0,\"old_tid\":11}\n"
		    "{\"type\":\"proc\",\"ts_ns\":1704164645000000007,\"rel_ns\":7,\"pid\":10,"
		    "\"tid\":11,\"cpu\":2,\"comm\":\"app\",\"kind\":\"exit\",\"mnt_ns\":0,\"exit_code\":768,"
		    "\"group_dead\":true,\"exit_status\":3}\n"
		    "{\"type\":\"finding\"," HEAD ",\"severity\":\"warning\","
		    "\"code\":\"fsync.missing\",\"analyzer\":\"fsync\",\"title\":\"never synced\","
		    "\"message\":\"Call fsync(2).\\nNow.\",\"comm\":\"app\","
		    "\"file_tag\":\"8:1|1234|5\",\"path\":\"/tmp/a\","
		    "\"last_ts_ns\":1704164645000000250,\"span_ns\":250,\"count\":3}\n");
}

/* a block request of thread 10/11, issued at TS, and the fields its JSON always has */
static void block_init(struct dio_ev_block *b)
{
	memset(b, 0, sizeof(*b));
	b->hdr = (struct dio_ev_hdr){ .type = DIO_EV_BLOCK, .size = sizeof(*b), .cpu = 3, .ts = TS };
	b->pid = 10;
	b->tid = 11;
	b->duration = 250000;
	b->sector = 2048;
	b->dev = (8 << 20) | 16;
	b->bytes = 65536;
	memcpy(b->comm, "app", 4);
	memcpy(b->rwbs, "WS", 3);
}

static void block_request_has_every_field(void **st)
{
	static const struct {
		const char *name;
		uint8_t flags;
		int32_t error;
		const char *rwbs;	/* 8 bytes, as the record holds them */
		uint64_t sector;
		const char *want;	/* after "comm" */
	} cases[] = {
		{ "in a call, through the scheduler", DIO_BF_SYSCALL | DIO_BF_QUEUED, 0,
		  "WS\0\0\0\0\0\0", 2048,
		  "\"rwbs\":\"WS\",\"dev\":\"8:16\",\"sector\":2048,\"bytes\":65536,\"error\":0,"
		  "\"duration_ns\":250000,\"queued\":true,\"queue_ns\":700,\"kthread\":false,"
		  "\"syscall\":\"pwrite64\",\"nr\":18,\"sys_ts_ns\":1704164644999998000" },
		/* writeback: nr and sys_ts hold nothing without DIO_BF_SYSCALL */
		{ "a kernel thread's, in no call", DIO_BF_KTHREAD, 0, "WSM\0\0\0\0\0", 2048,
		  "\"rwbs\":\"WSM\",\"dev\":\"8:16\",\"sector\":2048,\"bytes\":65536,\"error\":0,"
		  "\"duration_ns\":250000,\"queued\":false,\"kthread\":true" },
		{ "failed", DIO_BF_SYSCALL, -28, "W\0\0\0\0\0\0\0", 2048,
		  "\"rwbs\":\"W\",\"dev\":\"8:16\",\"sector\":2048,\"bytes\":65536,\"error\":-28,"
		  "\"errno\":\"ENOSPC\",\"duration_ns\":250000,\"queued\":false,\"kthread\":false,"
		  "\"syscall\":\"pwrite64\",\"nr\":18,\"sys_ts_ns\":1704164644999998000" },
		{ "failed with an errno without a name", 0, -4000, "R\0\0\0\0\0\0\0", 2048,
		  "\"rwbs\":\"R\",\"dev\":\"8:16\",\"sector\":2048,\"bytes\":65536,\"error\":-4000,"
		  "\"errno\":\"ERRNO_4000\",\"duration_ns\":250000,\"queued\":false,"
		  "\"kthread\":false" },
		/* past 2^63 and 2^53: unsigned, every digit */
		{ "the largest sector, in full", DIO_BF_KTHREAD, 0, "WS\0\0\0\0\0\0", UINT64_MAX,
		  "\"rwbs\":\"WS\",\"dev\":\"8:16\",\"sector\":18446744073709551615,"
		  "\"bytes\":65536,\"error\":0,\"duration_ns\":250000,\"queued\":false,"
		  "\"kthread\":true" },
		{ "rwbs of all 8 bytes: nothing past them", 0, 0, "FWFASMXY", 2048,
		  "\"rwbs\":\"FWFASMXY\",\"dev\":\"8:16\",\"sector\":2048,\"bytes\":65536,"
		  "\"error\":0,\"duration_ns\":250000,\"queued\":false,\"kthread\":false" },
	};
	struct fixture *fx = *st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dio_ev_block b;

		block_init(&b);
		b.flags = cases[i].flags;
		b.error = cases[i].error;
		b.sector = cases[i].sector;
		memcpy(b.rwbs, cases[i].rwbs, sizeof(b.rwbs));
		if (b.flags & DIO_BF_QUEUED)
			b.queue_ns = 700;
		if (b.flags & DIO_BF_SYSCALL) {
			b.nr = 18;
			b.sys_ts = TS - 2000;
		}
		one_rec(fx, &b, cases[i].name, "block", cases[i].want);
	}
	assert_int_equal(nlogged, 0);
}

static void runq_wait_has_every_field(void **st)
{
	static const struct {
		const char *name;
		uint8_t flags;
		const char *prev_comm;	/* 16 bytes, as the record holds them */
		const char *want;	/* after "comm" */
	} cases[] = {
		{ "preempted, in no call", DIO_RF_PREEMPTED, "hog\0\0\0\0\0\0\0\0\0\0\0\0\0",
		  "\"preempted\":true,\"duration_ns\":3031000,\"prev_pid\":20,\"prev_tid\":21,"
		  "\"prev_comm\":\"hog\"" },
		{ "woken, in a call", DIO_RF_SYSCALL, "hog\0\0\0\0\0\0\0\0\0\0\0\0\0",
		  "\"preempted\":false,\"duration_ns\":3031000,\"prev_pid\":20,\"prev_tid\":21,"
		  "\"prev_comm\":\"hog\",\"syscall\":\"read\",\"nr\":0,"
		  "\"sys_ts_ns\":1704164644999998000" },
		{ "a prev name of 16 bytes, escaped", 0, "a\"b\\c\nlonglonglo",
		  "\"preempted\":false,\"duration_ns\":3031000,\"prev_pid\":20,\"prev_tid\":21,"
		  "\"prev_comm\":\"a\\\"b\\\\c\\nlonglonglo\"" },
	};
	struct fixture *fx = *st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dio_ev_runq r = {
			.hdr = { .type = DIO_EV_RUNQ, .size = sizeof(r), .cpu = 3, .ts = TS },
			.pid = 10, .tid = 11, .delay = 3031000, .comm = "app",
			.prev_pid = 20, .prev_tid = 21, .flags = cases[i].flags,
		};

		memcpy(r.prev_comm, cases[i].prev_comm, sizeof(r.prev_comm));
		/* read(2), entered 2 us before the thread was woken */
		if (r.flags & DIO_RF_SYSCALL)
			r.sys_ts = TS - 2000;
		one_rec(fx, &r, cases[i].name, "runq", cases[i].want);
	}
	assert_int_equal(nlogged, 0);
}

static void gz_file_is_gzip_and_reads_back(void **st)
{
	struct fixture *fx = *st;
	char gzpath[80];
	unsigned char magic[2] = { 0 };
	struct sc_rec r;
	FILE *f;

	snprintf(gzpath, sizeof(gzpath), "%s.gz", fx->path);
	sc_init(&r, 0, 5);
	start(fx, gzpath);
	feed_checked(fx, &r);
	assert_int_equal(dio_sink.flush(fx->state), 0);
	feed_checked(fx, &r);
	finish(fx);
	f = fopen(gzpath, "rb");
	assert_non_null(f);
	assert_int_equal(fread(magic, 1, 2, f), 2);
	fclose(f);
	assert_int_equal(magic[0], 0x1f);
	assert_int_equal(magic[1], 0x8b);
	assert_file(gzpath,
		    "{\"type\":\"syscall\"," RHEAD ",\"comm\":\"app\",\"syscall\":\"read\","
		    "\"nr\":0,\"args\":[0,0,0],\"decoded\":[null,null,null],\"ret\":5,"
		    "\"duration_ns\":1500,\"fd\":-1}\n"
		    "{\"type\":\"syscall\"," RHEAD ",\"comm\":\"app\",\"syscall\":\"read\","
		    "\"nr\":0,\"args\":[0,0,0],\"decoded\":[null,null,null],\"ret\":5,"
		    "\"duration_ns\":1500,\"fd\":-1}\n");
	unlink(gzpath);
	assert_int_equal(nlogged, 0);
}

static void unopenable_file_fails_with_errno_and_says_why(void **st)
{
	void *state = NULL;

	opts_reset("file", "/nonexistent-dio/out.json", NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &state), -ENOENT);
	assert_null(state);
	assert_string_equal(logged, "cannot create output '/nonexistent-dio/out.json': "
			    "No such file or directory");
	(void)st;
}

/* a dio whose host does not decode for modules: said at once, rather than lines with less */
static void host_without_decoding_is_refused(void **st)
{
	struct dio_host old = fakehost;
	void *state = NULL;

	old.size = offsetof(struct dio_host, syscall_info);
	opts_reset("file", "/nonexistent-dio/out.json", NULL);
	assert_int_equal(dio_sink.init(&old, &fake_ctx, opts, &state), -ENOSYS);
	assert_null(state);
	assert_string_equal(logged, "this dio does not name calls and flags for modules "
			    "(struct dio_host has no decode_arg): use the json sink it came with");
	old = fakehost;
	old.name_of = NULL;
	nlogged = 0;
	assert_int_equal(dio_sink.init(&old, &fake_ctx, opts, &state), -ENOSYS);
	assert_int_equal(nlogged, 1);
	(void)st;
}

static void no_file_is_an_error(void **st)
{
	void *state = NULL;

	opts_reset("file", NULL, NULL);
	assert_int_equal(dio_sink.init(&fakehost, &fake_ctx, opts, &state), -EINVAL);
	assert_null(state);
	assert_string_equal(logged, "no output file: give one, e.g. --sink json:file=trace.json");
	(void)st;
}

/* disk full: logged once, and every later call fails so that dio stops non-zero */
static void write_error_is_returned_and_logged_once(void **st)
{
	struct fixture *fx = *st;
	char gzfull[80];
	const char *paths[2] = { "/dev/full", gzfull };
	struct sc_rec r;
	size_t n = 2;

	if (access("/dev/full", W_OK))
		skip();
	/*
	 * a .gz name for /dev/full: the zlib path fails the same way. A device
	 * node of its own (outputs are not written through symbolic links), which
	 * only root may make: others test the plain path alone.
	 */
	snprintf(gzfull, sizeof(gzfull), "%s-full.gz", fx->path);
	if (mknod(gzfull, S_IFCHR | 0600, makedev(1, 7)))
		n = 1;
	sc_init(&r, 0, 1);
	for (size_t i = 0; i < n; i++) {
		nlogged = 0;
		start(fx, paths[i]);
		feed_checked(fx, &r);
		assert_int_equal(dio_sink.flush(fx->state), -ENOSPC);
		assert_int_equal(nlogged, 1);
		assert_string_equal(logged, "cannot write output: No space left on device");
		assert_int_equal(dio_sink.event(fx->state, &r.ev.hdr), -ENOSPC);
		finish(fx);
		assert_int_equal(nlogged, 1);
	}
	unlink(gzfull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(descriptor_declares_abi_and_subscriptions),
#define T(fn) cmocka_unit_test_setup_teardown(fn, sink_setup, sink_teardown)
		T(openat_has_every_field),
		T(failure_has_errno_name_and_offset_and_cut_strings),
		T(unknown_call_has_six_args_and_nothing_decoded),
		T(long_decoded_text_is_whole),
		T(unreadable_string_keeps_its_place),
		T(data_bytes_are_escaped),
		T(other_records_and_a_finding),
		T(block_request_has_every_field),
		T(runq_wait_has_every_field),
		T(gz_file_is_gzip_and_reads_back),
		T(unopenable_file_fails_with_errno_and_says_why),
		T(host_without_decoding_is_refused),
		T(no_file_is_an_error),
		T(write_error_is_returned_and_logged_once),
#undef T
	};

	fakehost.syscall_name = syscall_name;
	fakehost.format_event = refuse_format;
	fake_path(&(struct dio_file_tag){ .ino = 1234, .dev = (254 << 20) | 0, .gen = 77 },
		  "/tmp/a \"q\"");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
