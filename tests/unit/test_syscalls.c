// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The syscall table: numbers against <asm/unistd_64.h>, classes, argument
 * kinds, the metadata the BPF side relies on, tracepoints, and selections.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __x86_64__
#include <asm/unistd_64.h>
#endif
#include <cmocka.h>
#include "bpf/dio.h"
#include "engine/syscalls.h"

/* Every call dio must know, with its class: the list it was specified with. */
struct want {
	const char *name;
	unsigned int cls;
	int nr;		/* from the kernel's header; -1 when not built on x86_64 */
};

#ifdef __x86_64__
#define W(name, cls) { #name, cls, __NR_##name }
#else
#define W(name, cls) { #name, cls, -1 }
#endif

static const struct want wanted[] = {
	W(read, SC_DATA), W(pread64, SC_DATA), W(readv, SC_DATA), W(preadv, SC_DATA),
	W(preadv2, SC_DATA), W(write, SC_DATA), W(pwrite64, SC_DATA), W(writev, SC_DATA),
	W(pwritev, SC_DATA), W(pwritev2, SC_DATA), W(readahead, SC_DATA), W(fallocate, SC_DATA),
	W(copy_file_range, SC_DATA), W(sendfile, SC_DATA), W(splice, SC_DATA),
	W(fsync, SC_SYNC), W(fdatasync, SC_SYNC), W(sync_file_range, SC_SYNC), W(syncfs, SC_SYNC),
	W(sync, SC_SYNC),
	W(creat, SC_META), W(open, SC_META), W(openat, SC_META), W(openat2, SC_META),
	W(close, SC_META), W(close_range, SC_META), W(dup, SC_META), W(dup2, SC_META),
	W(dup3, SC_META), W(fcntl, SC_META), W(lseek, SC_META), W(truncate, SC_META),
	W(ftruncate, SC_META), W(rename, SC_META), W(renameat, SC_META), W(renameat2, SC_META),
	W(unlink, SC_META), W(unlinkat, SC_META), W(link, SC_META), W(linkat, SC_META),
	W(symlink, SC_META), W(symlinkat, SC_META), W(readlink, SC_META), W(readlinkat, SC_META),
	W(stat, SC_META), W(lstat, SC_META), W(fstat, SC_META), W(newfstatat, SC_META),
	W(statx, SC_META), W(statfs, SC_META), W(fstatfs, SC_META), W(access, SC_META),
	W(faccessat, SC_META), W(faccessat2, SC_META), W(chmod, SC_META), W(fchmod, SC_META),
	W(fchmodat, SC_META), W(chown, SC_META), W(fchown, SC_META), W(lchown, SC_META),
	W(fchownat, SC_META), W(utimensat, SC_META), W(flock, SC_META), W(fadvise64, SC_META),
	W(mkdir, SC_DIR), W(mkdirat, SC_DIR), W(rmdir, SC_DIR), W(mknod, SC_DIR),
	W(mknodat, SC_DIR), W(getdents64, SC_DIR), W(chdir, SC_DIR), W(fchdir, SC_DIR),
	W(getxattr, SC_XATTR), W(lgetxattr, SC_XATTR), W(fgetxattr, SC_XATTR),
	W(setxattr, SC_XATTR), W(lsetxattr, SC_XATTR), W(fsetxattr, SC_XATTR),
	W(listxattr, SC_XATTR), W(llistxattr, SC_XATTR), W(flistxattr, SC_XATTR),
	W(removexattr, SC_XATTR), W(lremovexattr, SC_XATTR), W(fremovexattr, SC_XATTR),
	W(io_submit, SC_ASYNC), W(io_getevents, SC_ASYNC), W(io_uring_enter, SC_ASYNC),
	W(mmap, SC_ASYNC), W(msync, SC_ASYNC), W(munmap, SC_ASYNC),
};

#define NWANTED (sizeof(wanted) / sizeof(wanted[0]))

static const struct dio_syscall *entry(const char *name)
{
	const struct dio_syscall *sc = syscall_by_name(name);

	if (!sc)
		fail_msg("no entry for %s", name);
	return sc;
}

