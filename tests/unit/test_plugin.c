// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The module loader: a good module loads and is configured from defaults,
 * config groups and the command line; modules with a wrong ABI, a short
 * descriptor or no descriptor are refused with a message naming the file and
 * the versions; the session delivers only subscribed record types.
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
#include <cmocka.h>
#include "engine/plugin.h"
#include "engine/session.h"

static char modpath[4096];

static const char *mod(const char *name)
{
	const char *top = getenv("top_builddir");

	snprintf(modpath, sizeof(modpath), "%s/tests/unit/modules/.libs/%s.so", top ? top : ".",
		 name);
	return modpath;
}

static void loads_good_module_with_defaults(void **unused)
{
	struct plugin p;
	char err[512] = "";

	assert_int_equal(plugin__load(&p, PLUGIN_ANALYZER, mod("good"), err, sizeof(err)), 0);
	assert_string_equal(p.name, "good");
	assert_int_equal(p.nopts, 4);
	assert_int_equal(plugin__configure(&p, NULL, NULL, err, sizeof(err)), 0);
	assert_int_equal(p.opts[0].i, 10);
	assert_null(p.opts[1].s);
	assert_int_equal(p.opts[2].i, 0);
	assert_true(p.opts[3].d == 0.5);
	assert_int_equal(p.opts[0].set, 0);
	plugin__unload(&p);
	assert_null(p.dl);
}

static void refuses_other_abi_version(void **unused)
{
	struct plugin p;
	char err[512] = "", want[1024];

	assert_int_equal(plugin__load(&p, PLUGIN_ANALYZER, mod("badabi"), err, sizeof(err)),
			 -EPROTO);
	snprintf(want, sizeof(want),
		 "%s: analyzer ABI version 99, but this dio speaks version 1: rebuild the module against this dio's headers",
		 mod("badabi"));
	assert_string_equal(err, want);
	assert_null(p.dl);
}

static void refuses_short_descriptor(void **unused)
{
	struct plugin p;
	char err[512] = "", want[1024];

	assert_int_equal(plugin__load(&p, PLUGIN_ANALYZER, mod("small"), err, sizeof(err)),
			 -EPROTO);
	snprintf(want, sizeof(want),
		 "%s: analyzer descriptor is 16 bytes, ABI version 1 needs at least %zu: rebuild the module against this dio's headers",
		 mod("small"), (size_t)DIO_ANALYZER_SIZE_V1);
	assert_string_equal(err, want);
}

static void refuses_descriptor_without_init(void **unused)
{
	struct plugin p;
	char err[512] = "", want[1024];

	assert_int_equal(plugin__load(&p, PLUGIN_ANALYZER, mod("noinit"), err, sizeof(err)),
			 -EPROTO);
	snprintf(want, sizeof(want),
		 "%s: the analyzer descriptor has no init function: set .init", mod("noinit"));
	assert_string_equal(err, want);
	assert_null(p.dl);
}

static void refuses_object_without_descriptor(void **unused)
{
	struct plugin p;
	char err[512] = "", want[1024];

	assert_int_equal(plugin__load(&p, PLUGIN_SINK, mod("nosym"), err, sizeof(err)), -ENOEXEC);
	snprintf(want, sizeof(want), "%s: not a dio sink module (no 'dio_sink' symbol)",
		 mod("nosym"));
	assert_string_equal(err, want);
}

