/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The BPF side: checks, load, attach of the selected tracepoints, counters. */
#ifndef DIO_ENGINE_PROBE_H
#define DIO_ENGINE_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <bpf/libbpf.h>
#include "options.h"

struct probe;
struct features;

/* Root or CAP_BPF+CAP_PERFMON, BTF, tracefs (mounted if missing). 0 or -errno with a one-line fix. */
int probe__check_machine(char *err, size_t errlen);

/*
 * Check the machine (root or CAP_BPF+CAP_PERFMON, BTF, tracefs), open and
 * load the BPF object with the settings in o, and attach the entry and exit
 * programs to the tracepoint of each selected syscall (a syscall without a
 * tracepoint on this kernel is warned about and skipped). Records go to cb.
 * Returns NULL with errno set and a one-line message in err.
 */
struct probe *probe__new(const struct options *o, ring_buffer_sample_fn cb, void *ctx, char *err,
			 size_t errlen);
void probe__free(struct probe *p);

/* Add a process (its threads and its future children) to what is traced. */
int probe__trace_pid(struct probe *p, pid_t pid);
/* Wait up to timeout_ms for records and hand all there are to cb. Returns records or -errno. */
int probe__poll(struct probe *p, int timeout_ms);
/* Hand everything already in the ring to cb. */
int probe__drain(struct probe *p);
/* Entries of the kernel's tag table (--tag-table): what DIO_CNT_TAG_NEW is measured against. */
uint32_t probe__tag_entries(const struct probe *p);
/* Sum the per-CPU loss counters: out[DIO_CNT_MAX]. */
int probe__counters(struct probe *p, uint64_t *out);
/*
 * Remove what the in-flight tables hold for nothing: file mappings and
 * io_uring requests of processes that are gone, and block requests older
 * than block_age_ns (counted as DIO_LOST_BLOCK_UNSEEN when they were wanted
 * and issued: their completion never reached dio). 0 or -errno.
 */
int probe__sweep(struct probe *p, uint64_t block_age_ns);
/* The fd of the BPF map called name (owned by p), or -ENOENT. */
int probe__map_fd(const struct probe *p, const char *name);
/* What the running kernel let the probe use (features.h); owned by p. */
const struct features *probe__features(const struct probe *p);
/* Number of tracepoints attached. */
int probe__attached(const struct probe *p);
/* The loaded BPF object, owned by p (--stats reads its programs' run times). */
struct bpf_object *probe__object(const struct probe *p);

#endif
