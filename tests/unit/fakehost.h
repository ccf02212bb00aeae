/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one fake host of the unit tests. A test links one module (an analyzer
 * whose descriptor is dio_analyzer, or a sink whose descriptor is dio_sink),
 * fakehost.c and the engine, and hands the module fakehost. What dio itself
 * decides comes from the engine's own code: options are parsed and checked by
 * engine/plugin.c as --analyzer NAME:key=value is; system calls are named and
 * decoded by engine/host.c's table and engine/decode.c; output files are made
 * by engine/util.c. What a test sets or reads is kept here: the paths of file
 * tags, the findings (strings copied, as the host copies them), the messages,
 * the counts, the rules and facts of the run. Records are formatted in a short
 * form, "+S.NNNNNN [pid/tid comm] name(fd) = ret", which excerpts are checked
 * against. A test that needs a host function of its own sets it in fakehost
 * (a copy of the table, or the table itself before its tests run).
 * Include it after <cmocka.h>.
 */
#ifndef DIO_TEST_FAKEHOST_H
#define DIO_TEST_FAKEHOST_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dio/analyzer.h>
#include <dio/sink.h>

/* the module under test: one of them is linked in */
extern const struct dio_analyzer dio_analyzer;
extern const struct dio_sink dio_sink;

extern struct dio_host fakehost;
/* the ctx every call from the module must carry */
extern struct dio_ctx fake_ctx;

/* 2024-01-02 03:04:05 UTC is monotonic second 1 (host->realtime_ns) */
#define REALTIME_OFF	(1704164644ULL * 1000000000ULL)

/* x86_64 numbers of the calls the tests make */
enum {
	NR_read = 0, NR_write = 1, NR_open = 2, NR_close = 3, NR_stat = 4, NR_fstat = 5,
	NR_lstat = 6, NR_lseek = 8, NR_pread64 = 17, NR_pwrite64 = 18, NR_readv = 19,
	NR_writev = 20, NR_access = 21, NR_fsync = 74, NR_fdatasync = 75,
	NR_truncate = 76, NR_ftruncate = 77, NR_rename = 82, NR_creat = 85, NR_unlink = 87,
	NR_openat = 257, NR_newfstatat = 262, NR_unlinkat = 263, NR_renameat = 264,
	NR_faccessat = 269, NR_sync_file_range = 277, NR_preadv = 295, NR_pwritev = 296,
	NR_renameat2 = 316, NR_preadv2 = 327, NR_pwritev2 = 328, NR_statx = 332,
	NR_openat2 = 437, NR_faccessat2 = 439, NR_sync = 162, NR_syncfs = 306,
};

/* ---- what the host knows: paths, counts, facts, rules ---------------------- */

/* host->tag_path gives path for tag (the latest given wins, as after a rename) */
void fake_path(const struct dio_file_tag *tag, const char *path);
extern int nfake_paths;		/* 0 forgets them */

/* host->stats and host->stats_sized */
extern struct dio_stats fake_stats_val;
/* host->info: "key", "value", ... NULL pairs a test sets; NULL: nothing known */
extern const char *const *fake_infos;
/* host->fs_type: "MAJ:MIN=TYPE ..." as a recording keeps them; NULL: none known */
extern const char *fake_fstypes;

/* host->rule: a test sets the table, which ends with a NULL code */
struct fake_rule {
	struct dio_rule rule;
	const char *analyzer;
};
extern const struct fake_rule *fake_rules;

/* ---- what the module said: messages and findings --------------------------- */

extern char logged[1024];	/* the last message */
extern int nlogged;

#define FAKE_FINDINGS 64
struct fake_finding {
	uint32_t severity, pid, tid, has_tag;
	struct dio_file_tag tag;
	uint64_t ts_first, ts_last, count, cost_ns;
	uint32_t processes;
	char code[64], title[256], message[4096], comm[32], path[256], excerpt[2048];
};
extern struct fake_finding found[FAKE_FINDINGS];
extern int nfound;		/* findings emitted (may exceed FAKE_FINDINGS; only those are kept) */
extern int nbelow;		/* patterns sent under the analyzer's floors (dio_finding.below) */
extern int fake_emit_result;	/* what emit_finding returns once it kept the finding */

