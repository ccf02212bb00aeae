// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "features.h"
#include "util.h"

static const struct feature_info {
	const char *name;
	const char *what;	/* what the user gets from it */
	const char *needs;	/* what the kernel must have */
	const char *since;	/* the Linux that has it */
	const char *fallback;	/* what dio does without it; NULL: those records do not come */
} info[FEAT_MAX] = {
	[FEAT_FIELD_LOADS] = {
		"field-loads", "direct loads of file, inode and dentry fields",
		"the kfunc bpf_rdonly_cast", "6.2",
		"each field is read with bpf_probe_read_kernel: the same records at a higher cost per call" },
	[FEAT_EXIT_GROUP] = {
		"exit-group", "which exiting thread ends its process",
		"sched_process_exit's group_dead argument", "6.16",
		"signal->live is read at exit: the same records" },
	[FEAT_IOURING] = {
		"io_uring", "io_uring requests",
		"io_uring tracepoints that pass the request", "6.1", NULL },
	[FEAT_BLOCK] = {
		"block", "block requests",
		"block_rq_insert, block_rq_issue (the request alone) and block_rq_complete", "5.11",
		NULL },
	[FEAT_RUNQ] = {
		"runq", "run-queue waits",
		"sched_switch with its prev_state argument", "5.18", NULL },
};

const char *feature__name(enum feature id)
{
	return id < FEAT_MAX ? info[id].name : "?";
}

/* Parameters of tracepoint tp's BTF prototype (the context pointer counted), or -1. */
static int tp_nargs(const struct btf *btf, const char *tp, const struct btf_param **params)
{
	char name[128];
	const struct btf_type *t;
	int id;

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!t || !btf_is_ptr(t))
		return -1;
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return -1;
	if (params)
		*params = btf_params(t);
	return btf_vlen(t);
}

/* Is parameter i of tracepoint tp a pointer to struct sname? */
static int tp_arg_is(const struct btf *btf, const char *tp, int i, const char *sname)
{
	const struct btf_param *p;
	const struct btf_type *t;
	int n = tp_nargs(btf, tp, &p);

	if (n <= i)
		return 0;
	t = btf__type_by_id(btf, p[i].type);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_ptr(t))
		return 0;
	t = btf__type_by_id(btf, t->type);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	return t && btf_is_struct(t) && !strcmp(btf__name_by_offset(btf, t->name_off), sname);
}