static void unknown_name_points_to_list(void **unused)
{
	struct plugin p;
	char err[512] = "";

	assert_int_equal(plugin__load(&p, PLUGIN_ANALYZER, "no-such-analyzer", err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err,
		"no analyzer named 'no-such-analyzer'; see 'dio list analyzers' (or give a path to a .so)");
}

static void missing_file_is_named(void **unused)
{
	struct plugin p;
	char err[512] = "";

	assert_int_equal(plugin__load(&p, PLUGIN_ANALYZER, "./nope/x.so", err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "analyzer './nope/x.so': No such file or directory");
}

/*
 * The rules of every analyzer on the search path, one a line, and the host's
 * last; an analyzer that declares none is named on stderr, not listed.
 */
static void lists_rules_of_modules_then_host(void **unused)
{
	static const struct dio_rule own[] = {
		{ "dio.own", DIO_SEV_WARNING, 0, "The host's rule", "What.", "Fix." },
		{ NULL, 0, 0, NULL, NULL, NULL },
	};
	const char *want = "good.first                       error    The first rule\n"
			   "good.second                      info     The second rule\n";
	const char *last = "dio.own                          warning  The host's rule\n";
	char dir[4096], *text = NULL, errtext[4096] = "", *good;
	size_t len = 0, got;
	FILE *out = open_memstream(&text, &len), *errf = tmpfile();
	int saved = dup(2), n;

	assert_non_null(out);
	assert_non_null(errf);
	snprintf(dir, sizeof(dir), "%s", mod("good"));
	*strrchr(dir, '/') = 0;
	assert_int_equal(setenv("DIO_ANALYZER_PATH", dir, 1), 0);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(errf), 2) == 2);
	n = plugin__list_rules(out, own);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	unsetenv("DIO_ANALYZER_PATH");
	fclose(out);
	rewind(errf);
	got = fread(errtext, 1, sizeof(errtext) - 1, errf);
	errtext[got] = 0;
	fclose(errf);

	/* good and ofdlog load; badabi, noinit, nosym and small do not */
	assert_true(n >= 2);
	good = strstr(text, "good.first");
	assert_non_null(good);
	assert_ptr_equal(strstr(text, "good.first "), good);
	assert_true(good == text || good[-1] == '\n');
	assert_int_equal(strncmp(good, want, strlen(want)), 0);
	assert_true(len >= strlen(last));
	assert_string_equal(text + len - strlen(last), last);
	assert_null(strstr(text, "ofdlog"));
	assert_non_null(strstr(errtext, "dio: warning: analyzer ofdlog ("));
	assert_non_null(strstr(errtext, "ofdlog.so) declares no rules: the codes of its findings "
				       "are not listed\n"));
	assert_null(strstr(errtext, "analyzer good ("));
	free(text);
}

static void config_group_then_command_line(void **unused)
{
	struct options o;
	struct plugin_sel sel = { .name = "good", .nkv = 1 };
	struct plugin p;
	char err[512] = "";

	memset(&o, 0, sizeof(o));
	o.ngroups = 1;
	o.groups[0].kind = "analyzer";
	o.groups[0].name = "good";
	o.groups[0].nkv = 2;
	o.groups[0].key[0] = "limit";
	o.groups[0].val[0] = "5";
	o.groups[0].where[0] = "dio.conf:7";
	o.groups[0].key[1] = "name";
	o.groups[0].val[1] = "from-config";
	o.groups[0].where[1] = "dio.conf:8";
	sel.key[0] = "limit";
	sel.val[0] = "2k";
	assert_int_equal(plugin__load(&p, PLUGIN_ANALYZER, mod("good"), err, sizeof(err)), 0);
	assert_int_equal(plugin__configure(&p, &o, &sel, err, sizeof(err)), 0);
	assert_int_equal(p.opts[0].i, 2048);
	assert_int_equal(p.opts[0].set, 1);
	assert_string_equal(p.opts[1].s, "from-config");
	plugin__unload(&p);
}

