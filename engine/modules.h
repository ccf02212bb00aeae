/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The modules of a session: the analyzers and sinks the options name,
 * loaded, configured and started with the host table they are handed, and
 * the lists of who wants which record and who takes findings.
 */
#ifndef DIO_ENGINE_MODULES_H
#define DIO_ENGINE_MODULES_H

#include <stddef.h>
#include <dio/plugin.h>
#include "options.h"
#include "plugin.h"

#define MAX_PLUGINS	(2 * OPT_MAX_PLUGINS + 8)

/* The ctx a module's calls to the host carry: the host's state (host_ud) and the module. */
struct dio_ctx {
	void *host;
	struct plugin *p;
};

struct modules {
	const struct dio_host *host;	/* the table every module gets */
	void *host_ud;
	struct plugin plugins[MAX_PLUGINS];	/* in the order they were loaded */
	struct dio_ctx ctx[MAX_PLUGINS];
	int n;
	/* built as they start: who wants which record type, and the sinks of findings */
	struct plugin *by_type[DIO_EV_MAX][MAX_PLUGINS];
	int nby[DIO_EV_MAX];
	struct plugin *finding_sinks[MAX_PLUGINS];
	int nfinding;
};

/* An empty set, to hand to the parts that reach modules before they start; NULL on ENOMEM. */
struct modules *modules__new(void);
/*
 * Load and configure the sinks and analyzers o names (the console and
 * summary unless told otherwise), then start the sinks and then the
 * analyzers, each with host and a ctx that carries host_ud. 0, or -errno
 * with a one-line reason in err, which is empty when a module said why.
 */
int modules__start(struct modules *m, const struct options *o, const struct dio_host *host,
		   void *host_ud, char *err, size_t errlen);
/* Every started sink's flush; -EIO when one failed (it said why). */
int modules__flush(struct modules *m);
/* The end: every started analyzer's finish, or every sink's; 0 or the last -errno (said). */
int modules__finish_analyzers(struct modules *m);
int modules__finish_sinks(struct modules *m);
/* Every started analyzer's tick (those that have one); 0 or the last -errno (said). */
int modules__tick_analyzers(struct modules *m, uint64_t now_ns);
/* Analyzers first: their destroy may still report through sinks. NULL-safe. */
void modules__free(struct modules *m);

#endif
