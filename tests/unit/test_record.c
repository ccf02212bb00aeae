// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The check at the host's boundary (engine/record.c): each promise of
 * dio/event.h broken on its own is refused with its reason; what dio's BPF
 * programs produce (strings cut or unreadable, empty strings, content tails
 * after strings of odd lengths, older process records) passes, and so does
 * every record of the real traces in tests/fuzz.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <dio/event.h>
#include "engine/record.h"
#include "engine/tracefile.h"

#define SC	sizeof(struct dio_ev_syscall)
#define CT	sizeof(struct dio_ev_content)

/* a record of each kind, and room behind it */
union rec {
	struct dio_ev_hdr h;
	struct dio_ev_syscall sc;
	struct dio_ev_path p;
	struct dio_ev_iouring u;
	struct dio_ev_proc pr;
	struct dio_ev_block b;
	struct dio_ev_runq r;
	struct dio_ev_ofd o;
	uint8_t bytes[SC + 2 * DIO_PATH_MAX + CT + DIO_PATH_MAX + 8];
};

enum base { B_SC, B_SC_FAULT, B_SC_HASH, B_PATH, B_URING, B_PROC, B_BLOCK, B_RUNQ, B_OFD };

/* a record of base b, as the kernel side makes it */
static void build(union rec *r, enum base b)
{
	struct dio_ev_content ct = { .hash = 1, .hashed_len = 5, .data_len = 5 };

	memset(r, 0, sizeof(*r));
	switch (b) {
	case B_SC:
		r->sc.hdr = (struct dio_ev_hdr){ .type = DIO_EV_SYSCALL, .size = SC + 3 + 3 };
		r->sc.flags = DIO_SF_FILE;
		r->sc.ftype = DIO_FT_REG;
		r->sc.str_len[0] = 3;
		r->sc.str_len[1] = 3;
		memcpy(r->bytes + SC, "/a\0bc", 6);
		break;
	case B_SC_FAULT:
		/* rename(NULL, "b"): the first string could not be read */
		r->sc.hdr = (struct dio_ev_hdr){ .type = DIO_EV_SYSCALL, .size = SC + 2 };
		r->sc.flags = DIO_SF_STR0_FAULT;
		r->sc.str_len[1] = 2;
		memcpy(r->bytes + SC, "b", 2);
		break;
	case B_SC_HASH:
		/* one string of odd length first: the tail is not aligned */
		r->sc.hdr = (struct dio_ev_hdr){ .type = DIO_EV_SYSCALL, .size = SC + 2 + CT + 5 };
		r->sc.flags = DIO_SF_HASH;
		r->sc.str_len[0] = 2;
		memcpy(r->bytes + SC, "x", 2);
		memcpy(r->bytes + SC + 2, &ct, CT);
		memcpy(r->bytes + SC + 2 + CT, "hello", 5);
		break;
	case B_PATH:
		r->p.hdr = (struct dio_ev_hdr){ .type = DIO_EV_PATH, .size = sizeof(r->p) + 7 };
		r->p.len = 7;
		r->p.ftype = DIO_FT_FIFO;
		memcpy(r->bytes + sizeof(r->p), "/tmp/x", 7);
		break;
	case B_URING:
		r->u.hdr = (struct dio_ev_hdr){ .type = DIO_EV_IOURING, .size = sizeof(r->u) };
		r->u.flags = DIO_IF_FILE;
		r->u.ftype = DIO_FT_ANON;
		break;
	case B_PROC:
		r->pr.hdr = (struct dio_ev_hdr){ .type = DIO_EV_PROC, .size = sizeof(r->pr) };
		r->pr.kind = DIO_PROC_RENAME;
		break;
	case B_BLOCK:
		r->b.hdr = (struct dio_ev_hdr){ .type = DIO_EV_BLOCK, .size = sizeof(r->b) };
		memcpy(r->b.rwbs, "ABCDEFGH", 8);	/* fixed arrays need no NUL */
		break;
	case B_RUNQ:
		r->r.hdr = (struct dio_ev_hdr){ .type = DIO_EV_RUNQ, .size = sizeof(r->r) };
		break;
	case B_OFD:
		r->o.hdr = (struct dio_ev_hdr){ .type = DIO_EV_OFD, .size = sizeof(r->o) };
		r->o.how = DIO_OFD_END;
		r->o.flags = DIO_OFDF_FILE;
		r->o.ftype = DIO_FT_SOCK;
		break;
	}
}

#define F(type, field) offsetof(type, field), sizeof(((type *)0)->field)
#define SCF(field) F(struct dio_ev_syscall, field)
#define NONE 0, 0

