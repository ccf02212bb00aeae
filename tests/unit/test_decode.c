// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The decoding the host offers modules (engine/decode.c: host->syscall_info,
 * decode_arg, name_of): which arguments have a name and which do not, calls
 * and tables dio does not know, buffers too small or absent, and a module's
 * struct dio_syscall_info shorter than the host's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "engine/decode.h"

#define NR_READ		0
#define NR_LSEEK	8
#define NR_GETPID	39	/* a call dio does not trace */
#define NR_RENAME	82
#define NR_OPENAT	257
#define AT_CWD		0xffffff9cULL	/* AT_FDCWD (-100) as the int argument arrives */

struct arg_case {
	const char *name;
	uint16_t nr;
	uint64_t args[6];
	unsigned int i;
	int ret;		/* what decode_arg returns: the length, or -errno */
	const char *want;	/* the text; "" for none */
};

/* Expected texts are written out by hand, not built from the tables under test. */
static const struct arg_case arg_cases[] = {
	{ "the current directory as a directory fd", NR_OPENAT, { AT_CWD }, 0, 8, "AT_FDCWD" },
	{ "AT_FDCWD sign-extended to 64 bits", NR_OPENAT, { (uint64_t)-100 }, 0, 8, "AT_FDCWD" },
	{ "a real directory fd is a number", NR_OPENAT, { 3 }, 0, -ENOENT, "" },
	{ "a path argument is a string, not a name", NR_OPENAT, { AT_CWD, 0x1000 }, 1, -ENOENT,
	  "" },
	{ "open flags", NR_OPENAT, { AT_CWD, 0x1000, 01 | 0100 | 01000 }, 2, 24,
	  "O_WRONLY|O_CREAT|O_TRUNC" },
	{ "open flags with a bit without a name", NR_OPENAT, { 0, 0, 0x40000000 }, 2, 19,
	  "O_RDONLY|0x40000000" },
	{ "a flag word is the kernel's int: the upper half is not read", NR_OPENAT,
	  { 0, 0, 0x100000001ULL }, 2, 8, "O_WRONLY" },
	{ "a mode, in octal", NR_OPENAT, { AT_CWD, 0x1000, 0100, 0644 }, 3, 4, "0644" },
	{ "the mode is named without O_CREAT too", NR_OPENAT, { AT_CWD, 0x1000, 0, 0600 }, 3, 4,
	  "0600" },
	{ "a constant", NR_LSEEK, { 3, 0, 2 }, 2, 8, "SEEK_END" },
	{ "an offset is a number", NR_LSEEK, { 3, 4096, 0 }, 1, -ENOENT, "" },
	{ "a byte count is a number", NR_READ, { 3, 0x1000, 4096 }, 2, -ENOENT, "" },
	{ "past the arguments the call takes", NR_READ, { 3, 0x1000, 4096, 7 }, 3, -ENOENT, "" },
	{ "a call dio does not know", NR_GETPID, { 0 }, 0, -ENOENT, "" },
	{ "a number past every table", 9999, { AT_CWD }, 0, -ENOENT, "" },
	{ "no seventh argument", NR_OPENAT, { AT_CWD }, 6, -EINVAL, "" },
};

static void arguments_with_names_and_without(void **unused)
{
	for (size_t k = 0; k < sizeof(arg_cases) / sizeof(arg_cases[0]); k++) {
		const struct arg_case *c = &arg_cases[k];
		struct dio_ev_syscall ev = { .nr = c->nr };
		char buf[64];
		int n;

		memcpy(ev.args, c->args, sizeof(ev.args));
		memset(buf, 'x', sizeof(buf));
		n = decode__arg(NULL, &ev, c->i, buf, sizeof(buf));
		if (n != c->ret || strcmp(buf, c->want))
			fail_msg("%s: got %d \"%s\", want %d \"%s\"", c->name, n, buf, c->ret,
				 c->want);
	}
}

/* snprintf semantics: the whole length, the text cut to fit with its NUL; no buffer at all */
static void buffer_too_small_or_absent(void **unused)
{
	struct dio_ev_syscall ev = { .nr = NR_OPENAT, .args = { AT_CWD, 0, 01 | 0100 | 01000 } };
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	assert_int_equal(decode__arg(NULL, &ev, 2, buf, 4), 24);
	assert_string_equal(buf, "O_W");
	assert_int_equal(buf[4], 'x');
	assert_int_equal(decode__arg(NULL, &ev, 0, buf, 4), 8);
	assert_string_equal(buf, "AT_");
	assert_int_equal(decode__arg(NULL, &ev, 2, NULL, 0), 24);
	assert_int_equal(decode__arg(NULL, &ev, 0, NULL, 0), 8);
	assert_int_equal(decode__arg(NULL, &ev, 1, NULL, 0), -ENOENT);
	assert_int_equal(decode__arg(NULL, &ev, 6, NULL, 0), -EINVAL);
}

struct info_case {
	const char *name;
	uint32_t nr;
	int ret;
	const char *want_name;
	uint32_t nargs, classes, str_args, io;
};

