# SPDX-License-Identifier: GPL-2.0-or-later
# Integration tests: run dio for real on the workloads in tests/workloads (root and
# BTF needed, else SKIP). lib.sh holds what they share: skip checks, the ext4 image,
# cleanup, and the checker of expected lines.
INTEGRATION_TESTS = tests/integration/trace-basic.sh tests/integration/trace-threads.sh \
	tests/integration/trace-reuse.sh tests/integration/trace-uring.sh \
	tests/integration/trace-filters.sh tests/integration/trace-exit.sh \
	tests/integration/trace-hash.sh tests/integration/trace-cgroup.sh \
	tests/integration/record-dump.sh tests/integration/record-rotate-time.sh tests/integration/trace-json.sh \
	tests/integration/record-seek.sh tests/integration/trace-block.sh \
	tests/integration/analyzer-latency.sh \
	tests/integration/json-schema.sh tests/integration/json-roundtrip.sh \
	tests/integration/analyzer-reuse-offset.sh tests/integration/analyzer-access-pattern.sh
# analyzers: a workload's buggy and fixed modes, inline == offline
INTEGRATION_TESTS += tests/integration/analyzer-redundant-open.sh
INTEGRATION_TESTS += tests/integration/analyzer-errors.sh
INTEGRATION_TESTS += tests/integration/analyzer-contention.sh
INTEGRATION_TESTS += tests/integration/analyzer-durability.sh tests/integration/diff-durability.sh
# --max-findings: a cap per finding code, and a note of what it left out
INTEGRATION_TESTS += tests/integration/findings-cap.sh
# --report-every: findings while the program runs, then updates; the end sees each once
INTEGRATION_TESTS += tests/integration/live-findings.sh tests/integration/live-latency.sh
# every lost record counted with its reason: full tables, missed completions, the writer
INTEGRATION_TESTS += tests/integration/trace-loss.sh
# paths seen from the process's root (chroot, mount namespaces)
INTEGRATION_TESTS += tests/integration/trace-root.sh
# open file descriptions: ids in records, ends made by the host (a real shell)
INTEGRATION_TESTS += tests/integration/trace-ofd.sh
# output files: private, and never written through a planted symbolic link
INTEGRATION_TESTS += tests/integration/output-files.sh
# bad input: one line, a non-zero status, at once (FIFOs given as files)
INTEGRATION_TESTS += tests/integration/bad-input.sh
# dio list rules: every analyzer's codes, as its README names them
INTEGRATION_TESTS += tests/integration/list-rules.sh
# -p of a thread, --tid of threads that end or never were (python3 threads)
INTEGRATION_TESTS += tests/integration/trace-ids.sh
INTEGRATION_TESTS += tests/integration/strace-habits.sh
# reading a big trace on a terminal: a progress line, erased at the end; none elsewhere
INTEGRATION_TESTS += tests/integration/progress.sh
# --sink adds to the console; -q with --sink: the named sinks alone
INTEGRATION_TESTS += tests/integration/sink-beside-console.sh
# paths too deep or too long for the kernel walk: marked where they were cut
INTEGRATION_TESTS += tests/integration/trace-longpath.sh
# dio with file capabilities (CAP_BPF, CAP_PERFMON) run by an ordinary user
INTEGRATION_TESTS += tests/integration/trace-caps.sh
# CI: a whole job: baseline, the new finding fails, dio diff, a suppression
INTEGRATION_TESTS += tests/integration/ci-job.sh
# CI: --fail-on exit status, suppressions, baselines, stable fingerprints
INTEGRATION_TESTS += tests/integration/ci-gate.sh
# run-queue waits are the machine's: --fail-on counts them only when named
INTEGRATION_TESTS += tests/integration/machine-findings.sh
# baselines judge patterns, not thresholds; one fingerprint is one finding
INTEGRATION_TESTS += tests/integration/baseline-patterns.sh
# a trace file cut short while dump reads it: said, never SIGBUS
INTEGRATION_TESTS += tests/integration/read-shrink.sh
# a flood of 4 million calls recorded without a loss, counted from the file
INTEGRATION_TESTS += tests/integration/record-flood.sh
# 32 and 64 busy threads on 2 CPUs recorded without a loss: weight, and the writer's pace
INTEGRATION_TESTS += tests/integration/record-busy.sh
# dio report: the page's figures against dio info's, in headless Chromium
INTEGRATION_TESTS += tests/integration/report-demo.sh
# dio report's timeline, offset and rate series against the records, and the views in Chromium
INTEGRATION_TESTS += tests/integration/report-views.sh
# version 1 trace files, written before the packed zstd blocks, still read
INTEGRATION_TESTS += tests/integration/read-v1.sh
EXTRA_DIST += tests/fixtures/v1.dio tests/fixtures/v1.dump
# the common JUnit schema (Jenkins' xUnit plugin), which the JUnit reports are checked against
EXTRA_DIST += tests/fixtures/junit-10.xsd
# a replay's every output is the same on a machine booted a minute ago, in another time
# zone, with another host name and CPU count
INTEGRATION_TESTS += tests/integration/replay-anywhere.sh
# records that lie inside an intact trace file: checked once, left out, counted
INTEGRATION_TESTS += tests/integration/crafted-records.sh
# records that pass the check with extreme values: no undefined behaviour in any reader
INTEGRATION_TESTS += tests/integration/crafted-extremes.sh
# an analyzer table too small for the trace: reported, with the option to raise
INTEGRATION_TESTS += tests/integration/analyzer-tables.sh
# a killed dio record keeps what it recorded up to about a second before
INTEGRATION_TESTS += tests/integration/record-kill.sh
# modules and config files: only from places no one else can write
INTEGRATION_TESTS += tests/integration/plugin-trust.sh
# dio dump/analyze --from SCHEME:... through the module that offers it, or refused naming it
INTEGRATION_TESTS += tests/integration/source-module.sh
# kernel features: listed, degraded with one line, recorded; the fallbacks give the same records
INTEGRATION_TESTS += tests/integration/trace-features.sh tests/integration/trace-fallbacks.sh
# dio diff: a workload before and after a change, a trace against itself, bad input
INTEGRATION_TESTS += tests/integration/diff.sh
# dio top: counts in kernel maps equal a workload's known calls, frame by frame and in total
INTEGRATION_TESTS += tests/integration/top-basic.sh
# dio top: rows of exited threads added up past 4096, those gone unseen swept
INTEGRATION_TESTS += tests/integration/top-exited.sh
# dio top: files named as dio trace names them (a pipe is pipe:[INODE])
INTEGRATION_TESTS += tests/integration/top-names.sh
INTEGRATION_TESTS += tests/integration/names-escaped.sh
INTEGRATION_TESTS += tests/integration/report-files.sh tests/integration/report-threads.sh
# any file name for the page of dio report and the JSON of --format json
INTEGRATION_TESTS += tests/integration/output-names.sh
INTEGRATION_TESTS += tests/integration/trace-tagtab.sh
# the host's per-process tables: processes gone unseen are swept
INTEGRATION_TESTS += tests/integration/trace-ofd-sweep.sh
# dio record --max-size repeats the paths of the files used last, not of all
INTEGRATION_TESTS += tests/integration/record-part-paths.sh
# the README's first command
INTEGRATION_TESTS += tests/integration/readme-demo.sh
TESTS += $(INTEGRATION_TESTS)
EXTRA_DIST += tests/integration/lib.sh $(INTEGRATION_TESTS)
# the trace file reader of json-roundtrip.sh, written from docs/trace-format.md
EXTRA_DIST += tests/integration/tracefile_reader.py
# a writer of intact trace files around crafted records (crafted-records.sh)
EXTRA_DIST += tests/integration/tracefile_writer.py