static void every_call_has_its_number_and_class(void **state)
{
	size_t n;
	const struct dio_syscall *t = syscall_table(&n);

	assert_int_equal(n, NWANTED);
	for (size_t i = 0; i < NWANTED; i++) {
		const struct dio_syscall *sc = entry(wanted[i].name);

		if (sc->cls != wanted[i].cls)
			fail_msg("%s: class %#x, want %#x", sc->name, sc->cls, wanted[i].cls);
#ifdef __x86_64__
		if (sc->nr != wanted[i].nr)
			fail_msg("%s: number %u, want __NR_%s %d", sc->name, sc->nr, sc->name,
				 wanted[i].nr);
#endif
		assert_ptr_equal(syscall_by_nr(sc->nr), sc);
		assert_true(sc >= t && sc < t + n);
	}
#ifndef __x86_64__
	skip();	/* the numbers are checked where <asm/unistd_64.h> is the ABI's */
#endif
}

static void names_numbers_and_tracepoints_are_unique(void **state)
{
	size_t n;
	const struct dio_syscall *t = syscall_table(&n);

	for (size_t i = 0; i < n; i++) {
		assert_true(t[i].nr < DIO_NR_MAX);
		if (t[i].tp)
			assert_string_not_equal(t[i].tp, t[i].name);
		for (size_t j = 0; j < i; j++) {
			if (t[i].nr == t[j].nr || !strcmp(t[i].name, t[j].name) ||
			    !strcmp(syscall_tp(&t[i]), syscall_tp(&t[j])))
				fail_msg("%s and %s clash", t[i].name, t[j].name);
		}
	}
}

static void tracepoint_names(void **state)
{
	static const char *const tp[][2] = {
		{ "stat", "newstat" }, { "lstat", "newlstat" }, { "fstat", "newfstat" },
		{ "sendfile", "sendfile64" }, { "read", "read" }, { "newfstatat", "newfstatat" },
	};

	for (size_t i = 0; i < sizeof(tp) / sizeof(tp[0]); i++) {
		assert_string_equal(syscall_tp(entry(tp[i][0])), tp[i][1]);
		/* users may type either name */
		assert_ptr_equal(syscall_by_name(tp[i][1]), entry(tp[i][0]));
	}
	assert_null(syscall_by_name("getpid"));
	assert_null(syscall_by_name(""));
	assert_null(syscall_by_name("rea"));
	assert_null(syscall_by_name("reads"));
	assert_null(syscall_by_name(NULL));
	assert_null(syscall_by_nr(39));		/* getpid */
	assert_null(syscall_by_nr(DIO_NR_MAX - 1));
	assert_null(syscall_by_nr(DIO_NR_MAX));
	assert_null(syscall_by_nr(100000));
}

/* kinds past nargs are A_NONE, none inside; at most two strings (all the BPF side keeps) */
static void argument_kinds_are_consistent(void **state)
{
	size_t n;
	const struct dio_syscall *t = syscall_table(&n);

	for (size_t i = 0; i < n; i++) {
		int nstr = 0;

		assert_true(t[i].nargs <= 6);
		for (int a = 0; a < 6; a++) {
			if ((a < t[i].nargs) != (t[i].args[a] != A_NONE))
				fail_msg("%s: argument %d kind %u with nargs %u", t[i].name, a,
					 t[i].args[a], t[i].nargs);
			nstr += t[i].args[a] == A_STR;
		}
		if (nstr > 2)
			fail_msg("%s: %d string arguments", t[i].name, nstr);
		assert_true(t[i].ret <= R_ADDR);
	}
}

/* Which argument the BPF side reads for the file, the offset and the data. */
struct meta {
	const char *name;
	uint8_t fd_how, fd_arg, off_how, off_arg, data;
};

