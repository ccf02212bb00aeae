# SPDX-License-Identifier: GPL-2.0-or-later
# What the report sinks (sarif, junit) share, compiled into each: escaping for
# JSON and XML, the findings kept until the end, the rules of the session.
noinst_LTLIBRARIES += sinks/common/libreport.la
sinks_common_libreport_la_SOURCES = sinks/common/report.c sinks/common/report.h