static const struct {
	const char *name;
	enum base base;
	size_t off, width;	/* a field set to val (width 0: none) */
	uint64_t val;
	int size;		/* added to hdr.size */
	int avail;		/* added to the bytes there are */
	unsigned int flags;	/* record_check flags */
	const char *why;	/* NULL: accepted */
} cases[] = {
	/* what the kernel side makes */
	{ "two strings and a file", B_SC, NONE, 0, 0, 0, 0, NULL },
	{ "bytes after the record in the buffer", B_SC, NONE, 0, 0, 9, 0, NULL },
	{ "strings cut at DIO_PATH_MAX keep their NUL", B_SC, SCF(flags),
	  DIO_SF_FILE | DIO_SF_STR0_TRUNC | DIO_SF_STR1_TRUNC, 0, 0, 0, NULL },
	{ "an unreadable string has no bytes", B_SC_FAULT, NONE, 0, 0, 0, 0, NULL },
	{ "an empty string is its NUL", B_SC_FAULT, SC, 1, 0, 0, 0, 0, NULL },
	{ "content after a string of odd length", B_SC_HASH, NONE, 0, 0, 0, 0, NULL },
	{ "path of a pipe", B_PATH, NONE, 0, 0, 0, 0, NULL },
	{ "io_uring request on an anon inode", B_URING, NONE, 0, 0, 0, 0, NULL },
	{ "io_uring request without a file", B_URING, F(struct dio_ev_iouring, flags), 0,
	  0, 0, 0, NULL },
	{ "thread rename", B_PROC, NONE, 0, 0, 0, 0, NULL },
	{ "process record of an older recording", B_PROC, NONE, 0,
	  DIO_EV_PROC_SIZE_V1 - (int)sizeof(struct dio_ev_proc), 0, 0, NULL },
	{ "block request, rwbs of eight letters", B_BLOCK, NONE, 0, 0, 0, 0, NULL },
	{ "block request with fields appended", B_BLOCK, NONE, 0, 8, 8, 0, NULL },
	{ "run-queue wait", B_RUNQ, NONE, 0, 0, 0, 0, NULL },
	{ "a description's end, from the host", B_OFD, NONE, 0, 0, 0, RECORD_HOST_MADE, NULL },
	/* the header */
	{ "fewer bytes than a header", B_RUNQ, NONE, 0, 0, -(int)sizeof(struct dio_ev_runq) + 15,
	  0, "shorter than a record header" },
	{ "a size below a header", B_RUNQ, NONE, 0, -(int)sizeof(struct dio_ev_runq) + 15, 0, 0,
	  "shorter than a record header" },
	{ "a size past the bytes there are", B_RUNQ, NONE, 0, 0, -1, 0,
	  "a size larger than the bytes read" },
	{ "type 0", B_RUNQ, F(struct dio_ev_hdr, type), 0, 0, 0, 0, "an unknown record type" },
	{ "type past the last", B_RUNQ, F(struct dio_ev_hdr, type), DIO_EV_MAX, 0, 0, 0,
	  "an unknown record type" },
	{ "a description's end from a file", B_OFD, NONE, 0, 0, 0, 0,
	  "a record type only dio itself makes" },
	{ "a fixed-size record cut short", B_BLOCK, NONE, 0, -1, 0, 0,
	  "shorter than its type's struct" },
	{ "a process record shorter than the oldest", B_PROC, NONE, 0,
	  DIO_EV_PROC_SIZE_V1 - (int)sizeof(struct dio_ev_proc) - 1, 0, 0,
	  "shorter than its type's struct" },
	{ "a syscall record shorter than its struct", B_SC, NONE, 0, -7, 0, 0,
	  "shorter than its type's struct" },
	/* strings */
	{ "a string longer than DIO_PATH_MAX", B_SC, SCF(str_len[1]), DIO_PATH_MAX + 1, 0, 0, 0,
	  "a string argument longer than DIO_PATH_MAX" },
	{ "a string past the record's end", B_SC, SCF(str_len[1]), 60, 0, 0, 0,
	  "a string argument runs past the record's end" },
	{ "a string without its NUL", B_SC, SC + 2, 1, 'z', 0, 0, 0,
	  "a string argument does not end with its NUL" },
	{ "the second string without its NUL", B_SC, SC + 5, 1, 'z', 0, 0, 0,
	  "a string argument does not end with its NUL" },
	{ "an unreadable string with bytes", B_SC, SCF(flags), DIO_SF_FILE | DIO_SF_STR1_FAULT,
	  0, 0, 0, "a string argument that could not be read has bytes" },
	{ "a string not read that has a length", B_SC_FAULT, SCF(str_len[0]), 2, 2, 2, 0,
	  "a string argument that could not be read has bytes" },
	{ "bytes after the strings", B_SC, NONE, 0, 1, 1, 0,
	  "bytes after the strings and content" },
	/* content */
	{ "DIO_SF_HASH without a content tail", B_SC, SCF(flags), DIO_SF_FILE | DIO_SF_HASH, 0,
	  0, 0, "the content tail runs past the record's end" },
	{ "content data past the record's end", B_SC_HASH, SC + 2 + 12, 4, 6, 0, 0, 0,
	  "the content data runs past the record's end" },
	{ "content data longer than DIO_PATH_MAX", B_SC_HASH, SC + 2 + 12, 4, DIO_PATH_MAX + 1,
	  0, 0, 0, "more content data than DIO_PATH_MAX" },
	{ "bytes after the content", B_SC_HASH, NONE, 0, 1, 1, 0,
	  "bytes after the strings and content" },
	/* paths */
	{ "a path without its NUL", B_PATH, sizeof(struct dio_ev_path) + 6, 1, 'x', 0, 0, 0,
	  "a path that does not end with its NUL" },
	{ "a path of no bytes", B_PATH, F(struct dio_ev_path, len), 0, 0, 0, 0,
	  "a path of no bytes or longer than DIO_PATH_MAX" },
	{ "a path longer than DIO_PATH_MAX", B_PATH, F(struct dio_ev_path, len),
	  DIO_PATH_MAX + 1, 0, 0, 0, "a path of no bytes or longer than DIO_PATH_MAX" },
	{ "a path past the record's end", B_PATH, F(struct dio_ev_path, len), 8, 0, 0, 0,
	  "a path that does not end where the record does" },
	{ "a path short of the record's end", B_PATH, F(struct dio_ev_path, len), 6, 0, 0, 0,
	  "a path that does not end where the record does" },
	/* what names one of a set */
	{ "a path's file type unknown", B_PATH, F(struct dio_ev_path, ftype), 3, 0, 0, 0,
	  "an unknown file type" },
	{ "a path's file type none", B_PATH, F(struct dio_ev_path, ftype), DIO_FT_NONE, 0, 0, 0,
	  "an unknown file type" },
	{ "a call's file type unknown", B_SC, SCF(ftype), 16, 0, 0, 0, "an unknown file type" },
	{ "a call without a file: its file type is not looked at", B_SC_FAULT, SCF(ftype), 16,
	  0, 0, 0, NULL },
	{ "an io_uring file type unknown", B_URING, F(struct dio_ev_iouring, ftype), 7, 0, 0, 0,
	  "an unknown file type" },
	{ "process event 0", B_PROC, F(struct dio_ev_proc, kind), 0, 0, 0, 0,
	  "an unknown process event" },
	{ "process event past the last", B_PROC, F(struct dio_ev_proc, kind),
	  DIO_PROC_RENAME + 1, 0, 0, 0, "an unknown process event" },
	{ "a description that ended in no known way", B_OFD, F(struct dio_ev_ofd, how), 6, 0, 0,
	  RECORD_HOST_MADE, "an unknown way for a description to end" },
	{ "a description's file type unknown", B_OFD, F(struct dio_ev_ofd, ftype), 0, 0, 0,
	  RECORD_HOST_MADE, "an unknown file type" },
};

