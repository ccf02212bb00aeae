// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Record sources (engine/sources.c): which specs are a module's source and
 * which a trace file, a source found by its scheme through the module loader
 * (tests/unit/modules/fakesrc.c) and read to its end or its error, and the
 * one-line refusals: no such module (the password kept out), a module of
 * another scheme, a module that offers no source, a spec the module refuses.
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
#include "engine/sources.h"

/* the test modules' directory, given as $DIO_SINK_PATH as a user's would be */
static char moddir[4096];

static void tells_scheme_from_trace_file(void **unused)
{
	char dir[] = "/tmp/dio-sources.XXXXXX", cwd[4096];
	int fd;

	assert_int_equal(sources__is_scheme("clickhouse:url=http://db:8123,session=x"), 1);
	assert_int_equal(sources__is_scheme("fakesrc:n=1"), 1);
	assert_int_equal(sources__is_scheme("run.dio"), 0);
	assert_int_equal(sources__is_scheme("/data/run:1.dio"), 0);
	assert_int_equal(sources__is_scheme(":x"), 0);
	assert_int_equal(sources__is_scheme(""), 0);
	/* a file of that name is the trace the user named */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(sources__is_scheme("run:1.dio"), 1);
	fd = open("run:1.dio", O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sources__is_scheme("run:1.dio"), 0);
	assert_int_equal(unlink("run:1.dio"), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void reads_a_module_source_to_its_end(void **unused)
{
	char err[1024] = "", v[64];
	struct source *s = source__open("fakesrc:n=3", err, sizeof(err));
	const struct dio_ev_proc *p;
	const void *rec;
	size_t size;

	assert_non_null(s);
	assert_string_equal(err, "");
	assert_string_equal(source__info(s, "hostname"), "fakehost");
	assert_string_equal(source__info(s, "session_id"), "0123456789abcdef0123456789abcdef");
	assert_null(source__info(s, "boot_id"));
	/* the module names no trace: the spec does */
	assert_string_equal(source__info(s, "trace"), "fakesrc:n=3");
	assert_int_equal(source__meta(s, "realtime_offset_ns", v, sizeof(v)), 0);
	assert_string_equal(v, "1700000000000000000");
	assert_int_equal(source__meta(s, "lost_ringbuf", v, sizeof(v)), 0);
	assert_string_equal(v, "7");
	assert_int_equal(source__meta(s, "lost_other", v, sizeof(v)), -ENOENT);
	assert_string_equal(v, "");
	for (unsigned int i = 0; i < 3; i++) {
		assert_int_equal(source__next(s, &rec, &size), 1);
		assert_int_equal(size, sizeof(*p));
		p = rec;
		assert_int_equal(p->hdr.type, DIO_EV_PROC);
		assert_int_equal(p->pid, 100 + i);
		assert_int_equal(p->hdr.ts, 1000000000ull * (i + 1));
	}
	assert_int_equal(source__next(s, &rec, &size), 0);
	source__close(s);
	source__close(NULL);
}

static void says_why_a_module_source_failed(void **unused)
{
	char err[1024] = "";
	struct source *s = source__open("fakesrc:n=2,fail=1", err, sizeof(err));
	const void *rec;
	size_t size;

	assert_non_null(s);
	assert_int_equal(source__next(s, &rec, &size), 1);
	assert_int_equal(source__next(s, &rec, &size), 1);
	assert_int_equal(source__next(s, &rec, &size), -EIO);
	assert_string_equal(source__error(s), "fakesrc: the store went away after 2 records");
	source__close(s);
}

static void passes_on_what_the_module_refuses(void **unused)
{
	char err[1024] = "";

	assert_null(source__open("fakesrc:n=x", err, sizeof(err)));
	assert_string_equal(err, "--from fakesrc: give n=COUNT[,fail=1]");
}

static void names_the_missing_module_without_the_password(void **unused)
{
	char err[1024] = "";

	assert_null(source__open("nosuch:url=http://dio:s3cret@db:8123,session=x", err,
				 sizeof(err)));
	assert_string_equal(err, "nosuch:url=http://dio:***@db:8123,session=x: no such trace file, "
			    "and this dio has no module 'nosuch' to read nosuch: sources (dio list "
			    "sinks shows the modules it has)");
}

static void refuses_module_of_another_scheme(void **unused)
{
	char err[1024] = "", want[4200];

	assert_null(source__open("othersrc:x", err, sizeof(err)));
	snprintf(want, sizeof(want), "%s/othersrc.so: its source reads other:, not othersrc:", moddir);
	assert_string_equal(err, want);
}

static void refuses_module_without_a_source(void **unused)
{
	char err[1024] = "", want[4200];

	/* good is an analyzer: it offers no dio_source */
	assert_null(source__open("good:x", err, sizeof(err)));
	snprintf(want, sizeof(want), "%s/good.so: not a dio source module (no 'dio_source' symbol)",
		 moddir);
	assert_string_equal(err, want);
}

static void pins_the_source_abi(void **unused)
{
	/* appended only: these never move */
	assert_int_equal(offsetof(struct dio_source, abi), 0);
	assert_int_equal(offsetof(struct dio_source, size), 4);
	assert_int_equal(offsetof(struct dio_source, name), 8);
	assert_int_equal(offsetof(struct dio_source, description), 16);
	assert_int_equal(offsetof(struct dio_source, scheme), 24);
	assert_int_equal(offsetof(struct dio_source, open), 32);
	assert_int_equal(offsetof(struct dio_source, next), 40);
	assert_int_equal(offsetof(struct dio_source, error), 48);
	assert_int_equal(offsetof(struct dio_source, info), 56);
	assert_int_equal(offsetof(struct dio_source, meta), 64);
	assert_int_equal(offsetof(struct dio_source, close), 72);
	assert_int_equal(sizeof(struct dio_source), 80);
	assert_int_equal(DIO_SOURCE_SIZE_V1, 80);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tells_scheme_from_trace_file),
		cmocka_unit_test(reads_a_module_source_to_its_end),
		cmocka_unit_test(says_why_a_module_source_failed),
		cmocka_unit_test(passes_on_what_the_module_refuses),
		cmocka_unit_test(names_the_missing_module_without_the_password),
		cmocka_unit_test(refuses_module_of_another_scheme),
		cmocka_unit_test(refuses_module_without_a_source),
		cmocka_unit_test(pins_the_source_abi),
	};
	const char *top = getenv("top_builddir");

	snprintf(moddir, sizeof(moddir), "%s/tests/unit/modules/.libs", top ? top : ".");
	setenv("DIO_SINK_PATH", moddir, 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
