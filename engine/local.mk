# SPDX-License-Identifier: GPL-2.0-or-later
# The engine is a static library (so unit tests link the same code); the dio program is cmd/.
noinst_LIBRARIES += engine/libdioengine.a
engine_libdioengine_a_CFLAGS = $(AM_CFLAGS) $(LIBBPF_CFLAGS) $(LIBCONFIG_CFLAGS) $(LIBZSTD_CFLAGS)
engine_libdioengine_a_SOURCES = \
	engine/syscalls.c engine/syscalls.h \
	engine/xlat.c engine/xlat.h \
	engine/format.c engine/format.h \
	engine/fstypes.c engine/fstypes.h \
	engine/decode.c engine/decode.h \
	engine/record.c engine/record.h \
	engine/tagtab.c engine/tagtab.h \
	engine/ofdtab.c engine/ofdtab.h \
	engine/plugin.c engine/plugin.h \
	engine/options.c engine/options.h \
	engine/spec.c engine/spec.h \
	engine/optdefs.c engine/optdefs.h \
	engine/config.c engine/config.h \
	engine/features.c engine/features.h \
	engine/probe.c engine/probe.h engine/ringrd.c engine/ringrd.h \
	engine/selfstats.c engine/selfstats.h \
	engine/session.c engine/session.h \
	engine/modules.c engine/modules.h \
	engine/verdict.c engine/verdict.h \
	engine/dispatch.c engine/dispatch.h \
	engine/host.c engine/host.h \
	engine/live.c engine/live.h \
	engine/proc.c engine/proc.h \
	engine/util.c engine/util.h \
	engine/cli.c engine/cli.h \
	engine/tracefile.c engine/tracefile.h \
	engine/weight.c engine/weight.h \
	engine/pack.c engine/pack.h \
	engine/loss.c engine/loss.h \
	engine/replay.c engine/replay.h \
	engine/progress.c engine/progress.h \
	engine/recorder.c engine/recorder.h \
	engine/lathist.c engine/lathist.h \
	engine/findings.c engine/findings.h \
	engine/jsonread.c engine/jsonread.h \
	engine/top.c engine/top.h \
	engine/sources.c engine/sources.h \
	engine/worktree.c engine/worktree.h
# probe.c includes the generated skeleton
engine/engine_libdioengine_a-probe.$(OBJEXT): bpf/dio.skel.h

DIO_ENGINE_LIBS = engine/libdioengine.a $(LIBBPF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS) $(LIBZSTD_LIBS) $(LIBCONFIG_LIBS)