static const struct meta metas[] = {
	{ "read", DIO_FD_ARG, 0, DIO_OFF_POS, 0, 1 },
	{ "write", DIO_FD_ARG, 0, DIO_OFF_POS, 0, 2 },
	{ "readv", DIO_FD_ARG, 0, DIO_OFF_POS, 0, 0 },
	{ "writev", DIO_FD_ARG, 0, DIO_OFF_POS, 0, 0 },
	{ "pread64", DIO_FD_ARG, 0, DIO_OFF_ARG, 3, 1 },
	{ "pwrite64", DIO_FD_ARG, 0, DIO_OFF_ARG, 3, 2 },
	{ "preadv", DIO_FD_ARG, 0, DIO_OFF_ARG, 3, 0 },
	{ "pwritev", DIO_FD_ARG, 0, DIO_OFF_ARG, 3, 0 },
	{ "preadv2", DIO_FD_ARG, 0, DIO_OFF_ARG, 3, 0 },
	{ "pwritev2", DIO_FD_ARG, 0, DIO_OFF_ARG, 3, 0 },
	{ "readahead", DIO_FD_ARG, 0, DIO_OFF_ARG, 1, 0 },
	{ "fallocate", DIO_FD_ARG, 0, DIO_OFF_ARG, 2, 0 },
	{ "sync_file_range", DIO_FD_ARG, 0, DIO_OFF_ARG, 1, 0 },
	{ "fadvise64", DIO_FD_ARG, 0, DIO_OFF_ARG, 1, 0 },
	{ "mmap", DIO_FD_ARG, 4, DIO_OFF_ARG, 5, 0 },
	{ "lseek", DIO_FD_ARG, 0, DIO_OFF_RET, 0, 0 },
	{ "copy_file_range", DIO_FD_ARG, 0, DIO_OFF_PTR, 1, 0 },
	{ "sendfile", DIO_FD_ARG, 1, DIO_OFF_PTR, 2, 0 },
	{ "splice", DIO_FD_ARG, 0, DIO_OFF_PTR, 1, 0 },
	{ "close", DIO_FD_ARG_ENTRY, 0, DIO_OFF_NONE, 0, 0 },
	{ "creat", DIO_FD_RET, 0, DIO_OFF_NONE, 0, 0 },
	{ "open", DIO_FD_RET, 0, DIO_OFF_NONE, 0, 0 },
	{ "openat", DIO_FD_RET, 0, DIO_OFF_NONE, 0, 0 },
	{ "openat2", DIO_FD_RET, 0, DIO_OFF_NONE, 0, 0 },
	/* the dup family's file is the old fd's; the new fd prints as the same file */
	{ "dup", DIO_FD_ARG, 0, DIO_OFF_NONE, 0, 0 },
	{ "dup2", DIO_FD_ARG, 0, DIO_OFF_NONE, 0, 0 },
	{ "dup3", DIO_FD_ARG, 0, DIO_OFF_NONE, 0, 0 },
	{ "fcntl", DIO_FD_ARG, 0, DIO_OFF_NONE, 0, 0 },
	{ "newfstatat", DIO_FD_EMPTY_PATH, 0, DIO_OFF_NONE, 0, 0 },
	{ "statx", DIO_FD_EMPTY_PATH, 0, DIO_OFF_NONE, 0, 0 },
	{ "fchownat", DIO_FD_EMPTY_PATH, 0, DIO_OFF_NONE, 0, 0 },
	{ "utimensat", DIO_FD_EMPTY_PATH, 0, DIO_OFF_NONE, 0, 0 },
	{ "fsync", DIO_FD_ARG, 0, DIO_OFF_NONE, 0, 0 },
	{ "fstat", DIO_FD_ARG, 0, DIO_OFF_NONE, 0, 0 },
	{ "fchmod", DIO_FD_ARG, 0, DIO_OFF_NONE, 0, 0 },
	{ "getdents64", DIO_FD_ARG, 0, DIO_OFF_NONE, 0, 0 },
	{ "fgetxattr", DIO_FD_ARG, 0, DIO_OFF_NONE, 0, 0 },
	{ "stat", DIO_FD_NONE, 0, DIO_OFF_NONE, 0, 0 },
	{ "rename", DIO_FD_NONE, 0, DIO_OFF_NONE, 0, 0 },
	{ "fchmodat", DIO_FD_NONE, 0, DIO_OFF_NONE, 0, 0 },
	{ "linkat", DIO_FD_NONE, 0, DIO_OFF_NONE, 0, 0 },
	{ "sync", DIO_FD_NONE, 0, DIO_OFF_NONE, 0, 0 },
	{ "msync", DIO_FD_NONE, 0, DIO_OFF_NONE, 0, 0 },
	{ "munmap", DIO_FD_NONE, 0, DIO_OFF_NONE, 0, 0 },
	{ "close_range", DIO_FD_NONE, 0, DIO_OFF_NONE, 0, 0 },
};

