# nextpnr --post-route script: writes every placed cell's name, type and bel
# to $PLACE_DUMP (default place.txt), for place_bbox.py
# (docs/rtl-fmax-history.md, "2026-12-06, later"). Run as
#   PLACE_DUMP=p.txt nextpnr-ice40 ... --post-route scripts/fmax-proto/place_dump.py
import os

with open(os.environ.get("PLACE_DUMP", "place.txt"), "w") as out:
    for name, cell in ctx.cells:  # noqa: F821 (nextpnr's context)
        out.write("%s %s %s\n" % (name, cell.type, cell.bel))
