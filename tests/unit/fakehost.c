// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fake hosts' options, set by the engine's own parser (engine/plugin.c)
 * on a module the test links in instead of loading it: the same defaults,
 * the same checks and the same values as dio's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "engine/plugin.h"
#include "fakehost.h"

static struct plugin mod;

static void copy_out(struct dio_optval *out, int max)
{
	assert_true(mod.nopts <= max);
	memset(out, 0, max * sizeof(*out));
	memcpy(out, mod.opts, mod.nopts * sizeof(*out));
}

void fakehost_options(const struct dio_option *options, const char *name, int sink,
		      struct dio_optval *out, int max)
{
	char err[512];
	int n = 0;

	plugin__unload(&mod);
	while (options && options[n].name)
		n++;
	mod.kind = sink ? PLUGIN_SINK : PLUGIN_ANALYZER;
	mod.name = name;
	mod.options = options;
	mod.nopts = n;
	mod.opts = calloc(n + 1, sizeof(*mod.opts));
	mod.owned = calloc(n + 1, sizeof(*mod.owned));
	assert_non_null(mod.opts);
	assert_non_null(mod.owned);
	err[0] = 0;
	if (plugin__configure(&mod, NULL, NULL, err, sizeof(err)))
		fail_msg("%s", err);
	copy_out(out, max);
}

void fakehost_set(const char *key, const char *val, struct dio_optval *out, int max)
{
	char err[512];

	if (val) {
		if (plugin__set(&mod, key, val, "test", err, sizeof(err)))
			fail_msg("%s", err);
	} else {
		int i = 0;

		while (i < mod.nopts && strcmp(mod.options[i].name, key))
			i++;
		if (i == mod.nopts)
			fail_msg("no option %s", key);
		free(mod.owned[i]);
		mod.owned[i] = NULL;
		memset(&mod.opts[i], 0, sizeof(mod.opts[i]));
	}
	copy_out(out, max);
}
