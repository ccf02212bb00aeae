#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What a dio report page's offset view shows of a log follower after a truncation.

    offsets.py PAGE.html PATH

For the file PATH in the page's offset view: the time the writing series starts
again at offset 0 after it had written above it (the file was cut), and for
each reading series, how many stretches of time after that cut hold reads that
returned nothing at offsets above all that was written since: a reader at a
stale offset, as the DIO study's plot shows it. One line per reading series,
"PID COMM stale=N after=M" (M: stretches with reads after the cut); exit 1 when
the page has no such file or no cut.
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import model  # noqa: E402


def main():
    d = model.page_data(sys.argv[1])
    series = [s for s in d["offsets"]["offsets"] if s["path"] == sys.argv[2]]
    writes = sorted(c for s in series if s["op"] == "write" for c in s["cells"])
    if not series or not writes:
        sys.exit("no writes to %s in the offset view" % sys.argv[2])
    top, cut = 0, None
    for c in writes:
        if c[1] == 0 and top > 0 and cut is None:
            cut = c[0]
        top = max(top, c[2])
    if cut is None:
        sys.exit("the writes to %s never start again at 0" % sys.argv[2])
    for s in series:
        if s["op"] != "read":
            continue
        stale = after = 0
        for c in s["cells"]:
            if c[0] < cut:
                continue
            after += 1
            written = max((w[2] for w in writes if cut <= w[0] <= c[0]), default=0)
            stale += c[4] > 0 and c[1] > written
        print("%d %s stale=%d after=%d" % (s["pid"], s["comm"], stale, after))


if __name__ == "__main__":
    main()