static void bpf_metadata_of_named_calls(void **state)
{
	for (size_t i = 0; i < sizeof(metas) / sizeof(metas[0]); i++) {
		const struct dio_syscall *sc = entry(metas[i].name);

		if (sc->fd_how != metas[i].fd_how || sc->fd_arg != metas[i].fd_arg ||
		    sc->off_how != metas[i].off_how || sc->off_arg != metas[i].off_arg ||
		    sc->data != metas[i].data)
			fail_msg("%s: fd %u/%u off %u/%u data %u, want fd %u/%u off %u/%u data %u",
				 sc->name, sc->fd_how, sc->fd_arg, sc->off_how, sc->off_arg,
				 sc->data, metas[i].fd_how, metas[i].fd_arg, metas[i].off_how,
				 metas[i].off_arg, metas[i].data);
	}
}

/* rules for every entry: what the metadata points at has the right kind */
static void bpf_metadata_points_at_the_right_arguments(void **state)
{
	size_t n;
	const struct dio_syscall *t = syscall_table(&n);

	for (size_t i = 0; i < n; i++) {
		const struct dio_syscall *sc = &t[i];
		int first_str = -1;

		for (int a = sc->nargs - 1; a >= 0; a--)
			if (sc->args[a] == A_STR)
				first_str = a;
		switch (sc->fd_how) {
		case DIO_FD_NONE:
		case DIO_FD_RET:
			assert_int_equal(sc->fd_arg, 0);
			if (sc->fd_how == DIO_FD_RET)
				assert_int_equal(sc->ret, R_FD);
			break;
		case DIO_FD_ARG:
		case DIO_FD_ARG_ENTRY:
			if (sc->fd_arg >= sc->nargs || sc->args[sc->fd_arg] != A_FD)
				fail_msg("%s: fd_arg %u is not an fd", sc->name, sc->fd_arg);
			if (sc->fd_how == DIO_FD_ARG_ENTRY && strcmp(sc->name, "close"))
				fail_msg("%s: only close needs its fd read at entry", sc->name);
			break;
		case DIO_FD_EMPTY_PATH:
			/* the BPF side tests the first string for "": the path after the dirfd */
			if (sc->args[sc->fd_arg] != A_DIRFD || first_str != sc->fd_arg + 1)
				fail_msg("%s: dirfd %u and path %d", sc->name, sc->fd_arg,
					 first_str);
			break;
		default:
			fail_msg("%s: fd_how %u", sc->name, sc->fd_how);
		}
		switch (sc->off_how) {
		case DIO_OFF_NONE:
		case DIO_OFF_POS:
		case DIO_OFF_RET:
			assert_int_equal(sc->off_arg, 0);
			break;
		case DIO_OFF_ARG:
			if (sc->off_arg >= sc->nargs || (sc->args[sc->off_arg] != A_INT &&
							 sc->args[sc->off_arg] != A_HEX))
				fail_msg("%s: off_arg %u is not an offset", sc->name, sc->off_arg);
			break;
		case DIO_OFF_PTR:
			if (sc->off_arg >= sc->nargs || sc->args[sc->off_arg] != A_OFFPTR)
				fail_msg("%s: off_arg %u is not an offset pointer", sc->name,
					 sc->off_arg);
			break;
		default:
			fail_msg("%s: off_how %u", sc->name, sc->off_how);
		}
		/* an offset belongs to a file */
		if (sc->off_how != DIO_OFF_NONE)
			assert_int_not_equal(sc->fd_how, DIO_FD_NONE);
		if (sc->data) {
			assert_true(sc->data == 1 || sc->data == 2);
			assert_int_equal(sc->args[1], A_PTR);
			assert_int_equal(sc->ret, R_SIZE);
		}
	}
}

