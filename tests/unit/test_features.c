// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Feature detection from a kernel's BTF: synthetic BTFs shaped as Debian's
 * 6.1 and 6.12 kernels, 6.18 and an older kernel declare them (the tracepoint
 * prototypes and kfuncs that dio's choice depends on, as bpftool dumps them
 * from each vmlinux), and DIO_DISABLE_FEATURES.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <bpf/btf.h>
#include "engine/features.h"

struct kshape {
	int rdonly_cast;	/* the kfunc exists */
	int exit_group_arg;	/* sched_process_exit(task, bool group_dead) */
	const char *submit;	/* "io_uring_submit_req", "io_uring_submit_sqe" or NULL */
	int submit_ctx_first;	/* submit_sqe(ctx, req, ...) of kernels before 5.19 */
	int complete_args;	/* io_uring_complete's parameters, ctx pointer counted */
	int block_queue_arg;	/* block_rq_insert/issue(q, rq) of kernels before 5.11 */
	int switch_args;	/* sched_switch's parameters, ctx pointer counted */
};

struct types {
	int vp, boolean, uint, u64, task, ioreq, ioctx, rq, q, cqe;
};

/* typedef void (*btf_trace_NAME)(void *, args...); */
static void tp(struct btf *b, const char *name, int n, const int *args)
{
	char tname[128];
	int proto = btf__add_func_proto(b, 0);

	assert_true(proto > 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(btf__add_func_param(b, NULL, args[i]), 0);
	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	assert_true(btf__add_typedef(b, tname, btf__add_ptr(b, proto)) > 0);
}

static int sptr(struct btf *b, const char *name)
{
	return btf__add_ptr(b, btf__add_struct(b, name, 0));
}

static struct btf *make_btf(const struct kshape *k)
{
	struct btf *b = btf__new_empty();
	struct types t;

	assert_non_null(b);
	t.vp = btf__add_ptr(b, 0);
	t.boolean = btf__add_int(b, "_Bool", 1, BTF_INT_BOOL);
	t.uint = btf__add_int(b, "unsigned int", 4, 0);
	t.u64 = btf__add_int(b, "long long unsigned int", 8, 0);
	t.task = sptr(b, "task_struct");
	t.ioreq = sptr(b, "io_kiocb");
	t.ioctx = sptr(b, "io_ring_ctx");
	t.rq = sptr(b, "request");
	t.q = sptr(b, "request_queue");
	t.cqe = sptr(b, "io_uring_cqe");
	if (k->rdonly_cast) {
		int proto = btf__add_func_proto(b, t.vp);

		btf__add_func_param(b, "obj", t.vp);
		btf__add_func_param(b, "btf_id", t.uint);
		assert_true(btf__add_func(b, "bpf_rdonly_cast", BTF_FUNC_GLOBAL, proto) > 0);
	}
	{
		int a[] = { t.vp, t.task, t.boolean };

		tp(b, "sched_process_exit", k->exit_group_arg ? 3 : 2, a);
	}
	if (k->submit) {
		int a[] = { t.vp, t.ioreq, t.boolean };
		int old[] = { t.vp, t.ioctx, t.ioreq, t.u64 };

		if (k->submit_ctx_first)
			tp(b, k->submit, 4, old);
		else
			tp(b, k->submit, strcmp(k->submit, "io_uring_submit_sqe") ? 2 : 3, a);
	}
	if (k->complete_args) {
		int a[] = { t.vp, t.ioctx, t.vp, k->complete_args == 4 ? t.cqe : t.u64,
			    t.uint, t.uint, t.u64, t.u64 };

		tp(b, "io_uring_complete", k->complete_args, a);
	}
	{
		int one[] = { t.vp, t.rq };
		int two[] = { t.vp, t.q, t.rq };
		int done[] = { t.vp, t.rq, t.uint, t.uint };

		tp(b, "block_rq_insert", k->block_queue_arg ? 3 : 2, k->block_queue_arg ? two : one);
		tp(b, "block_rq_issue", k->block_queue_arg ? 3 : 2, k->block_queue_arg ? two : one);
		tp(b, "block_rq_complete", 4, done);
	}
	{
		int sw[] = { t.vp, t.boolean, t.task, t.task, t.uint };
		int wk[] = { t.vp, t.task };

		tp(b, "sched_switch", k->switch_args, sw);
		tp(b, "sched_wakeup", 2, wk);
	}
	return b;
}

static const struct kshape k618 = { 1, 1, "io_uring_submit_req", 0, 4, 0, 5 };
static const struct kshape k612 = { 1, 0, "io_uring_submit_req", 0, 8, 0, 5 };
static const struct kshape k61 = { 0, 0, "io_uring_submit_sqe", 0, 8, 0, 5 };
static const struct kshape k510 = { 0, 0, "io_uring_submit_sqe", 1, 8, 1, 4 };
static const struct kshape nouring = { 1, 1, NULL, 0, 0, 0, 5 };

static void detect(const struct kshape *k, const char *disable, struct features *f)
{
	struct btf *b = make_btf(k);
	char err[256] = "";

	assert_int_equal(features__from_btf(f, b, disable, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	btf__free(b);
}

static void kernel_6_18_uses_everything_natively(void **unused)
{
	struct features f;

	detect(&k618, NULL, &f);
	for (int id = 0; id < FEAT_MAX; id++)
		assert_int_equal(f.state[id], FEAT_NATIVE);
	assert_int_equal(f.uring_submit_sqe, 0);
	assert_int_equal(f.uring_complete_res, 0);
}

static void kernel_6_12_counts_live_threads_and_reads_the_result_argument(void **unused)
{
	struct features f;

	detect(&k612, NULL, &f);
	assert_int_equal(f.state[FEAT_FIELD_LOADS], FEAT_NATIVE);
	assert_int_equal(f.state[FEAT_EXIT_GROUP], FEAT_FALLBACK);
	assert_string_equal(f.why[FEAT_EXIT_GROUP],
			    "sched_process_exit passes the task alone on this kernel");
	assert_int_equal(f.state[FEAT_IOURING], FEAT_NATIVE);
	assert_int_equal(f.uring_submit_sqe, 0);
	assert_int_equal(f.uring_complete_res, 1);
	assert_int_equal(f.state[FEAT_BLOCK], FEAT_NATIVE);
	assert_int_equal(f.state[FEAT_RUNQ], FEAT_NATIVE);
}

static void kernel_6_1_reads_fields_by_probe_and_submits_by_sqe(void **unused)
{
	struct features f;

	detect(&k61, NULL, &f);
	assert_int_equal(f.state[FEAT_FIELD_LOADS], FEAT_FALLBACK);
	assert_string_equal(f.why[FEAT_FIELD_LOADS], "this kernel has no kfunc bpf_rdonly_cast");
	assert_int_equal(f.state[FEAT_EXIT_GROUP], FEAT_FALLBACK);
	assert_int_equal(f.state[FEAT_IOURING], FEAT_NATIVE);
	assert_int_equal(f.uring_submit_sqe, 1);
	assert_int_equal(f.uring_complete_res, 1);
	assert_int_equal(f.state[FEAT_BLOCK], FEAT_NATIVE);
	assert_int_equal(f.state[FEAT_RUNQ], FEAT_NATIVE);
}

static void older_kernel_lacks_block_runq_and_io_uring_and_says_why(void **unused)
{
	struct features f;

	detect(&k510, NULL, &f);
	assert_int_equal(f.state[FEAT_BLOCK], FEAT_MISSING);
	assert_string_equal(f.why[FEAT_BLOCK],
			    "this kernel's block_rq_* tracepoints do not pass the request first");
	assert_int_equal(f.state[FEAT_RUNQ], FEAT_MISSING);
	assert_string_equal(f.why[FEAT_RUNQ], "sched_switch has no prev_state argument on this kernel");
	/* the submit tracepoint passes the ring first: dio cannot use it */
	assert_int_equal(f.state[FEAT_IOURING], FEAT_MISSING);
	assert_string_equal(f.why[FEAT_IOURING],
			    "this kernel's io_uring tracepoints do not pass the request");
}

static void kernel_without_io_uring_says_so(void **unused)
{
	struct features f;

	detect(&nouring, NULL, &f);
	assert_int_equal(f.state[FEAT_IOURING], FEAT_MISSING);
	assert_string_equal(f.why[FEAT_IOURING],
			    "this kernel has no io_uring tracepoints (built without CONFIG_IO_URING?)");
	assert_int_equal(f.state[FEAT_BLOCK], FEAT_NATIVE);
}

static void disabled_features_fall_back_or_go_missing(void **unused)
{
	struct features f;

	detect(&k618, "field-loads, exit-group,block", &f);
	assert_int_equal(f.state[FEAT_FIELD_LOADS], FEAT_FALLBACK);
	assert_int_equal(f.state[FEAT_EXIT_GROUP], FEAT_FALLBACK);
	assert_int_equal(f.state[FEAT_BLOCK], FEAT_MISSING);
	assert_string_equal(f.why[FEAT_BLOCK], "turned off by DIO_DISABLE_FEATURES");
	assert_int_equal(f.state[FEAT_IOURING], FEAT_NATIVE);
	assert_int_equal(f.state[FEAT_RUNQ], FEAT_NATIVE);
	assert_int_equal(f.disabled, 1u << FEAT_FIELD_LOADS | 1u << FEAT_EXIT_GROUP | 1u << FEAT_BLOCK);
}

static void unknown_disabled_feature_is_named_in_the_error(void **unused)
{
	struct btf *b = make_btf(&k618);
	struct features f;
	char err[256] = "";

	assert_int_equal(features__from_btf(&f, b, "field-loads,blockz", err, sizeof(err)), -EINVAL);
	assert_string_equal(err,
			    "DIO_DISABLE_FEATURES: unknown feature 'blockz' (see 'dio list features')");
	btf__free(b);
}

static void text_names_every_feature_and_its_state(void **unused)
{
	struct features f;
	char buf[256], small[8];
	int n;

	detect(&k61, "runq", &f);
	n = features__text(&f, buf, sizeof(buf));
	assert_string_equal(buf, "field-loads=fallback,exit-group=fallback,io_uring=native,"
				 "block=native,runq=missing");
	assert_int_equal(n, (int)strlen(buf));
	/* snprintf-style: cut, NUL-terminated, the length it needed */
	assert_int_equal(features__text(&f, small, sizeof(small)), n);
	assert_string_equal(small, "field-l");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_6_18_uses_everything_natively),
		cmocka_unit_test(kernel_6_12_counts_live_threads_and_reads_the_result_argument),
		cmocka_unit_test(kernel_6_1_reads_fields_by_probe_and_submits_by_sqe),
		cmocka_unit_test(older_kernel_lacks_block_runq_and_io_uring_and_says_why),
		cmocka_unit_test(kernel_without_io_uring_says_so),
		cmocka_unit_test(disabled_features_fall_back_or_go_missing),
		cmocka_unit_test(unknown_disabled_feature_is_named_in_the_error),
		cmocka_unit_test(text_names_every_feature_and_its_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
