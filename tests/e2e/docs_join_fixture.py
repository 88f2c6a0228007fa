#!/usr/bin/env python3
"""For tests/e2e/docs_check.sh: a results folder of two made-up
definitions over the same grid (m: a map-like sweep, s: a sim-like one)
and a doc whose table joins them ("also" with "exp") and takes a ratio
against each row's own reference ("row_base"), rendered by docs_tables.py
render; then copies with one joined cell and one ratio cell changed, and
prose with a quoted cell and a typed number (for `typed`).

    docs_join_fixture.py DIR"""
import json
import os
import sys

out = sys.argv[1]
grid = {"table": ["t1", "t2"], "opt": ["ref", "new"]}
for name in ("m", "s"):
    os.makedirs(os.path.join(out, "records", name), exist_ok=True)
    json.dump({"name": name, "params": grid}, open(os.path.join(out, "experiments", name + ".json"), "w"))
k = 0
for ti, t in enumerate(grid["table"]):
    for oi, o in enumerate(grid["opt"]):
        p = {"table": t, "opt": o}
        m = {"bits": 1000 * (ti + 1) + 100 * oi}
        s = {"lpc": 0.5 + 0.25 * oi + 0.125 * ti}
        for name, met in (("m", m), ("s", s)):
            json.dump({"experiment": name, "params": p, "metrics": met},
                      open(os.path.join(out, "records", name, "%d.json" % k), "w"))
        k += 1
mk = {"exp": "m", "also": {"sim": {"exp": "s"}}, "row_base": {"opt": "ref"}, "rows": ["table", "opt"],
      "cols": [{"label": "bits", "cell": "{bits:,}"}, {"label": "LPC", "cell": "{sim_lpc:.3f}"},
               {"label": "vs ref", "cell": "=format(bits / base_bits, '.3f')"}], "corner": ["table", "opt"]}
doc = ["# fixture", "", "<!-- report-table %s -->" % json.dumps(mk), "| x |", "|---|", "",
       "The new option's LPC is 0.875 on t2 (a quoted cell); it ran at 12.5 GHz (typed).", "",
       "<!-- not measured (quote): 7.25 -->",
       "The paper's 7.25 GHz (a quote its marker lists) beside 3.75 GHz (typed: not listed", "in the marker).", "",
       "Issue 20, section 3.1, slide 13, 2^26 entries and 2001::/16 at 22:06 UTC pass.", ""]
open(os.path.join(out, "join.md"), "w").write("\n".join(doc))
