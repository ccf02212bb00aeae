/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the running kernel lets dio do. Kernels differ in kfuncs, tracepoint
 * prototypes and helpers; features__probe() reads the kernel's BTF once and
 * says, per feature, whether dio uses it natively, through a fallback that
 * gives the same records, or not at all (and why, and which Linux has it).
 * probe.c picks the BPF programs and switches from it.
 */
#ifndef DIO_ENGINE_FEATURES_H
#define DIO_ENGINE_FEATURES_H

#include <stddef.h>
#include <stdio.h>

enum feature {
	FEAT_FIELD_LOADS,	/* direct loads of kernel fields (bpf_rdonly_cast) */
	FEAT_EXIT_GROUP,	/* sched_process_exit's group_dead argument */
	FEAT_IOURING,		/* io_uring request tracking */
	FEAT_BLOCK,		/* block request tracking */
	FEAT_RUNQ,		/* run-queue waits */
	FEAT_MAX
};

enum feature_state {
	FEAT_NATIVE,		/* the kernel has it */
	FEAT_FALLBACK,		/* another way to the same records */
	FEAT_MISSING,		/* not on this kernel: those records do not come */
};

struct features {
	enum feature_state state[FEAT_MAX];
	unsigned int disabled;		/* bits of the features DIO_DISABLE_FEATURES named */
	int uring_submit_sqe;		/* the submit tracepoint is io_uring_submit_sqe (6.1) */
	int uring_complete_res;		/* io_uring_complete passes res, not the cqe (6.12 and before) */
	char kernel[65];		/* uname -r */
	char why[FEAT_MAX][192];	/* for each feature not native: why not */
};

/*
 * Read the running kernel's BTF into f. Features named in the environment
 * variable DIO_DISABLE_FEATURES (comma-separated, for tests and benchmarks of
 * the fallbacks) are taken as absent. 0, or -errno with a one-line message in
 * err (no BTF, or a kernel too old for dio at all, or an unknown name in
 * DIO_DISABLE_FEATURES).
 */
int features__probe(struct features *f, char *err, size_t errlen);

struct btf;
/* The same from a given BTF and list of disabled features (NULL: none); for tests. */
int features__from_btf(struct features *f, const struct btf *btf, const char *disable, char *err,
			size_t errlen);

/*
 * The helpers dio cannot run without, checked by loading a tiny program each
 * (root only). 0, or -errno with the Linux version that has them in err.
 */
int features__check_helpers(const struct features *f, char *err, size_t errlen);

const char *feature__name(enum feature id);

/*
 * One line for each feature that this kernel lacks and that wanted[id] asks
 * for (0: the user turned it off): what is missing, why, and which Linux has
 * it. A fallback gives the same records and says nothing.
 */
void features__warn(const struct features *f, const int wanted[FEAT_MAX]);

/* The table of dio list features. */
void features__print(const struct features *f, FILE *out);

/*
 * "name=state,name=state,..." for a trace file's metadata; snprintf-style
 * return.
 */
int features__text(const struct features *f, char *buf, size_t len);

#endif