/* The string arguments, in order: the BPF side keeps the first two. */
static void string_arguments(void **state)
{
	static const struct {
		const char *name;
		int idx[2];	/* -1: none */
	} strs[] = {
		{ "getxattr", { 0, 1 } }, { "setxattr", { 0, 1 } }, { "lremovexattr", { 0, 1 } },
		{ "fgetxattr", { 1, -1 } }, { "flistxattr", { -1, -1 } },
		{ "rename", { 0, 1 } }, { "renameat2", { 1, 3 } }, { "linkat", { 1, 3 } },
		{ "symlink", { 0, 1 } }, { "symlinkat", { 0, 2 } }, { "openat", { 1, -1 } },
		{ "openat2", { 1, -1 } }, { "creat", { 0, -1 } }, { "statx", { 1, -1 } },
		{ "mknodat", { 1, -1 } }, { "truncate", { 0, -1 } }, { "read", { -1, -1 } },
	};

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		const struct dio_syscall *sc = entry(strs[i].name);
		int got[2] = { -1, -1 }, k = 0;

		for (int a = 0; a < sc->nargs; a++)
			if (sc->args[a] == A_STR)
				got[k++] = a;
		if (got[0] != strs[i].idx[0] || got[1] != strs[i].idx[1])
			fail_msg("%s: strings at %d,%d, want %d,%d", sc->name, got[0], got[1],
				 strs[i].idx[0], strs[i].idx[1]);
	}
	/* the xattr value is a buffer, not a string */
	assert_int_equal(entry("setxattr")->args[2], A_PTR);
	assert_int_equal(entry("getxattr")->args[2], A_PTR);
}

/*
 * Every entry's tracepoints exist on this kernel and take at least the
 * arguments the entry prints. Needs tracefs (root): skipped without it.
 */
static void tracepoints_exist_and_have_the_arguments(void **state)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing/events/syscalls", "/sys/kernel/debug/tracing/events/syscalls",
	};
	const char *root = NULL;
	size_t n;
	const struct dio_syscall *t = syscall_table(&n);
	char path[256], line[512];

	for (size_t i = 0; i < 2 && !root; i++) {
		snprintf(path, sizeof(path), "%s/sys_enter_read/format", roots[i]);
		if (!access(path, R_OK))
			root = roots[i];
	}
	if (!root) {
		print_message("no readable syscall tracepoints (no tracefs, or not root)\n");
		skip();
	}
	for (size_t i = 0; i < n; i++) {
		FILE *f;
		int fields = 0;

		snprintf(path, sizeof(path), "%s/sys_exit_%s/format", root, syscall_tp(&t[i]));
		if (access(path, R_OK))
			fail_msg("%s: no tracepoint %s", t[i].name, path);
		snprintf(path, sizeof(path), "%s/sys_enter_%s/format", root, syscall_tp(&t[i]));
		f = fopen(path, "r");
		if (!f)
			fail_msg("%s: no tracepoint %s", t[i].name, path);
		/* the arguments are the fields after __syscall_nr */
		while (fgets(line, sizeof(line), f))
			if (strstr(line, "field:") && !strstr(line, "common_") &&
			    !strstr(line, "__syscall_nr"))
				fields++;
		fclose(f);
		if (fields < t[i].nargs)
			fail_msg("%s: the tracepoint has %d arguments, the entry prints %u",
				 t[i].name, fields, t[i].nargs);
	}
}

/* ---- selections ------------------------------------------------------------ */

static uint8_t sel[DIO_NR_MAX];
static char err[256];

static int selected(const char *name)
{
	return sel[entry(name)->nr];
}

