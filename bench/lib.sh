# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the benchmarks: the checks they make before measuring, and the
# best-of-rounds they report. Each sets dio (and what else it needs) first.
bench=$(basename "$0")
here=$(cd "$(dirname "$0")" && pwd)
prog=$here/callcost

bench_die() { echo "$bench: $*" >&2; exit 1; }
# dio loads BPF programs
need_root() { [ "$(id -u)" -eq 0 ] || bench_die "run as root (dio needs BPF)"; }
need_dio() { [ -x "$dio" ] || bench_die "$dio not found: build dio first or pass its path"; }
need_callcost() { [ -x "$prog" ] || bench_die "$prog not found: run make first"; }
# the workload on CPU 0, dio's consumer on CPU 1
need_two_cpus() { [ "$(nproc)" -ge 2 ] || bench_die "needs 2 CPUs (workload and consumer apart)"; }
# best OLD NEW: the smaller, NEW when there is no OLD yet
best() { [ -z "$1" ] && echo "$2" || echo "$1 $2" | awk '{ print ($1 < $2) ? $1 : $2 }'; }