# the SDK: make install, the example analyzer built with pkg-config and loaded by path and name
INTEGRATION_TESTS += tests/integration/sdk-example.sh
# the report sinks: SARIF valid under the official schema, stable fingerprints, JUnit,
# baselines and suppressions in both (the schema is read from ../shared/schemas)
INTEGRATION_TESTS += tests/integration/ci-reports.sh
# make install's deployment kit: no .la, units systemd-analyze verify takes, the spool's
# tmpfiles.d entry, the sample config, the docs; make uninstall removes it all
INTEGRATION_TESTS += tests/integration/deploy.sh
# SARIF inside a git work tree: URIs relative to its top, nothing outside it physical
INTEGRATION_TESTS += tests/integration/sarif-repo.sh
# --stats: figures consistent with a workload's known calls and the trace file; the kernel's
# BPF statistics back as they were; --bench-floor runs the programs and sends nothing
INTEGRATION_TESTS += tests/integration/trace-stats.sh
# the reader of the BPF ring on a real one-page ring: order, wrap, discards, stops, space
INTEGRATION_TESTS += tests/integration/ringrd.sh
check_PROGRAMS += tests/integration/ringrd-check
tests_integration_ringrd_check_SOURCES = tests/integration/ringrd-check.c
tests_integration_ringrd_check_CFLAGS = $(TEST_ENGINE_CFLAGS)
tests_integration_ringrd_check_LDADD = $(DIO_ENGINE_LIBS)
