/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A live session written to trace files: what dio record runs once its options are read. */
#ifndef DIO_ENGINE_RECORDER_H
#define DIO_ENGINE_RECORDER_H

struct options;

/*
 * Trace what o names into the trace file path (with o->max_size, parts
 * path.1, path.2, ...); argc/argv: the command line the file's metadata
 * keeps (a URL's password left out). Returns dio's exit status, having said
 * why when it is not 0 or DIO_EXIT_FINDINGS.
 */
int recorder__run(struct options *o, const char *path, int argc, char **argv);

#endif