static void set(struct features *f, enum feature id, enum feature_state st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void set(struct features *f, enum feature id, enum feature_state st, const char *fmt, ...)
{
	va_list ap;

	f->state[id] = st;
	f->why[id][0] = 0;
	if (!fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(f->why[id], sizeof(f->why[id]), fmt, ap);
	va_end(ap);
}

/* DIO_DISABLE_FEATURES=name,name: bits, or -EINVAL naming the unknown one in err. */
static int parse_disabled(const char *s, unsigned int *bits, char *err, size_t errlen)
{
	char buf[256], *save = NULL, *tok;

	*bits = 0;
	if (!s || !*s)
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		int id;

		for (id = 0; id < FEAT_MAX && strcmp(tok, info[id].name); id++)
			;
		if (id == FEAT_MAX) {
			snprintf(err, errlen,
				 "DIO_DISABLE_FEATURES: unknown feature '%s' (see 'dio list features')",
				 tok);
			return -EINVAL;
		}
		*bits |= 1u << id;
	}
	return 0;
}

int features__from_btf(struct features *f, const struct btf *btf, const char *disable, char *err,
			size_t errlen)
{
	int e, n;

	memset(f, 0, sizeof(*f));
	e = parse_disabled(disable, &f->disabled, err, errlen);
	if (e)
		return e;
	if (btf__find_by_name_kind(btf, "bpf_rdonly_cast", BTF_KIND_FUNC) > 0)
		set(f, FEAT_FIELD_LOADS, FEAT_NATIVE, NULL);
	else
		set(f, FEAT_FIELD_LOADS, FEAT_FALLBACK, "this kernel has no kfunc bpf_rdonly_cast");

	n = tp_nargs(btf, "sched_process_exit", NULL);
	if (n >= 3)
		set(f, FEAT_EXIT_GROUP, FEAT_NATIVE, NULL);
	else
		set(f, FEAT_EXIT_GROUP, FEAT_FALLBACK,
		    "sched_process_exit passes the task alone on this kernel");

	/* the request is the submit tracepoint's first argument from 6.1 on */
	if (tp_arg_is(btf, "io_uring_submit_req", 1, "io_kiocb")) {
		f->uring_submit_sqe = 0;
	} else if (tp_arg_is(btf, "io_uring_submit_sqe", 1, "io_kiocb")) {
		f->uring_submit_sqe = 1;
	} else {
		f->uring_submit_sqe = -1;
	}
	n = tp_nargs(btf, "io_uring_complete", NULL);
	f->uring_complete_res = n >= 5 ? 1 : n == 4 ? 0 : -1;
	if (tp_nargs(btf, "io_uring_submit_req", NULL) < 0 &&
	    tp_nargs(btf, "io_uring_submit_sqe", NULL) < 0)
		set(f, FEAT_IOURING, FEAT_MISSING,
		    "this kernel has no io_uring tracepoints (built without CONFIG_IO_URING?)");
	else if (f->uring_submit_sqe < 0 || f->uring_complete_res < 0)
		set(f, FEAT_IOURING, FEAT_MISSING,
		    "this kernel's io_uring tracepoints do not pass the request");
	else
		set(f, FEAT_IOURING, FEAT_NATIVE, NULL);

	if (tp_arg_is(btf, "block_rq_insert", 1, "request") &&
	    tp_arg_is(btf, "block_rq_issue", 1, "request") &&
	    tp_arg_is(btf, "block_rq_complete", 1, "request"))
		set(f, FEAT_BLOCK, FEAT_NATIVE, NULL);
	else
		set(f, FEAT_BLOCK, FEAT_MISSING,
		    "this kernel's block_rq_* tracepoints do not pass the request first");

	if (tp_nargs(btf, "sched_switch", NULL) >= 5 && tp_nargs(btf, "sched_wakeup", NULL) >= 2)
		set(f, FEAT_RUNQ, FEAT_NATIVE, NULL);
	else
		set(f, FEAT_RUNQ, FEAT_MISSING, "sched_switch has no prev_state argument on this kernel");

	for (int id = 0; id < FEAT_MAX; id++) {
		if (!(f->disabled & (1u << id)) || f->state[id] != FEAT_NATIVE)
			continue;
		set(f, id, info[id].fallback ? FEAT_FALLBACK : FEAT_MISSING,
		    "turned off by DIO_DISABLE_FEATURES");
	}
	return 0;
}

int features__probe(struct features *f, char *err, size_t errlen)
{
	struct utsname u;
	struct btf *btf;
	int e;

	btf = btf__load_vmlinux_btf();
	if (!btf) {
		e = -errno;
		snprintf(err, errlen,
			 "cannot read the kernel's BTF (/sys/kernel/btf/vmlinux): %s; dio needs a kernel built with CONFIG_DEBUG_INFO_BTF=y",
			 strerror(errno));
		return e ? e : -ENOENT;
	}
	e = features__from_btf(f, btf, secure_getenv("DIO_DISABLE_FEATURES"), err, errlen);
	btf__free(btf);
	if (!e && !uname(&u))
		snprintf(f->kernel, sizeof(f->kernel), "%s", u.release);
	return e;
}

int features__check_helpers(const struct features *f, char *err, size_t errlen)
{
	static const struct {
		enum bpf_func_id id;
		const char *name;
		const char *since;
	} need[] = {
		{ BPF_FUNC_ringbuf_reserve, "bpf_ringbuf_reserve", "5.8" },
		{ BPF_FUNC_task_storage_get, "bpf_task_storage_get", "5.11" },
		{ BPF_FUNC_get_current_task_btf, "bpf_get_current_task_btf", "5.11" },
		{ BPF_FUNC_task_pt_regs, "bpf_task_pt_regs", "5.15" },
		{ BPF_FUNC_loop, "bpf_loop", "5.17" },
	};

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		/*
		 * dio's syscall programs are tracepoint programs, which may call them
		 * all. 0 is a clear no; < 0 a probe that could not run (libbpf cannot
		 * probe for BPF_PROG_TYPE_TRACING at all): let the load speak then.
		 */
		if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_TRACEPOINT, need[i].id, NULL) != 0)
			continue;
		snprintf(err, errlen,
			 "this kernel (%s) lacks the BPF helper %s: dio needs Linux %s or newer",
			 f->kernel, need[i].name, need[i].since);
		return -ENOTSUP;
	}
	return 0;
}

void features__warn(const struct features *f, const int wanted[FEAT_MAX])
{
	for (int id = 0; id < FEAT_MAX; id++) {
		const struct feature_info *fi = &info[id];

		/* a fallback gives the same records: nothing to say */
		if (!wanted[id] || f->state[id] != FEAT_MISSING)
			continue;
		if (f->disabled & (1u << id))
			warn_msg("%s: turned off by DIO_DISABLE_FEATURES: no %s", fi->name, fi->what);
		else
			warn_msg("%s are not traced: %s (Linux %s has %s)", fi->what, f->why[id],
				 fi->since, fi->needs);
	}
}

static const char *state_name(enum feature_state st)
{
	return st == FEAT_NATIVE ? "native" : st == FEAT_FALLBACK ? "fallback" : "missing";
}

void features__print(const struct features *f, FILE *out)
{
	fprintf(out, "kernel %s\n%-12s %-9s %s\n", f->kernel, "FEATURE", "STATE", "WHAT");
	for (int id = 0; id < FEAT_MAX; id++) {
		const struct feature_info *fi = &info[id];

		fprintf(out, "%-12s %-9s %s\n", fi->name, state_name(f->state[id]), fi->what);
		if (f->state[id] == FEAT_NATIVE) {
			if (id == FEAT_IOURING)
				fprintf(out, "%22s tracepoints io_uring_submit_%s, io_uring_complete (%s)\n",
					"", f->uring_submit_sqe ? "sqe" : "req",
					f->uring_complete_res ? "res" : "cqe");
			continue;
		}
		fprintf(out, "%22s %s; Linux %s has %s\n", "", f->why[id], fi->since, fi->needs);
		if (f->state[id] == FEAT_FALLBACK)
			fprintf(out, "%22s instead: %s\n", "", fi->fallback);
	}
}

int features__text(const struct features *f, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = 0;
	for (int id = 0; id < FEAT_MAX; id++)
		off += snprintf(buf + (off < len ? off : len), off < len ? len - off : 0, "%s%s=%s",
				id ? "," : "", info[id].name, state_name(f->state[id]));
	return off;
}
