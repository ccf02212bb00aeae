/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The session spec: the analyzers and sinks a session loads, each with its
 * key=value options, and the config file's groups of module settings.
 * Commands fill and edit it by name and value (spec__add, spec__set), so a
 * value is never re-read as text: a file name may hold any character. The
 * command line's NAME:key=value form is parsed once, by options_add_plugin.
 * The lists and their entries live in struct options (options.h), which the
 * config file and the command line fill together.
 */
#ifndef DIO_ENGINE_SPEC_H
#define DIO_ENGINE_SPEC_H

#include <stddef.h>
#include "options.h"

#define SPEC_ANALYZER	0
#define SPEC_SINK	1

/*
 * --analyzer NAME[:key=value[,key=value...]] and --sink (sink 1), also "all"
 * for analyzers: the command line's and the config file's text. Nothing is
 * added unless all of it is valid. 0 or -errno with a one-line message.
 */
int options_add_plugin(struct options *o, int sink, const char *text, char *err, size_t errlen);

/*
 * Append the module name (copied) to the analyzers (SPEC_ANALYZER) or the
 * sinks (SPEC_SINK), without options. The entry, owned by o, or NULL with a
 * message in err.
 */
struct plugin_sel *spec__add(struct options *o, int sink, const char *name, char *err,
			     size_t errlen);
/* Add key=value to s, both copied, said to come from the command line. 0 or -errno. */
int spec__set(struct plugin_sel *s, const char *key, const char *val, char *err, size_t errlen);

/*
 * A command's own sink: name, after the sinks the command line named, or in
 * place of the config file's when it named none (given: the command line
 * had --sink). The entry, or NULL with a message in err.
 */
struct plugin_sel *spec__own_sink(struct options *o, const char *name, int given, char *err,
				  size_t errlen);
/* Every analyzer, in place of the config file's, unless the command line named some. */
int spec__all_analyzers(struct options *o, int given, char *err, size_t errlen);
/*
 * --report PAGE: the html sink writing PAGE, beside the console unless
 * --sink named the sinks. 0 or -errno with a message.
 */
int spec__report(struct options *o, const char *page, char *err, size_t errlen);
/* --format json: the json sink on -o's file (default standard output). */
int spec__json(struct options *o, char *err, size_t errlen);
/*
 * --to URL[,key=value...] of dio push: the clickhouse sink with url=URL, its
 * other keys, and origin=push.
 */
int spec__push_to(struct options *o, const char *to, int given, char *err, size_t errlen);

/* A setting the command line gives a module beside its own key=value options. */
/* the most shortcuts one module gets */
#define SPEC_SHORTCUTS_MAX	12

struct spec_kv {
	const char *key, *val;
	int unset_only;		/* only when neither the config nor --sink/--analyzer set it */
};

/*
 * What the options say to the module name (a sink when sink): -o, -t, -T,
 * -q, --no-details and --hints are the console sink's options under strace's
 * names, and -e trace= that leaves calls out turns its proc, block and runq
 * lines off unless the sink's own options set them; -o sends the summary's tables to FILE too; a diff's analyzers write
 * their tables to /dev/null. Fills at most max entries of kv (strings owned
 * by o or static) in the order they apply; returns how many.
 */
int spec__shortcuts(const struct options *o, int sink, const char *name, struct spec_kv *kv,
		    int max);

#endif