static size_t count(void)
{
	size_t c = 0;

	for (size_t i = 0; i < DIO_NR_MAX; i++) {
		assert_true(sel[i] <= 1);
		c += sel[i];
	}
	return c;
}

static size_t count_class(unsigned int cls)
{
	size_t n, c = 0;
	const struct dio_syscall *t = syscall_table(&n);

	for (size_t i = 0; i < n; i++)
		c += !!(t[i].cls & cls);
	return c;
}

static void select_ok(const char *spec)
{
	memset(sel, 0xff, sizeof(sel));	/* the selection is cleared first */
	err[0] = 0;
	if (syscalls_select(spec, sel, err, sizeof(err)))
		fail_msg("'%s': %s", spec, err);
	assert_string_equal(err, "");
}

static void select_by_name(void **state)
{
	select_ok("read,write");
	assert_int_equal(count(), 2);
	assert_true(selected("read") && selected("write"));
	select_ok("fstat");
	assert_int_equal(count(), 1);
	assert_int_equal(sel[5], 1);
	/* the tracepoint names work too */
	select_ok("newfstat,sendfile64");
	assert_int_equal(count(), 2);
	assert_true(selected("fstat") && selected("sendfile"));
	select_ok("read,read");
	assert_int_equal(count(), 1);
}

static void select_by_class(void **state)
{
	size_t n;
	const struct dio_syscall *t = syscall_table(&n);
	static const struct {
		const char *spec;
		unsigned int cls;
	} classes[] = {
		{ "%data", SC_DATA }, { "%sync", SC_SYNC }, { "%meta", SC_META },
		{ "%dir", SC_DIR }, { "%xattr", SC_XATTR }, { "%async", SC_ASYNC },
	};

	for (size_t c = 0; c < sizeof(classes) / sizeof(classes[0]); c++) {
		select_ok(classes[c].spec);
		for (size_t i = 0; i < n; i++)
			if (sel[t[i].nr] != !!(t[i].cls & classes[c].cls))
				fail_msg("%s: %s selected %u", classes[c].spec, t[i].name,
					 sel[t[i].nr]);
		assert_int_equal(count(), count_class(classes[c].cls));
	}
	select_ok("%all");
	assert_int_equal(count(), n);
	assert_int_equal(sel[39], 0);	/* getpid: not in the table, never selected */
	select_ok("%sync,read");
	assert_int_equal(count(), count_class(SC_SYNC) + 1);
	assert_int_equal(count_class(SC_SYNC), 5);
	assert_int_equal(count_class(SC_DATA), 15);
	assert_int_equal(count_class(SC_ASYNC), 6);
}

static void file_and_desc_classes(void **state)
{
	static const char *const file_yes[] = {
		"openat", "open", "creat", "stat", "rename", "getxattr", "lremovexattr", "mkdir",
		"symlinkat", "truncate", "chdir", "utimensat", "statfs",
	};
	static const char *const file_no[] = {
		"read", "fgetxattr", "fremovexattr", "fstat", "close", "sync", "mmap", "dup",
	};
	static const char *const desc_yes[] = {
		"read", "openat", "dup", "close", "close_range", "mmap", "fstat", "newfstatat",
		"io_uring_enter", "fgetxattr", "creat",
	};
	static const char *const desc_no[] = {
		"stat", "rename", "sync", "msync", "munmap", "io_submit", "mkdir", "getxattr",
	};

	select_ok("%file");
	for (size_t i = 0; i < sizeof(file_yes) / sizeof(file_yes[0]); i++)
		if (!selected(file_yes[i]))
			fail_msg("%%file misses %s", file_yes[i]);
	for (size_t i = 0; i < sizeof(file_no) / sizeof(file_no[0]); i++)
		if (selected(file_no[i]))
			fail_msg("%%file has %s", file_no[i]);
	select_ok("%desc");
	for (size_t i = 0; i < sizeof(desc_yes) / sizeof(desc_yes[0]); i++)
		if (!selected(desc_yes[i]))
			fail_msg("%%desc misses %s", desc_yes[i]);
	for (size_t i = 0; i < sizeof(desc_no) / sizeof(desc_no[0]); i++)
		if (selected(desc_no[i]))
			fail_msg("%%desc has %s", desc_no[i]);
}

