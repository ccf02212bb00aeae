# SPDX-License-Identifier: GPL-2.0-or-later
# Integration tests: run dio for real on workloads (root and BTF needed, else SKIP).
TESTS += tests/integration/trace-basic.sh
EXTRA_DIST += tests/integration/lib.sh tests/integration/trace-basic.sh
