// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flag and value decoding: multi-bit flags, access modes as values, unknown
 * bits, zero, every buffer size; and the order rule of every table in xlat/.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/close_range.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/io_uring.h>
#include <linux/stat.h>
#include <cmocka.h>
#include "engine/xlat.h"

struct flag_case {
	const char *name;
	int (*fn)(uint64_t, char *, size_t);
	uint64_t v;
	const char *want;
};

/* Expected texts are written out by hand, not built from the tables under test. */
static const struct flag_case cases[] = {
	/* open: the access mode is a value from O_ACCMODE, then the other bits */
	{ "read-only is named", xlat_open_flags, 0, "O_RDONLY" },
	{ "write-only", xlat_open_flags, 01, "O_WRONLY" },
	{ "read-write is a value, not two bits", xlat_open_flags, 02, "O_RDWR" },
	{ "access mode 3", xlat_open_flags, 03, "O_ACCMODE" },
	{ "create and truncate", xlat_open_flags, 01 | 0100 | 01000, "O_WRONLY|O_CREAT|O_TRUNC" },
	{ "O_SYNC before the O_DSYNC bit it contains", xlat_open_flags, 01 | 04010000,
	  "O_WRONLY|O_SYNC" },
	{ "O_DSYNC alone", xlat_open_flags, 01 | 010000, "O_WRONLY|O_DSYNC" },
	{ "O_TMPFILE before the O_DIRECTORY bit it contains", xlat_open_flags, 02 | 020200000,
	  "O_RDWR|O_TMPFILE" },
	{ "O_DIRECTORY alone", xlat_open_flags, 0200000, "O_RDONLY|O_DIRECTORY" },
	{ "the kernel's O_LARGEFILE bit", xlat_open_flags, 0100002, "O_RDWR|O_LARGEFILE" },
	{ "append, close-on-exec", xlat_open_flags, 01 | 02000 | 02000000,
	  "O_WRONLY|O_APPEND|O_CLOEXEC" },
	{ "O_PATH", xlat_open_flags, 010000000 | 0400000, "O_RDONLY|O_NOFOLLOW|O_PATH" },
	{ "unknown open bit", xlat_open_flags, 0x40000000, "O_RDONLY|0x40000000" },
	{ "known and unknown open bits", xlat_open_flags, 02 | 040000 | 0x40000000,
	  "O_RDWR|O_DIRECT|0x40000000" },
	{ "dup3 O_CLOEXEC", xlat_dup3_flags, 02000000, "O_CLOEXEC" },
	{ "dup3 zero", xlat_dup3_flags, 0, "0" },
	{ "dup3 other open bit is unknown", xlat_dup3_flags, 0100, "0x40" },

	/* *at flags */
	{ "at flags zero", xlat_at_flags, 0, "0" },
	{ "nofollow and empty path", xlat_at_flags, 0x100 | 0x1000,
	  "AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH" },
	{ "faccessat2's 0x200", xlat_at_flags, 0x200, "AT_EACCESS" },
	{ "statx sync flags", xlat_at_flags, 0x4000 | 0x800, "AT_NO_AUTOMOUNT|AT_STATX_DONT_SYNC" },
	{ "unknown at bit alone", xlat_at_flags, 0x1, "0x1" },
	{ "unlinkat AT_REMOVEDIR", xlat_unlink_flags, 0x200, "AT_REMOVEDIR" },
	{ "unlinkat zero", xlat_unlink_flags, 0, "0" },

	/* values */
	{ "whence SEEK_SET is 0", xlat_whence, 0, "SEEK_SET" },
	{ "whence SEEK_END", xlat_whence, 2, "SEEK_END" },
	{ "whence SEEK_HOLE", xlat_whence, 4, "SEEK_HOLE" },
	{ "unknown whence in decimal", xlat_whence, 9, "9" },
	{ "fcntl F_DUPFD is 0", xlat_fcntl_cmd, 0, "F_DUPFD" },
	{ "fcntl F_SETFL", xlat_fcntl_cmd, 4, "F_SETFL" },
	{ "fcntl F_OFD_SETLKW", xlat_fcntl_cmd, 38, "F_OFD_SETLKW" },
	{ "fcntl F_DUPFD_CLOEXEC", xlat_fcntl_cmd, 1030, "F_DUPFD_CLOEXEC" },
	{ "fcntl F_GETOWNER_UIDS", xlat_fcntl_cmd, 17, "F_GETOWNER_UIDS" },
	{ "fcntl F_DUPFD_QUERY", xlat_fcntl_cmd, 1027, "F_DUPFD_QUERY" },
	{ "fcntl F_CREATED_QUERY", xlat_fcntl_cmd, 1028, "F_CREATED_QUERY" },
	{ "fcntl F_SET_FILE_RW_HINT", xlat_fcntl_cmd, 1038, "F_SET_FILE_RW_HINT" },
	{ "unknown fcntl command in hex", xlat_fcntl_cmd, 0x4242, "0x4242" },
	{ "fadvise DONTNEED (x86_64: 4)", xlat_fadvice, 4, "POSIX_FADV_DONTNEED" },
	{ "fadvise NOREUSE", xlat_fadvice, 5, "POSIX_FADV_NOREUSE" },
	{ "fadvise NORMAL is 0", xlat_fadvice, 0, "POSIX_FADV_NORMAL" },
	{ "lease F_WRLCK", xlat_lease, 1, "F_WRLCK" },
	{ "lease F_UNLCK", xlat_lease, 2, "F_UNLCK" },

	/* flag words */
	{ "rename noreplace", xlat_rename_flags, 1, "RENAME_NOREPLACE" },
	{ "rename exchange and whiteout", xlat_rename_flags, 6, "RENAME_EXCHANGE|RENAME_WHITEOUT" },
	{ "rename zero", xlat_rename_flags, 0, "0" },
	{ "access F_OK is the zero value", xlat_access_mode, 0, "F_OK" },
	{ "access bits", xlat_access_mode, 6, "R_OK|W_OK" },
	{ "access all", xlat_access_mode, 7, "R_OK|W_OK|X_OK" },
	{ "access unknown bit", xlat_access_mode, 8, "0x8" },
	{ "fallocate keep size and punch", xlat_falloc_flags, 3,
	  "FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE" },
	{ "fallocate write zeroes", xlat_falloc_flags, 0x80, "FALLOC_FL_WRITE_ZEROES" },
	{ "fallocate zero mode", xlat_falloc_flags, 0, "0" },
	{ "flock exclusive non-blocking", xlat_flock_op, 2 | 4, "LOCK_EX|LOCK_NB" },
	{ "flock unlock", xlat_flock_op, 8, "LOCK_UN" },
	{ "mmap prot none", xlat_mmap_prot, 0, "PROT_NONE" },
	{ "mmap prot read write", xlat_mmap_prot, 3, "PROT_READ|PROT_WRITE" },
	{ "mmap prot sem", xlat_mmap_prot, 8, "PROT_SEM" },
	{ "mmap prot unknown bit", xlat_mmap_prot, 4 | 0x10, "PROT_EXEC|0x10" },
	{ "msync sync and invalidate", xlat_msync_flags, 4 | 2, "MS_INVALIDATE|MS_SYNC" },
	{ "msync unknown bit after known", xlat_msync_flags, 1 | 0x100, "MS_ASYNC|0x100" },
	{ "sync_file_range all", xlat_sfr_flags, 7,
	  "SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER" },
	{ "rwf nowait dontcache", xlat_rwf_flags, 0x8 | 0x80, "RWF_NOWAIT|RWF_DONTCACHE" },
	{ "rwf atomic, noappend", xlat_rwf_flags, 0x40 | 0x20, "RWF_NOAPPEND|RWF_ATOMIC" },
	{ "rwf zero", xlat_rwf_flags, 0, "0" },
	{ "xattr create", xlat_xattr_flags, 1, "XATTR_CREATE" },
	{ "xattr replace", xlat_xattr_flags, 2, "XATTR_REPLACE" },
	{ "statx STATX_ALL before what it contains", xlat_statx_mask, 0xfff, "STATX_ALL" },
	{ "statx basic stats", xlat_statx_mask, 0x7ff, "STATX_BASIC_STATS" },
	{ "statx basic stats and dio alignment", xlat_statx_mask, 0x7ff | 0x2000,
	  "STATX_BASIC_STATS|STATX_DIOALIGN" },
	{ "statx single bits", xlat_statx_mask, 0x1 | 0x200, "STATX_TYPE|STATX_SIZE" },
	{ "statx newer bits", xlat_statx_mask, 0x10000 | 0x20000,
	  "STATX_WRITE_ATOMIC|STATX_DIO_READ_ALIGN" },
	{ "statx reserved bit", xlat_statx_mask, 0x80000000, "0x80000000" },
	{ "close_range cloexec", xlat_close_range_flags, 4, "CLOSE_RANGE_CLOEXEC" },
	{ "splice move more", xlat_splice_flags, 1 | 4, "SPLICE_F_MOVE|SPLICE_F_MORE" },
	{ "uring enter getevents ext arg", xlat_uring_enter_flags, 1 | 8,
	  "IORING_ENTER_GETEVENTS|IORING_ENTER_EXT_ARG" },
	{ "uring enter no iowait", xlat_uring_enter_flags, 1 << 7, "IORING_ENTER_NO_IOWAIT" },
	{ "fd flags cloexec", xlat_fd_flags, 1, "FD_CLOEXEC" },
	{ "fd flags zero", xlat_fd_flags, 0, "0" },
	{ "seals", xlat_seals, 1 | 8, "F_SEAL_SEAL|F_SEAL_WRITE" },

	/* mmap flags: the type is a value, then bits, then the huge page size */
	{ "mmap shared", xlat_mmap_flags, 1, "MAP_SHARED" },
	{ "mmap private anonymous", xlat_mmap_flags, 2 | 0x20, "MAP_PRIVATE|MAP_ANONYMOUS" },
	{ "shared-validate is a type, not shared|private", xlat_mmap_flags, 3 | 0x80000,
	  "MAP_SHARED_VALIDATE|MAP_SYNC" },
	{ "mmap droppable", xlat_mmap_flags, 8, "MAP_DROPPABLE" },
	{ "mmap no type", xlat_mmap_flags, 0x20, "0|MAP_ANONYMOUS" },
	{ "mmap unknown type", xlat_mmap_flags, 5, "0x5" },
	{ "mmap huge page size", xlat_mmap_flags, 2 | 0x20 | 0x40000 | (21ULL << 26),
	  "MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB|21<<MAP_HUGE_SHIFT" },
	{ "mmap unknown flag bit", xlat_mmap_flags, 1 | 0x200000, "MAP_SHARED|0x200000" },

	/* modes */
	{ "mode octal", xlat_mode, 0644, "0644" },
	{ "mode zero", xlat_mode, 0, "000" },
	{ "mode small", xlat_mode, 07, "007" },
	{ "mode setuid", xlat_mode, 04755, "04755" },
	{ "mode with a file type", xlat_mode, 0020000 | 0600, "S_IFCHR|0600" },
	{ "mode type without permissions", xlat_mode, 0100000, "S_IFREG|000" },
	{ "mode fifo", xlat_mode, 0010000 | 0644, "S_IFIFO|0644" },
	{ "mode with no such type", xlat_mode, 0030000 | 0644, "030644" },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

static void decodes_every_case(void **state)
{
	int failed = 0;

	for (size_t i = 0; i < NCASES; i++) {
		char buf[256];
		int n;

		memset(buf, 'Z', sizeof(buf));
		n = cases[i].fn(cases[i].v, buf, sizeof(buf));
		if (strcmp(buf, cases[i].want) || n != (int)strlen(cases[i].want)) {
			print_error("%s: got '%s' (%d), want '%s'\n", cases[i].name, buf, n,
				    cases[i].want);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/*
 * Every case at every buffer size: the return is the full length, the text is
 * the start of the full one and ends with a NUL, and nothing past len is touched.
 */
static void every_buffer_size_is_cut_and_counted(void **state)
{
	int failed = 0;

	for (size_t i = 0; i < NCASES; i++) {
		size_t full = strlen(cases[i].want);

		for (size_t len = 0; len <= full + 1; len++) {
			char buf[256];
			int n;

			memset(buf, 'Z', sizeof(buf));
			n = cases[i].fn(cases[i].v, len ? buf : NULL, len);
			if (n != (int)full) {
				print_error("%s, len %zu: returned %d, want %zu\n", cases[i].name,
					    len, n, full);
				failed++;
				continue;
			}
			size_t kept = len ? (len - 1 < full ? len - 1 : full) : 0;

			if (buf[len] != 'Z' || (len && (strnlen(buf, len) != kept ||
							strncmp(buf, cases[i].want, kept)))) {
				print_error("%s, len %zu: buffer '%.*s'\n", cases[i].name, len,
					    (int)len, buf);
				failed++;
			}
		}
	}
	assert_int_equal(failed, 0);
}

static void too_small_buffer_example(void **state)
{
	char buf[8];

	assert_int_equal(xlat_open_flags(01 | 0100 | 01000, buf, sizeof(buf)),
			 (int)strlen("O_WRONLY|O_CREAT|O_TRUNC"));
	assert_string_equal(buf, "O_WRONL");
	/* cut inside the part written by the nested flag decoder */
	assert_int_equal(xlat_open_flags(01 | 0100, buf, sizeof(buf) - 5), 16);
	assert_string_equal(buf, "O_");
}

static const struct xlat generic[] = {
	{ 3, "AB" },	/* two bits, before the single ones */
	{ 1, "A" },
	{ 2, "B" },
	{ 8, "D" },
};

static void generic_table_rules(void **state)
{
	char buf[64];

	assert_int_equal(xlat_flags(generic, 4, 3, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "AB");
	xlat_flags(generic, 4, 1, buf, sizeof(buf));
	assert_string_equal(buf, "A");
	xlat_flags(generic, 4, 0xb, buf, sizeof(buf));
	assert_string_equal(buf, "AB|D");
	xlat_flags(generic, 4, 0x13, buf, sizeof(buf));
	assert_string_equal(buf, "AB|0x10");
	xlat_flags(generic, 4, 0x30, buf, sizeof(buf));
	assert_string_equal(buf, "0x30");
	/* no entry for 0 in the table */
	xlat_flags(generic, 4, 0, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	xlat_flags(generic, 4, 1ULL << 63, buf, sizeof(buf));
	assert_string_equal(buf, "0x8000000000000000");
	xlat_value(generic, 4, 8, 0, buf, sizeof(buf));
	assert_string_equal(buf, "D");
	xlat_value(generic, 4, 16, 1, buf, sizeof(buf));
	assert_string_equal(buf, "0x10");
	xlat_value(generic, 4, (uint64_t)-1, 0, buf, sizeof(buf));
	assert_string_equal(buf, "-1");
	xlat_value(generic, 4, 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "0");
}

static void errno_names_and_texts(void **state)
{
	assert_string_equal(xlat_errno(ENOENT), "ENOENT");
	assert_string_equal(xlat_errno_text(ENOENT), "No such file or directory");
	assert_string_equal(xlat_errno(EAGAIN), "EAGAIN");
	assert_string_equal(xlat_errno(EDEADLK), "EDEADLK");
	assert_string_equal(xlat_errno(EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(xlat_errno(133), "EHWPOISON");
	assert_string_equal(xlat_errno(512), "ERESTARTSYS");
	assert_string_equal(xlat_errno_text(512),
			    "Interrupted by a signal; restarted if SA_RESTART is set");
	assert_string_equal(xlat_errno(516), "ERESTART_RESTARTBLOCK");
	assert_null(xlat_errno(0));
	assert_null(xlat_errno(-2));
	assert_null(xlat_errno(134));
	assert_null(xlat_errno(515));
	assert_null(xlat_errno(4000));
	assert_null(xlat_errno_text(4000));
	assert_null(xlat_errno_text(0));
	/* every errno from 1 to 133 has a name, but the two numbers only aliases would take */
	for (int e = 1; e <= 133; e++) {
		if (e == 41 || e == 58) {
			assert_null(xlat_errno(e));
			continue;
		}
		if (!xlat_errno(e) || !xlat_errno_text(e))
			fail_msg("errno %d has no name or text", e);
	}
}

static void uring_opcode_names(void **state)
{
	assert_string_equal(xlat_uring_op(0), "NOP");
	assert_string_equal(xlat_uring_op(1), "READV");
	assert_string_equal(xlat_uring_op(22), "READ");
	assert_string_equal(xlat_uring_op(23), "WRITE");
	assert_string_equal(xlat_uring_op(48), "SENDMSG_ZC");
	assert_string_equal(xlat_uring_op(49), "READ_MULTISHOT");
	assert_string_equal(xlat_uring_op(55), "FTRUNCATE");
	assert_string_equal(xlat_uring_op(62), "PIPE");
	assert_null(xlat_uring_op(63));
	assert_null(xlat_uring_op(250));
}

/* ---- the tables themselves ------------------------------------------------ */

/*
 * In a table of bits, an entry that contains an earlier one could never be
 * printed (the earlier one takes its bits first): multi-bit entries go first.
 * No two entries share a value or a name, and only a 0 entry may be 0.
 */
static void tables_keep_their_order_rules(void **state)
{
	size_t ntables;
	const struct xlat_table *tables = xlat_tables(&ntables);
	int failed = 0;

	assert_int_equal(ntables, 28);
	for (size_t t = 0; t < ntables; t++) {
		const struct xlat *tab = tables[t].tab;

		for (size_t j = 0; j < tables[t].n; j++) {
			if (!tab[j].name || !*tab[j].name) {
				print_error("%s[%zu]: no name\n", tables[t].name, j);
				failed++;
			}
			for (size_t i = 0; i < j; i++) {
				if (tab[i].val == tab[j].val || !strcmp(tab[i].name, tab[j].name)) {
					print_error("%s: %s and %s share a value or a name\n",
						    tables[t].name, tab[i].name, tab[j].name);
					failed++;
				}
				if (tables[t].flags && tab[i].val &&
				    (tab[j].val & tab[i].val) == tab[i].val) {
					print_error("%s: %s contains the earlier %s\n",
						    tables[t].name, tab[j].name, tab[i].name);
					failed++;
				}
			}
		}
	}
	assert_int_equal(failed, 0);
}

/* the fallbacks in xlat/ agree with the headers that have the constant */
static void fallback_values_match_kernel_abi(void **state)
{
	static const struct {
		const char *table;
		const char *name;
		uint64_t val;
	} abi[] = {
		{ "open_flags", "O_LARGEFILE", 0100000 },
		{ "fcntl_cmds", "F_GETOWNER_UIDS", 17 },
		{ "seals", "F_SEAL_EXEC", 0x20 },
		{ "rwf_flags", "RWF_NOAPPEND", 0x20 },
		{ "mmap_types", "MAP_DROPPABLE", 0x8 },
		{ "statx_mask", "STATX_SUBVOL", 0x8000 },
		{ "uring_ops", "IORING_OP_SENDMSG_ZC", 48 },
		{ "errnos", "EHWPOISON", 133 },
	};
	size_t ntables;
	const struct xlat_table *tables = xlat_tables(&ntables);

	for (size_t i = 0; i < sizeof(abi) / sizeof(abi[0]); i++) {
		const struct xlat_table *t = NULL;
		size_t k;

		for (size_t j = 0; j < ntables; j++)
			if (!strcmp(tables[j].name, abi[i].table))
				t = &tables[j];
		if (!t)
			fail_msg("no table %s", abi[i].table);
		for (k = 0; k < t->n && strcmp(t->tab[k].name, abi[i].name); k++)
			;
		if (k == t->n)
			fail_msg("%s is missing", abi[i].name);
		if (t->tab[k].val != abi[i].val)
			fail_msg("%s is %#llx, want %#llx", abi[i].name,
				 (unsigned long long)t->tab[k].val,
				 (unsigned long long)abi[i].val);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decodes_every_case),
		cmocka_unit_test(every_buffer_size_is_cut_and_counted),
		cmocka_unit_test(too_small_buffer_example),
		cmocka_unit_test(generic_table_rules),
		cmocka_unit_test(errno_names_and_texts),
		cmocka_unit_test(uring_opcode_names),
		cmocka_unit_test(tables_keep_their_order_rules),
		cmocka_unit_test(fallback_values_match_kernel_abi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