static void select_with_negation(void **state)
{
	size_t n;

	syscall_table(&n);
	/* a list that starts with a removal starts from everything */
	select_ok("!read");
	assert_int_equal(count(), n - 1);
	assert_false(selected("read"));
	assert_true(selected("write"));
	select_ok("%data,!pread64,!pwrite64");
	assert_int_equal(count(), count_class(SC_DATA) - 2);
	assert_false(selected("pread64"));
	select_ok("!%data,!%async");
	assert_int_equal(count(), n - count_class(SC_DATA) - count_class(SC_ASYNC));
	assert_true(selected("fsync") && selected("openat") && !selected("mmap"));
	/* order matters: a later word wins */
	select_ok("!%sync,fsync");
	assert_int_equal(count(), n - count_class(SC_SYNC) + 1);
	select_ok("read,!read");
	assert_int_equal(count(), 0);
	select_ok("!%all");
	assert_int_equal(count(), 0);
}

static void select_errors_name_the_word(void **state)
{
	static const struct {
		const char *spec;
		const char *msg;
	} bad[] = {
		{ "bogus", "--syscalls: unknown system call 'bogus'; see 'dio list syscalls'" },
		{ "read,bogus,write",
		  "--syscalls: unknown system call 'bogus'; see 'dio list syscalls'" },
		{ "!bogus", "--syscalls: unknown system call 'bogus'; see 'dio list syscalls'" },
		{ "getpid", "--syscalls: unknown system call 'getpid'; see 'dio list syscalls'" },
		{ "read, write",
		  "--syscalls: unknown system call ' write'; see 'dio list syscalls'" },
		{ "%foo", "--syscalls: unknown class '%foo'; classes are %data %sync %meta %dir "
			  "%xattr %async %file %desc %all" },
		{ "read,!%dat", "--syscalls: unknown class '%dat'; classes are %data %sync %meta "
				"%dir %xattr %async %file %desc %all" },
		{ "%", "--syscalls: unknown class '%'; classes are %data %sync %meta %dir %xattr "
		       "%async %file %desc %all" },
		{ "", "--syscalls: empty list; name system calls or classes like %data" },
		{ "read,", "--syscalls: empty name in 'read,'" },
		{ ",read", "--syscalls: empty name in ',read'" },
		{ "read,,write", "--syscalls: empty name in 'read,,write'" },
		{ "!", "--syscalls: empty name in '!'" },
		{ "read,!", "--syscalls: empty name in 'read,!'" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(err, 'Z', sizeof(err));
		assert_int_equal(syscalls_select(bad[i].spec, sel, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, bad[i].msg);
	}
	memset(err, 'Z', sizeof(err));
	assert_int_equal(syscalls_select(NULL, sel, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--syscalls: empty list; name system calls or classes like %data");
	/* a short message buffer is cut and terminated, nothing past it written */
	memset(err, 'Z', sizeof(err));
	assert_int_equal(syscalls_select("bogus", sel, err, 12), -EINVAL);
	assert_string_equal(err, "--syscalls:");
	assert_int_equal(err[12], 'Z');
	assert_int_equal(syscalls_select("bogus", sel, NULL, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_call_has_its_number_and_class),
		cmocka_unit_test(names_numbers_and_tracepoints_are_unique),
		cmocka_unit_test(tracepoint_names),
		cmocka_unit_test(argument_kinds_are_consistent),
		cmocka_unit_test(bpf_metadata_of_named_calls),
		cmocka_unit_test(bpf_metadata_points_at_the_right_arguments),
		cmocka_unit_test(string_arguments),
		cmocka_unit_test(tracepoints_exist_and_have_the_arguments),
		cmocka_unit_test(select_by_name),
		cmocka_unit_test(select_by_class),
		cmocka_unit_test(file_and_desc_classes),
		cmocka_unit_test(select_with_negation),
		cmocka_unit_test(select_errors_name_the_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
