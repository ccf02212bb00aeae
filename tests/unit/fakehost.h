/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the fake hosts of the unit tests (fake_analyzer_host.h,
 * fake_sink_host.h) take from the engine instead of writing it again: a
 * module's options parsed and checked by engine/plugin.c, as dio parses
 * --analyzer NAME:key=value and --sink NAME:key=value.
 */
#ifndef DIO_TEST_FAKEHOST_H
#define DIO_TEST_FAKEHOST_H

#include <dio/plugin.h>

/*
 * Start a module's options over: options is its descriptor's table (ended
 * by a NULL name), name its name, sink whether it is a sink. Every option
 * takes its declared default, as dio gives it. The values are copied into
 * out (at most max of them): strings stay valid until the next reset.
 */
void fakehost_options(const struct dio_option *options, const char *name, int sink,
		      struct dio_optval *out, int max);
/*
 * Set one option as the command line would (marked set), or unset it (val
 * NULL: as a string option nobody gave), and copy the values into out again.
 * An unknown key or a bad value fails the test with dio's message.
 */
void fakehost_set(const char *key, const char *val, struct dio_optval *out, int max);

#endif
