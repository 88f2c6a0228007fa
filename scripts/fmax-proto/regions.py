# nextpnr --pre-place script: placement regions from the file $REGIONS, one
# line each: REGEX KIND X0 Y0 X1 Y1 (KIND: lc, ram or any; # starts a
# comment). A logic cell or block RAM goes to the region of the first line
# whose pattern its name matches. Lines with the same rectangle share one
# region: nextpnr 0.4's heap placer ran without end on overlapping regions
# and on regions filled beyond about 85% (docs/rtl-fmax-history.md,
# "2026-12-06, later"). Run as
#   REGIONS=fp.txt nextpnr-ice40 ... --pre-place scripts/fmax-proto/regions.py
import os
import re

spec, made, count = [], set(), {}
with open(os.environ["REGIONS"]) as f:
    for line in f:
        w = line.split("#")[0].split()
        if not w:
            continue
        x0, y0, x1, y1 = (int(v) for v in w[2:6])
        name = "r_%d_%d_%d_%d" % (x0, y0, x1, y1)
        if name not in made:
            ctx.createRectangularRegion(name, x0, y0, x1, y1)  # noqa: F821 (nextpnr's context)
            made.add(name)
        spec.append((re.compile(w[0]), w[1], name))
kinds = {"lc": ("ICESTORM_LC",), "ram": ("ICESTORM_RAM",), "any": ("ICESTORM_LC", "ICESTORM_RAM")}
for cname, cell in ctx.cells:  # noqa: F821
    for pat, kind, rname in spec:
        if cell.type in kinds[kind] and pat.search(cname):
            ctx.constrainCellToRegion(cname, rname)  # noqa: F821
            count[rname] = count.get(rname, 0) + 1
            break
print("regions.py: cells per region", count)