static void each_promise_broken_alone_is_refused_with_its_reason(void **state)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		union rec *r = malloc(sizeof(*r));
		const char *why = NULL;
		size_t avail;
		int e;

		assert_non_null(r);
		build(r, cases[i].base);
		if (cases[i].width)
			memcpy(r->bytes + cases[i].off, &cases[i].val, cases[i].width);
		r->h.size = (uint16_t)(r->h.size + cases[i].size);
		avail = r->h.size + cases[i].avail;
		e = record_check(r, avail, cases[i].flags, &why);
		if (cases[i].why && (e != -EINVAL || !why || strcmp(why, cases[i].why)))
			fail_msg("%s: got %d '%s', want -EINVAL '%s'", cases[i].name, e,
				 why ? why : "", cases[i].why);
		if (!cases[i].why && e)
			fail_msg("%s: refused: %s", cases[i].name, why ? why : "");
		free(r);
	}
}

static void reason_is_optional(void **state)
{
	union rec r;

	build(&r, B_PROC);
	r.pr.kind = 0;
	assert_int_equal(record_check(&r, sizeof(r.pr), 0, NULL), -EINVAL);
	assert_int_equal(record_check(&r, 3, 0, NULL), -EINVAL);
}

/* the accessors of dio/event.h on a checked record */
static void accessors_find_strings_and_content(void **state)
{
	struct dio_ev_content ct;
	union rec r;

	build(&r, B_SC);
	assert_string_equal(dio_ev_syscall_str(&r.sc, 0), "/a");
	assert_string_equal(dio_ev_syscall_str(&r.sc, 1), "bc");
	assert_null(dio_ev_syscall_str(&r.sc, 2));
	memset(&ct, 0xff, sizeof(ct));
	assert_null(dio_ev_syscall_content(&r.sc, &ct));
	assert_int_equal(ct.data_len, 0);
	assert_int_equal(ct.hashed_len, 0);
	build(&r, B_SC_HASH);
	assert_string_equal(dio_ev_syscall_str(&r.sc, 0), "x");
	assert_null(dio_ev_syscall_str(&r.sc, 1));
	assert_memory_equal(dio_ev_syscall_content(&r.sc, &ct), "hello", 5);
	assert_int_equal(ct.hash, 1);
	assert_int_equal(ct.data_len, 5);
	build(&r, B_PATH);
	assert_string_equal(dio_ev_path_str(&r.p), "/tmp/x");
}

