# SPDX-License-Identifier: GPL-2.0-or-later
# The dio program: one file per command, found by the table in main.c. The
# commands are a static library too, so unit tests (test_diff) link them.
noinst_LIBRARIES += cmd/libdiocmd.a
cmd_libdiocmd_a_CFLAGS = $(AM_CFLAGS) $(LIBBPF_CFLAGS) $(LIBCONFIG_CFLAGS)
cmd_libdiocmd_a_SOURCES = \
	cmd/cmd.h \
	cmd/trace.c cmd/list.c cmd/record.c cmd/replay.c cmd/report.c cmd/push.c \
	cmd/info.c cmd/diff.c cmd/diff.h cmd/top.c

bin_PROGRAMS += dio
dio_SOURCES = cmd/main.c
dio_CFLAGS = $(AM_CFLAGS) $(LIBBPF_CFLAGS) $(LIBCONFIG_CFLAGS)
dio_LDADD = cmd/libdiocmd.a $(DIO_ENGINE_LIBS)
