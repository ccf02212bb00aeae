/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dio top: the busiest processes, threads and files, counted in the kernel. */
#ifndef DIO_ENGINE_TOP_H
#define DIO_ENGINE_TOP_H

struct options;
struct top_args;

/*
 * Count what o names in kernel maps (o in count mode, as cmd/top.c sets
 * it) and show frames as args says until the end. Returns dio's exit status.
 */
int top__run(struct options *o, const struct top_args *args);

#endif
