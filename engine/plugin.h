/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loading analyzer and sink modules through the versioned ABI. */
#ifndef DIO_ENGINE_PLUGIN_H
#define DIO_ENGINE_PLUGIN_H

#include <stdio.h>
#include <dio/analyzer.h>
#include <dio/sink.h>
#include <dio/source.h>
#include "options.h"

#define PLUGIN_ANALYZER	0
#define PLUGIN_SINK	1
#define PLUGIN_SOURCE	2	/* found where sinks are: a module may offer both */

/* Size of each descriptor as of ABI 1: the least a module may declare. */
#define DIO_ANALYZER_SIZE_V1	(offsetof(struct dio_analyzer, destroy) + sizeof(void *))
#define DIO_SINK_SIZE_V1	(offsetof(struct dio_sink, destroy) + sizeof(void *))
#define DIO_SOURCE_SIZE_V1	(offsetof(struct dio_source, close) + sizeof(void *))
/* Whether a module's descriptor (size as it declares) has a field appended after ABI 1 began. */
#define PLUGIN_HAS(desc, field) \
	((desc)->size >= offsetof(__typeof__(*(desc)), field) + sizeof((desc)->field))

struct plugin {
	int kind;			/* PLUGIN_* */
	char *file;			/* the shared object that was loaded */
	void *dl;
	const struct dio_analyzer *an;
	const struct dio_sink *sk;
	const struct dio_source *so;
	const char *name;		/* from the descriptor */
	const struct dio_option *options;
	int nopts;
	struct dio_optval *opts;	/* nopts values */
	char **owned;			/* strings behind opts[].s */
	void *state;			/* the module's, after init */
	int inited;
	int logged;			/* lines it logged through the host */
	struct dio_ctx *ctx;		/* the host's context for this module */
};

/*
 * Find and load a module: NAME is looked up in the directories of
 * $DIO_ANALYZER_PATH / $DIO_SINK_PATH (NAME.so or, in a build tree,
 * NAME/.libs/NAME.so) and then in the installed module directory; a NAME with a
 * '/' is a file. The module's descriptor must match the host's ABI. 0, or
 * -errno with a one-line message naming the file (and both ABI versions when
 * they differ). p is zeroed first; on failure nothing stays loaded.
 */
int plugin__load(struct plugin *p, int kind, const char *name, char *err, size_t errlen);

/*
 * Fill p->opts: the module's defaults, then its config-file group (matched by
 * name), then the key=value pairs given with --analyzer/--sink. An unknown
 * key or a bad value: -EINVAL, "FILE:LINE: ..." or "--sink console: ...".
 */
int plugin__configure(struct plugin *p, const struct options *o, const struct plugin_sel *sel,
		      char *err, size_t errlen);

/* Set one option from text; where names its origin for messages. 0 or -EINVAL with a message. */
int plugin__set(struct plugin *p, const char *key, const char *val, const char *where,
		char *err, size_t errlen);

/* Destroy the module's state (if it was initialised) and unload it. NULL-safe. */
void plugin__unload(struct plugin *p);

/*
 * Print the modules of one kind found on the search path, in the order of the
 * path and by file name within a directory: "name  description", then a line
 * per option. Returns how many.
 */
int plugin__list(int kind, FILE *out);

/*
 * The names of the modules of one kind, as plugin__list finds them, in its
 * order: *names is an array of n copies the caller frees with
 * plugin__free_names. Returns n, or -ENOMEM (*names NULL).
 */
int plugin__names(int kind, char ***names);
void plugin__free_names(char **names, int n);

/*
 * Print the rules of every analyzer on the search path, in the order
 * plugin__list takes, then own (the host's, ended by a NULL code; may be
 * NULL): "code  severity  title", one a line. An analyzer that declares none
 * is named on stderr. Returns how many analyzers were found.
 */
int plugin__list_rules(FILE *out, const struct dio_rule *own);

#endif