static int check_all(const uint8_t *p, size_t len, const char *where)
{
	int n = 0;

	for (size_t off = 0; off < len; n++) {
		struct dio_ev_hdr h;
		const char *why = "";
		void *copy;

		memcpy(&h, p + off, sizeof(h));
		copy = malloc(h.size);
		assert_non_null(copy);
		memcpy(copy, p + off, h.size);
		if (record_check(copy, h.size, 0, &why))
			fail_msg("%s: record %d (type %u) refused: %s", where, n, h.type, why);
		free(copy);
		off += h.size;
	}
	return n;
}

/* real records, as BPF made them and older dio versions wrote them, all pass */
static void real_records_all_pass(void **state)
{
	const char *top = getenv("top_srcdir");
	const char *dirs[] = { "tests/fuzz/records", "tests/fuzz/corpus" };
	char path[4096];
	int files = 0, n = 0;

	for (size_t d = 0; d < 2; d++) {
		DIR *dir;
		struct dirent *de;

		snprintf(path, sizeof(path), "%s/%s", top ? top : ".", dirs[d]);
		dir = opendir(path);
		assert_non_null(dir);
		while ((de = readdir(dir))) {
			const char *dot = strrchr(de->d_name, '.');

			if (!dot || (strcmp(dot, ".rec") && strcmp(dot, ".dio")))
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", top ? top : ".", dirs[d], de->d_name);
			files++;
			if (!strcmp(dot, ".rec")) {
				FILE *f = fopen(path, "rb");
				static uint8_t buf[1 << 20];
				size_t len;

				assert_non_null(f);
				len = fread(buf, 1, sizeof(buf), f);
				fclose(f);
				n += check_all(buf, len, path);
			} else {
				char err[512];
				struct tf_reader *r = tf_reader__open(path, err, sizeof(err));
				const void *rec;
				size_t size;

				if (!r)
					fail_msg("%s: %s", path, err);
				while (tf_reader__next(r, &rec, &size) == 1)
					n += check_all(rec, size, path);
				tf_reader__close(r);
			}
		}
		closedir(dir);
	}
	assert_true(files >= 6);
	assert_true(n > 1000);
}

/* when the kernel made a record: the end of what it times, else its time */
static void made_at_is_the_end_of_what_a_record_times(void **state)
{
	struct dio_ev_syscall sc = { .hdr = { .type = DIO_EV_SYSCALL, .ts = 1000 }, .duration = 50 };
	struct dio_ev_iouring u = { .hdr = { .type = DIO_EV_IOURING, .ts = 2000 }, .duration = 7 };
	struct dio_ev_block b = { .hdr = { .type = DIO_EV_BLOCK, .ts = 3000 }, .duration = 9 };
	struct dio_ev_runq q = { .hdr = { .type = DIO_EV_RUNQ, .ts = 4000 }, .delay = 11 };
	struct dio_ev_proc p = { .hdr = { .type = DIO_EV_PROC, .ts = 5000 } };
	struct dio_ev_path pa = { .hdr = { .type = DIO_EV_PATH, .ts = 6000 } };

	(void)state;
	assert_int_equal(record__made_at(&sc, sizeof(sc)), 1050);
	assert_int_equal(record__made_at(&u, sizeof(u)), 2007);
	assert_int_equal(record__made_at(&b, sizeof(b)), 3009);
	assert_int_equal(record__made_at(&q, sizeof(q)), 4011);
	assert_int_equal(record__made_at(&p, sizeof(p)), 5000);
	assert_int_equal(record__made_at(&pa, sizeof(pa)), 6000);
	/* too short for its duration: its time; too short for a header: 0 */
	assert_int_equal(record__made_at(&sc, sizeof(sc) - 1), 1000);
	assert_int_equal(record__made_at(&sc, sizeof(sc.hdr) - 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_promise_broken_alone_is_refused_with_its_reason),
		cmocka_unit_test(reason_is_optional),
		cmocka_unit_test(accessors_find_strings_and_content),
		cmocka_unit_test(real_records_all_pass),
		cmocka_unit_test(made_at_is_the_end_of_what_a_record_times),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