static const struct info_case info_cases[] = {
	{ "a path call", NR_OPENAT, 0, "openat", 4, DIO_SC_META, 0x2, DIO_IO_NONE },
	{ "two strings", NR_RENAME, 0, "rename", 2, DIO_SC_META, 0x3, DIO_IO_NONE },
	{ "a data call without strings", NR_READ, 0, "read", 3, DIO_SC_DATA, 0, DIO_IO_READ },
	{ "pwrite64 writes", 18, 0, "pwrite64", 4, DIO_SC_DATA, 0, DIO_IO_WRITE },
	{ "sendfile reads its input file", 40, 0, "sendfile", 4, DIO_SC_DATA, 0, DIO_IO_READ },
	{ "fsync", 74, 0, "fsync", 1, DIO_SC_SYNC, 0 },
	{ "mkdir", 83, 0, "mkdir", 2, DIO_SC_DIR, 0x1 },
	{ "setxattr: path and name, the value is a pointer", 188, 0, "setxattr", 5, DIO_SC_XATTR,
	  0x3 },
	{ "io_uring_enter", 426, 0, "io_uring_enter", 6, DIO_SC_ASYNC, 0 },
	{ "sync takes nothing", 162, 0, "sync", 0, DIO_SC_SYNC, 0 },
	{ "a call dio does not know", NR_GETPID, -ENOENT, NULL, 0, 0, 0 },
	{ "a number past every table", 1u << 31, -ENOENT, NULL, 0, 0, 0 },
};

static void what_a_call_is(void **unused)
{
	for (size_t k = 0; k < sizeof(info_cases) / sizeof(info_cases[0]); k++) {
		const struct info_case *c = &info_cases[k];
		struct dio_syscall_info si;
		int n;

		memset(&si, 0xff, sizeof(si));
		n = decode__syscall_info(NULL, c->nr, &si, sizeof(si));
		if (n != c->ret || si.nargs != c->nargs || si.classes != c->classes ||
		    si.str_args != c->str_args || si.io != c->io ||
		    (c->want_name ? !si.name || strcmp(si.name, c->want_name) : !!si.name))
			fail_msg("%s: got %d %s nargs=%u classes=%#x str_args=%#x io=%u", c->name,
				 n, si.name ? si.name : "(null)", si.nargs, si.classes,
				 si.str_args, si.io);
	}
}

/* a module built when the struct ended at nargs: nothing past its size is written */
static void shorter_struct_of_an_older_module(void **unused)
{
	struct dio_syscall_info si;
	size_t old = offsetof(struct dio_syscall_info, nargs) + sizeof(si.nargs);

	memset(&si, 0xff, sizeof(si));
	assert_int_equal(decode__syscall_info(NULL, NR_OPENAT, &si, old), 0);
	assert_string_equal(si.name, "openat");
	assert_int_equal(si.nargs, 4);
	assert_int_equal(si.classes, 0xffffffffu);
	memset(&si, 0xff, sizeof(si));
	assert_int_equal(decode__syscall_info(NULL, NR_GETPID, &si, old), -ENOENT);
	assert_null(si.name);
	assert_int_equal(si.nargs, 0);
	assert_int_equal(si.classes, 0xffffffffu);
	assert_int_equal(decode__syscall_info(NULL, NR_OPENAT, NULL, 0), 0);
}

struct name_case {
	const char *name;
	uint32_t what;
	uint64_t value;
	const char *want;	/* NULL: none */
};

static const struct name_case name_cases[] = {
	{ "errno", DIO_NAME_ERRNO, 2, "ENOENT" },
	{ "a kernel-internal errno", DIO_NAME_ERRNO, 512, "ERESTARTSYS" },
	{ "no errno 0", DIO_NAME_ERRNO, 0, NULL },
	{ "an errno without a name", DIO_NAME_ERRNO, 4000, NULL },
	{ "errno 2 plus 2^32 is not 2", DIO_NAME_ERRNO, (1ULL << 32) + 2, NULL },
	{ "a negative errno is not one", DIO_NAME_ERRNO, (uint64_t)-2, NULL },
	{ "what an errno means", DIO_NAME_ERRNO_TEXT, 2, "No such file or directory" },
	{ "what an unnamed errno means", DIO_NAME_ERRNO_TEXT, 4000, NULL },
	{ "a regular file", DIO_NAME_FTYPE, DIO_FT_REG, "reg" },
	{ "an anon inode", DIO_NAME_FTYPE, DIO_FT_ANON, "anon" },
	{ "no file has no type name", DIO_NAME_FTYPE, DIO_FT_NONE, NULL },
	{ "a type that is no DIO_FT_*", DIO_NAME_FTYPE, 3, NULL },
	{ "a regular file plus 2^32 is not one", DIO_NAME_FTYPE, (1ULL << 32) | DIO_FT_REG, NULL },
	{ "an io_uring opcode", DIO_NAME_URING_OP, 22, "READ" },
	{ "opcode 0", DIO_NAME_URING_OP, 0, "NOP" },
	{ "an opcode without a name", DIO_NAME_URING_OP, 250, NULL },
	{ "table 0", 0, 2, NULL },
	{ "a table this dio does not have", 99, 2, NULL },
};

static void names_of_values(void **unused)
{
	for (size_t k = 0; k < sizeof(name_cases) / sizeof(name_cases[0]); k++) {
		const struct name_case *c = &name_cases[k];
		const char *got = decode__name_of(NULL, c->what, c->value);

		if (c->want ? !got || strcmp(got, c->want) : !!got)
			fail_msg("%s: got %s, want %s", c->name, got ? got : "NULL",
				 c->want ? c->want : "NULL");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arguments_with_names_and_without),
		cmocka_unit_test(buffer_too_small_or_absent),
		cmocka_unit_test(what_a_call_is),
		cmocka_unit_test(shorter_struct_of_an_older_module),
		cmocka_unit_test(names_of_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
