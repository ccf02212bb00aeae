# SPDX-License-Identifier: GPL-2.0-or-later
diodir = $(includedir)/dio
dio_HEADERS = include/dio/event.h include/dio/plugin.h include/dio/analyzer.h include/dio/sink.h \
	include/dio/source.h include/dio/hist.h
