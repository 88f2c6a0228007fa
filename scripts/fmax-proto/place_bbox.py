#!/usr/bin/env python3
"""Where nextpnr put each part of a design: reads a placement written by
place_dump.py and prints, per part, the cell count and the x and y ranges
and medians of its tiles (block RAMs apart). A cell belongs to the first
pattern (a Python regular expression) its name matches; the match names
the part.
  scripts/fmax-proto/place_bbox.py PLACE.txt 'p\\.p\\.ctl' 'g_q\\[\\d+\\]' 'p\\.p\\.s\\d\\d'
"""
import collections
import re
import statistics
import sys


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) >= 2 else 2
    pats = [re.compile(p) for p in sys.argv[2:]]
    parts = collections.defaultdict(list)
    with open(sys.argv[1]) as f:
        for n, line in enumerate(f, 1):
            w = line.split()
            if len(w) != 3:
                print("%s:%d: expected NAME TYPE BEL" % (sys.argv[1], n), file=sys.stderr)
                return 1
            m = re.match(r"X(\d+)/Y(\d+)", w[2])
            if not m:
                continue
            key = next((hit.group(0) for hit in (p.search(w[0]) for p in pats) if hit), "other")
            if w[1] == "ICESTORM_RAM":
                key += " (block RAM)"
            parts[key].append((int(m.group(1)), int(m.group(2))))
    for key in sorted(parts):
        xs = [x for x, _ in parts[key]]
        ys = [y for _, y in parts[key]]
        print("%-32s %5d cells  x %2d..%2d (median %4.1f)  y %2d..%2d (median %4.1f)" % (
            key, len(xs), min(xs), max(xs), statistics.median(xs), min(ys), max(ys), statistics.median(ys)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
