# SPDX-License-Identifier: GPL-2.0-or-later
# What make install puts in place to run dio continuously (docs/operations.md): the
# systemd units, the tmpfiles.d entry of the spool and the recordings, a sample
# /etc/dio config. Where systemd looks for them below the prefix (/usr/local/lib/systemd
# and /usr/lib/systemd are both searched); a package sets these to its own.
systemdsystemunitdir = $(prefix)/lib/systemd/system
tmpfilesdir = $(prefix)/lib/tmpfiles.d
diosysconfdir = $(sysconfdir)/dio

dist_diosysconf_DATA = deploy/dio.conf.sample
EXTRA_DIST += deploy/dio.service.in deploy/dio@.service.in deploy/dio.tmpfiles.in

# the units name the paths of this install (make install prefix=... included), so they
# are written at install time
deploy_subst = sed -e 's|@bindir[@]|$(bindir)|g' -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
	-e 's|@docdir[@]|$(docdir)|g'
install-data-local:
	$(MKDIR_P) '$(DESTDIR)$(systemdsystemunitdir)' '$(DESTDIR)$(tmpfilesdir)'
	$(deploy_subst) $(srcdir)/deploy/dio.service.in > '$(DESTDIR)$(systemdsystemunitdir)/dio.service'
	$(deploy_subst) $(srcdir)/deploy/dio@.service.in > '$(DESTDIR)$(systemdsystemunitdir)/dio@.service'
	$(INSTALL_DATA) $(srcdir)/deploy/dio.tmpfiles.in '$(DESTDIR)$(tmpfilesdir)/dio.conf'
uninstall-local:
	rm -f '$(DESTDIR)$(systemdsystemunitdir)/dio.service' \
		'$(DESTDIR)$(systemdsystemunitdir)/dio@.service' '$(DESTDIR)$(tmpfilesdir)/dio.conf'

# the documents dio(1), --help and dio list point to, below the doc directory as in the source
dist_doc_DATA += README.md
nobase_dist_doc_DATA = docs/ci.md docs/clickhouse.md docs/operations.md docs/diagnosis.md \
	docs/json-schema.md docs/json-schema.json docs/trace-format.md docs/performance.md \
	docs/writing-an-analyzer.md docs/dio.conf.example \
	analyzers/access-pattern/README.md analyzers/contention/README.md \
	analyzers/errors/README.md analyzers/latency/README.md \
	analyzers/redundant-open/README.md analyzers/reuse-offset/README.md \
	analyzers/summary/README.md \
	sinks/clickhouse/README.md sinks/console/README.md sinks/html/README.md \
	sinks/json/README.md sinks/junit/README.md sinks/sarif/README.md

# Modules are loaded with dlopen by path: their libtool archives (.la) are of no use
# installed, and libtool's "remember to run libtool --finish" is about a library path
# the dynamic linker would search, which these directories are not.
install-data-hook:
	for m in $(analyzer_LTLIBRARIES); do rm -f "$(DESTDIR)$(analyzerdir)/$${m##*/}"; done
	for m in $(sink_LTLIBRARIES); do rm -f "$(DESTDIR)$(sinkdir)/$${m##*/}"; done
# (libtool's uninstall goes by the .la, gone: the modules themselves)
uninstall-hook:
	for m in $(analyzer_LTLIBRARIES); do b=$${m##*/}; rm -f "$(DESTDIR)$(analyzerdir)/$${b%.la}.so"; done
	for m in $(sink_LTLIBRARIES); do b=$${m##*/}; rm -f "$(DESTDIR)$(sinkdir)/$${b%.la}.so"; done
