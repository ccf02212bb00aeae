# SPDX-License-Identifier: GPL-2.0-or-later
sink_LTLIBRARIES += sinks/html/html.la
sinks_html_html_la_SOURCES = sinks/html/html.c sinks/html/timeline.c sinks/html/timeline.h
nodist_sinks_html_html_la_SOURCES = sinks/html/html-page.h
sinks_html_html_la_LDFLAGS = $(MODULE_LDFLAGS) -export-symbols-regex '^dio_sink$$'
sinks_html_html_la_LIBADD = sinks/common/libreport.la
# the page's markup, style and script, compiled in: a report fetches nothing
BUILT_SOURCES += sinks/html/html-page.h
CLEANFILES += sinks/html/html-page.h
EXTRA_DIST += sinks/html/page.html sinks/html/embed.sh sinks/html/README.md
sinks/html/html-page.h: $(srcdir)/sinks/html/page.html $(srcdir)/sinks/html/embed.sh
	@mkdir -p sinks/html
	$(AM_V_GEN)$(SHELL) $(srcdir)/sinks/html/embed.sh < $(srcdir)/sinks/html/page.html > $@.tmp && mv $@.tmp $@