/* the first finding with this code, or NULL; how many have it */
const struct fake_finding *finding(const char *code);
int nfindings(const char *code);

/*
 * A sink that takes no records: syscall_name, tag_path and format_event fail
 * the test, saying who (e.g. "a report sink") called them.
 */
void fakehost_refuse_records(const char *who);

/* ---- options, parsed by the engine ------------------------------------------ */

#define MAX_OPTS 32
extern struct dio_optval opts[MAX_OPTS];

/*
 * The module's declared defaults, then overrides as "key", "value" pairs
 * ending with NULL. Strings stay valid until the next reset.
 */
void opts_reset(const char *key, ...);
/*
 * Set one option as the command line would (marked set), or unset it (val
 * NULL: as a string option nobody gave). An unknown key or a bad value fails
 * the test with dio's message.
 */
void fakehost_set(const char *key, const char *val);
/* the same, under its short name where the engine's opt_set (engine/options.h) is not seen */
#ifndef DIO_ENGINE_OPTIONS_H
static inline void opt_set(const char *key, const char *val)
{
	fakehost_set(key, val);
}
#endif

/* ---- an analyzer's life ----------------------------------------------------- */

/* Forget findings, paths, messages and counts; init the analyzer with opts. */
void *start_analyzer(void);
/* Deliver a record, as the host would: only the types the analyzer subscribed to. */
void feed(void *state, const void *ev);
void stop_analyzer(void *state);
/* bytes of heap in use: state that grows shows here (under ASan, its allocator's count) */
size_t heap_in_use(void);
/* Heap bytes the analyzer's init takes with opts (the state is destroyed again). */
size_t init_heap_bytes(void);

/* ---- records ---------------------------------------------------------------- */

/* the file ino of generation gen on device 8:1 */
struct dio_file_tag tag_of(uint64_t ino, uint32_t gen);
/*
 * A syscall record at ts (ns) by pid/tid named comm: nr(args...) = ret on the
 * file tag (NULL: no file) through fd, at offset (< 0: none), lasting dur ns.
 */
struct dio_ev_syscall sys_ev(uint64_t ts, uint32_t pid, uint32_t tid, const char *comm,
			     uint16_t nr, int32_t fd, const struct dio_file_tag *tag,
			     int64_t offset, int64_t ret, uint64_t dur);

/* A syscall record followed by its first string argument, as the host delivers it. */
struct sys_ev_buf {
	struct dio_ev_syscall e;
	char str[256];
};
/* e with the string s appended (str_len[0], hdr.size set); the record is b->e. */
const struct dio_ev_syscall *with_str(struct sys_ev_buf *b, struct dio_ev_syscall e,
				      const char *s);

/* The exit of process pid (its last thread) at ts. */
struct dio_ev_proc exit_ev(uint64_t ts, uint32_t pid);
/* The exec of the program comm by process pid at ts. */
struct dio_ev_proc exec_ev(uint64_t ts, uint32_t pid, const char *comm);
/* The host's record that description ofd (on tag, of type ftype) ended: close of its last fd. */
struct dio_ev_ofd ofd_close_ev(uint64_t ts, uint32_t pid, uint32_t ofd, int32_t fd,
			       const struct dio_file_tag *tag, uint8_t ftype);

/* ---- a module's output file ------------------------------------------------- */

/* a temporary file for the module to write, and the module's state */
struct fixture {
	char path[64];
	void *state;
};
/* cmocka setup and teardown: the file made and removed; teardown destroys a sink left running */
int sink_setup(void **st);
int sink_teardown(void **st);
/* Hand the started module in fx a record, whatever its subscriptions: it must take it. */
void deliver(struct fixture *fx, const void *ev);
/* the whole file, NUL-terminated; the caller frees it */
char *slurp(const char *path);
/* the report holds want somewhere; has_not: it holds unwanted nowhere */
void has(const char *report, const char *want);
void has_not(const char *report, const char *unwanted);

#endif