static void unknown_config_key_names_file_and_line(void **unused)
{
	struct options o;
	struct plugin p;
	char err[512] = "";

	memset(&o, 0, sizeof(o));
	o.ngroups = 1;
	o.groups[0].kind = "analyzer";
	o.groups[0].name = "good";
	o.groups[0].nkv = 1;
	o.groups[0].key[0] = "lmit";
	o.groups[0].val[0] = "5";
	o.groups[0].where[0] = "/etc/dio/dio.conf:12";
	assert_int_equal(plugin__load(&p, PLUGIN_ANALYZER, mod("good"), err, sizeof(err)), 0);
	assert_int_equal(plugin__configure(&p, &o, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err,
		"/etc/dio/dio.conf:12: unknown key 'lmit' for analyzer 'good'; see 'dio list analyzers'");
	plugin__unload(&p);
}

static void bad_values_are_explained(void **unused)
{
	static const struct { const char *key, *val, *msg; } cases[] = {
		{ "limit", "12x", "--analyzer good: analyzer good: limit: '12x' is not an integer" },
		{ "on", "maybe",
		  "--analyzer good: analyzer good: on: 'maybe' is not a boolean (use true or false)" },
		{ "ratio", "half", "--analyzer good: analyzer good: ratio: 'half' is not a number" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plugin_sel sel = { .name = "good", .nkv = 1 };
		struct plugin p;
		char err[512] = "";

		sel.key[0] = (char *)cases[i].key;
		sel.val[0] = (char *)cases[i].val;
		assert_int_equal(plugin__load(&p, PLUGIN_ANALYZER, mod("good"), err, sizeof(err)), 0);
		assert_int_equal(plugin__configure(&p, NULL, &sel, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, cases[i].msg);
		plugin__unload(&p);
	}
}

/* A session with the console sink (to /dev/null) and the good module, which writes to out. */
static struct session *good_session(struct options *o, const char *out)
{
	struct session *s;
	char err[512] = "";

	options_init(o);
	o->no_summary = 1;
	assert_int_equal(options_add_plugin(o, 1, "console:output=/dev/null", err, sizeof(err)), 0);
	assert_int_equal(options_add_plugin(o, 0, mod("good"), err, sizeof(err)), 0);
	o->analyzers[0].nkv = 1;
	o->analyzers[0].key[0] = strdup("name");
	o->analyzers[0].val[0] = strdup(out);
	o->analyzers[0].where[0] = "test";
	s = session__new(o, err, sizeof(err));
	if (!s)
		fail_msg("session__new: %s", err);
	return s;
}

/* The line the good module wrote when it was destroyed. */
static void good_line(const char *out, char *line, size_t len)
{
	FILE *f = fopen(out, "r");

	assert_non_null(f);
	assert_non_null(fgets(line, (int)len, f));
	fclose(f);
	unlink(out);
}

/* Records of each type pushed through a session reach the module only if it subscribed. */
static void session_delivers_only_subscribed_types(void **unused)
{
	struct options o;
	struct session *s;
	char out[] = "/tmp/dio-test-plugin-XXXXXX", line[256] = "";
	struct dio_ev_syscall sc = { .hdr = { .type = DIO_EV_SYSCALL, .size = sizeof(sc) } };
	struct dio_ev_proc pr = { .hdr = { .type = DIO_EV_PROC, .size = sizeof(pr) },
				  .kind = DIO_PROC_FORK };
	struct {
		struct dio_ev_path p;
		char path[8];
	} pa = { .p = { .hdr = { .type = DIO_EV_PATH, .size = sizeof(pa) }, .len = 8,
			.ftype = DIO_FT_REG }, .path = "/tmp/x" };
	struct dio_ev_hdr bogus = { .type = 77, .size = sizeof(bogus) };
	int fd = mkstemp(out);

	assert_true(fd >= 0);
	close(fd);
	s = good_session(&o, out);
	assert_int_equal(session__dispatch(s, &sc, sizeof(sc)), 0);
	assert_int_equal(session__dispatch(s, &sc, sizeof(sc)), 0);
	assert_int_equal(session__dispatch(s, &pa, sizeof(pa)), 0);
	assert_int_equal(session__dispatch(s, &pr, sizeof(pr)), 0);
	assert_int_equal(session__dispatch(s, &bogus, sizeof(bogus)), 0);
	/* a header that claims more than the source holds */
	assert_int_equal(session__dispatch(s, &sc, sizeof(sc) - 8), 0);
	session__free(s);
	options_free(&o);
	good_line(out, line, sizeof(line));
	/* badfmt: the host's format_event refused the module's own malformed record */
	assert_string_equal(line, "limit=10 syscall=2 path=0 iouring=0 proc=0 badfmt=-22\n");
}

/*
 * Records that break a promise of dio/event.h reach no module, the replay's
 * filter included: each is counted as lost, and the first one's reason is
 * kept for the report. Only the well-formed record between them gets through.
 */
static int kept_by_filter;

static int filter(void *ud, const struct dio_ev_hdr *h)
{
	const struct dio_ev_syscall *e = (const void *)h;

	(void)ud;
	/* the filter reads the string as a C string: it must be one */
	kept_by_filter += h->type == DIO_EV_SYSCALL && dio_ev_syscall_str(e, 0) &&
			  !strcmp(dio_ev_syscall_str(e, 0), "/ok");
	return 1;
}

static void malformed_records_reach_no_module(void **unused)
{
	struct options o;
	struct session *s;
	char out[] = "/tmp/dio-test-plugin-XXXXXX", line[256] = "", text[512];
	struct {
		struct dio_ev_syscall ev;
		char tail[8];
	} ok = { .ev = { .hdr = { .type = DIO_EV_SYSCALL, .size = sizeof(ok.ev) + 4 },
			 .str_len = { 4, 0 } }, .tail = "/ok" }, bad[5];
	int fd = mkstemp(out);

	for (size_t i = 0; i < 5; i++)
		bad[i] = ok;
	bad[0].ev.str_len[0] = 8;			/* runs past the record */
	bad[1].tail[3] = 'x';				/* no NUL */
	bad[2].ev.flags = DIO_SF_STR0_FAULT;		/* unreadable, yet with bytes */
	bad[3].ev.flags = DIO_SF_HASH;			/* no content tail */
	bad[4].ev.flags = DIO_SF_FILE;			/* a file of no known type */
	assert_true(fd >= 0);
	close(fd);
	s = good_session(&o, out);
	session__filter(s, filter, NULL);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(session__dispatch(s, &bad[i], bad[i].ev.hdr.size), 0);
	assert_int_equal(session__dispatch(s, &ok, ok.ev.hdr.size), 0);
	session__loss_text(s, text, sizeof(text));
	assert_non_null(strstr(text, "events=1\n"));
	assert_non_null(strstr(text, "lost_other=5\n"));
	session__free(s);
	options_free(&o);
	assert_int_equal(kept_by_filter, 1);
	good_line(out, line, sizeof(line));
	assert_string_equal(line, "limit=10 syscall=1 path=0 iouring=0 proc=0 badfmt=-22\n");
}

/*
 * A crafted path record whose path does not end inside it (a FIFO's, which
 * the host names "pipe:[INO]" after comparing it with "/") is malformed: it
 * is counted and nothing reads past the record (ASan in CI would see it).
 */
static void unterminated_path_record_is_malformed(void **unused)
{
	struct options o;
	struct session *s;
	char err[512] = "", text[512];
	size_t size = sizeof(struct dio_ev_path) + 4;
	struct dio_ev_path *p = calloc(1, size);

	assert_non_null(p);
	p->hdr.type = DIO_EV_PATH;
	p->hdr.size = (uint16_t)size;
	p->len = 4;
	p->ftype = DIO_FT_FIFO;
	memcpy(p + 1, "/abc", 4);	/* no NUL */
	options_init(&o);
	o.no_summary = 1;
	assert_int_equal(options_add_plugin(&o, 1, "console:output=/dev/null", err, sizeof(err)), 0);
	s = session__new(&o, err, sizeof(err));
	if (!s)
		fail_msg("session__new: %s", err);
	assert_int_equal(session__dispatch(s, p, size), 0);
	assert_null(session__tag_path(s, &p->tag));
	session__loss_text(s, text, sizeof(text));
	assert_non_null(strstr(text, "lost_other=1\n"));
	session__free(s);
	options_free(&o);
	free(p);
}

/* A session whose only module is the json sink, writing to out (a mkstemp template). */
static struct session *json_session(struct options *o, char *out, enum hash_mode hash,
				    uint32_t capture_bytes)
{
	struct session *s;
	char err[512] = "", spec[4200];
	int fd = mkstemp(out);

	assert_true(fd >= 0);
	close(fd);
	options_init(o);
	o->no_summary = 1;
	o->hash = hash;
	o->capture_bytes = capture_bytes;
	snprintf(spec, sizeof(spec), "json:file=%s", out);
	assert_int_equal(options_add_plugin(o, 1, spec, err, sizeof(err)), 0);
	s = session__new(o, err, sizeof(err));
	if (!s)
		fail_msg("session__new: %s", err);
	return s;
}

/* End a json_session: what the sink wrote, whole, into buf; out is removed. Returns its lines. */
static int json_end(struct session *s, struct options *o, const char *out, char *buf, size_t len)
{
	FILE *f;
	size_t n;
	int lines = 0;

	session__free(s);
	options_free(o);
	f = fopen(out, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(out);
	for (const char *c = buf; (c = strchr(c, '\n')); c++)
		lines++;
	return lines;
}

/*
 * A process record of a recording made before mnt_ns was appended (56 bytes)
 * reaches modules at today's size with mnt_ns 0; a shorter one is refused.
 */
static void old_process_record_reaches_modules_at_full_size(void **unused)
{
	struct options o;
	struct session *s;
	char out[] = "/tmp/dio-test-plugin-XXXXXX", text[512];
	struct dio_ev_proc pr = {
		.hdr = { .type = DIO_EV_PROC, .size = DIO_EV_PROC_SIZE_V1, .ts = 5 },
		.pid = 7, .tid = 7, .kind = DIO_PROC_EXEC, .comm = "old",
		.mnt_ns = 99,	/* beyond the old record's end: must not be seen */
	};

	s = json_session(&o, out, HASH_OFF, 0);
	assert_int_equal(session__dispatch(s, &pr, DIO_EV_PROC_SIZE_V1), 0);
	pr.hdr.size = DIO_EV_PROC_SIZE_V1 - 4;
	assert_int_equal(session__dispatch(s, &pr, sizeof(pr)), 0);
	/* the short one was dropped */
	assert_int_equal(json_end(s, &o, out, text, sizeof(text)), 1);
	assert_null(strstr(text, "\"mnt_ns\":99"));
	assert_non_null(strstr(text, "\"comm\":\"old\",\"kind\":\"exec\",\"mnt_ns\":0,"));
}

/*
 * --hash user: the host hashes the bytes the kernel sent. Its content tail
 * after a string of odd length is not aligned: it is copied, never loaded
 * in place (UBSan stops the test on a misaligned load), and the record
 * modules get holds the hash and what --capture-data keeps.
 */
static void user_hash_after_a_string_of_odd_length(void **unused)
{
	struct options o;
	struct session *s;
	char out[] = "/tmp/dio-test-plugin-XXXXXX", text[1024];
	struct dio_ev_content ct = { .hashed_len = 5, .data_len = 5 };
	struct {
		struct dio_ev_syscall ev;
		char tail[32];
	} r = { .ev = { .hdr = { .type = DIO_EV_SYSCALL, .size = sizeof(r.ev) + 2 + sizeof(ct) + 5 },
			.flags = DIO_SF_HASH, .str_len = { 2, 0 } }, .tail = "x" };

	memcpy(r.tail + 2, &ct, sizeof(ct));
	memcpy(r.tail + 2 + sizeof(ct), "hello", 5);
	s = json_session(&o, out, HASH_USER, 2);
	assert_int_equal(session__dispatch(s, &r, r.ev.hdr.size), 0);
	assert_int_equal(json_end(s, &o, out, text, sizeof(text)), 1);
	/* FNV-1a 64 of "hello", and the first two bytes of it */
	assert_non_null(strstr(text, "\"strings\":[\"x\"],\"hash\":\"a430d84680aabd0b\","
				     "\"hashed_len\":5,\"data\":\"he\"}"));
}

/*
 * The json sink, loaded as a module and built from nothing but its own file,
 * names flags, errnos, opcodes and file types through the host's decode_arg
 * and name_of: the session's host table offers them.
 */
static void json_module_decodes_through_the_host(void **unused)
{
	struct options o;
	struct session *s;
	char out[] = "/tmp/dio-test-plugin-XXXXXX", text[2048];
	struct {
		struct dio_ev_syscall ev;
		char tail[8];
	} r = { .ev = { .hdr = { .type = DIO_EV_SYSCALL, .size = sizeof(r.ev) + 2 }, .nr = 257,
			.ret = -ENOENT, .fd = -1, .str_len = { 2, 0 },
			.args = { (uint32_t)AT_FDCWD, 0, O_RDONLY | O_CLOEXEC, 0644 } },
		.tail = "x" };
	struct dio_ev_iouring u = {
		.hdr = { .type = DIO_EV_IOURING, .size = sizeof(u) }, .opcode = 22,
		.flags = DIO_IF_FILE, .ftype = DIO_FT_REG, .tag = { .ino = 5, .dev = 1 << 20 },
	};

	s = json_session(&o, out, HASH_OFF, 0);
	assert_int_equal(session__dispatch(s, &r, r.ev.hdr.size), 0);
	assert_int_equal(session__dispatch(s, &u, sizeof(u)), 0);
	assert_int_equal(json_end(s, &o, out, text, sizeof(text)), 2);
	assert_non_null(strstr(text, "\"syscall\":\"openat\",\"nr\":257,"
				     "\"args\":[4294967196,0,524288,420],\"decoded\":"
				     "[\"AT_FDCWD\",null,\"O_RDONLY|O_CLOEXEC\",\"0644\"],"
				     "\"ret\":-2,\"errno\":\"ENOENT\","));
	assert_non_null(strstr(text, "\"op\":\"READ\",\"opcode\":22,"));
	assert_non_null(strstr(text, "\"file_tag\":\"1:0|5|0\",\"file_type\":\"reg\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads_good_module_with_defaults),
		cmocka_unit_test(refuses_other_abi_version),
		cmocka_unit_test(refuses_short_descriptor),
		cmocka_unit_test(refuses_descriptor_without_init),
		cmocka_unit_test(refuses_object_without_descriptor),
		cmocka_unit_test(unknown_name_points_to_list),
		cmocka_unit_test(missing_file_is_named),
		cmocka_unit_test(lists_rules_of_modules_then_host),
		cmocka_unit_test(config_group_then_command_line),
		cmocka_unit_test(unknown_config_key_names_file_and_line),
		cmocka_unit_test(bad_values_are_explained),
		cmocka_unit_test(session_delivers_only_subscribed_types),
		cmocka_unit_test(old_process_record_reaches_modules_at_full_size),
		cmocka_unit_test(unterminated_path_record_is_malformed),
		cmocka_unit_test(malformed_records_reach_no_module),
		cmocka_unit_test(user_hash_after_a_string_of_odd_length),
		cmocka_unit_test(json_module_decodes_through_the_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
