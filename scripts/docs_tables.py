#!/usr/bin/env python3
"""The generated tables of docs/results-*.md, drawn from `lpmpipe report`
records (docs/cli-report.md, "Results docs").

A generated table is the markdown table right below a marker line:

    <!-- report-table {"exp": "camp-slide12", "where": {"dispatch": "CAMP: W=1 in order"},
         "rows": "queue", "cols": "burst", "cell": "{lpc:.3f}", "corner": "queue \\\\ burst"} -->

(one line of JSON). Keys: exp (the definition's name), where (parameter
label -> value every cell's record must have), rows and cols (a parameter,
whose values come in the definition's order, or a list of
{"label": TEXT or [TEXT, ...], "where": {...}, "cell", "base", "timing"}:
"row:FIELD" in a where picks one element of the record's rows, e.g.
bench's per-engine rows; a row's "base" is the record its base_ fields
come from, so that a ratio is taken within one run; a column with
"timing": true holds figures of the machine that ran them, checked for
shape only, a number where the doc has one: ratios of timings taken
within one run (a doc shows no absolute wall-clock figure), peak memory,
load), also ({PREFIX: {where
changes}}: more records of each cell, e.g. the same point at D = 2, whose
fields come as PREFIX_NAME; "exp": NAME in the changes takes the same
point of another definition, e.g. the simulation of a map's image),
row_base (where changes to each row's own where: its base record, e.g.
the same table's reference mapping), cell (a Python format string over the
record's kept fields and parameters: "{lpc:.3f} ({utilisation:.2f})",
"{words:,}"), corner (the top-left cell), row_head (a format string for
the row label, default the value), tol (cells compared as numbers within
this absolute tolerance instead of as text; for rates that may move).

    docs_tables.py render DOC... --results DIR [--exp NAME]... [--partial]
                                                 rewrite the tables from DIR's records
                                                 (--partial: leave a table that lacks
                                                 records as it is, said, instead of stopping)
    docs_tables.py check DOC... --results DIR [--exp NAME]...
                                                 every cell whose record DIR holds
                                                 must equal the doc (exit 1 if not);
                                                 --exp: only the tables of these sweeps;
                                                 --present: tables of sweeps without any
                                                 record are passed over (said, not failed)
    docs_tables.py validate DOC... --defs DIR    without records: every marker names a
                                                 definition of DIR (reports/) and its
                                                 parameters, and the table's header and
                                                 row labels are what it renders
    docs_tables.py list DOC...                   the markers: definition and cell count
    docs_tables.py typed DOC... [--marked] [--check]
                                                 lines with numbers outside generated tables
                                                 and code: figures still typed by hand
                                                 (--marked: also those a `not measured`
                                                 marker lists: quotes, parameters, aims;
                                                 --check: exit 1 when a line is listed)

render refuses a table with a cell that has no record (the doc would lie);
check compares only the cells that were re-run (make docs-check runs a
subset of each sweep) and fails when a table has none."""
import json
import os
import re
import sys

MARK = re.compile(r"^<!-- report-table (\{.*\}) -->\s*$")


def load_results(d):
    """Records from DIR/records/NAME/KEY.json (results.jsonl is written
    only at the end of a run), definitions from DIR/experiments."""
    recs, defs = {}, {}
    rd = os.path.join(d, "records")
    for name in sorted(os.listdir(rd)) if os.path.isdir(rd) else []:
        for f in sorted(os.listdir(os.path.join(rd, name))):
            if f.endswith(".json"):
                r = json.load(open(os.path.join(rd, name, f), encoding="utf-8"))
                recs.setdefault(r["experiment"], []).append(r)
    ed = os.path.join(d, "experiments")
    if os.path.isdir(ed):
        for f in os.listdir(ed):
            if f.endswith(".json"):
                defs[f[:-5]] = json.load(open(os.path.join(ed, f), encoding="utf-8"))
    return recs, defs


def label(v):
    return v["label"] if isinstance(v, dict) else v


def same(a, b):
    return a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float)) and float(a) == float(b))


def param_values(d, defs, exp, name):
    """The parameter's values in the definition's order: (label, value)."""
    if exp not in defs:
        raise SystemExit("%s: no definition %s in the results folder" % (d, exp))
    vals = defs[exp]["params"].get(name)
    if vals is None:
        raise SystemExit("%s: %s is no parameter of %s" % (d, name, exp))
    return [(label(x), x) for x in vals]


def axis(spec, d, name, defs, exp):
    """[(label texts, where dict, cell format or None)] for rows or cols.
    A list of parameter names is their product (first slowest), limited to
    spec["values"][param] where given; spec["label"][param] is an
    expression over a value's fields that writes its label cell."""
    v = spec.get(name)
    if isinstance(v, list) and v and isinstance(v[0], dict):
        return [(x["label"] if isinstance(x["label"], list) else [x["label"]], x.get("where", {}),
                 x.get("cell"), x.get("base"), x.get("timing"))
                for x in v]
    names = v if isinstance(v, list) else [v]
    keep, lab = spec.get("values", {}), spec.get("label", {})
    out = [([], {}, None, None, None)]
    for n in names:
        vals = [(l, x) for l, x in param_values(d, defs, exp, n) if n not in keep or l in keep[n]]
        texts = [fmt(lab[n], dict(x) if isinstance(x, dict) else {"value": x}) if n in lab else l for l, x in vals]
        out = [(t + [tx], dict(w, **{n: l}), None, None, None) for t, w, *_ in out for (l, _), tx in zip(vals, texts)]
    return out


def find(recs, where):
    """The record whose parameters match where; "row:FIELD" keys pick one
    element of its rows (bench's per-engine rows), whose fields then join
    the record's metrics."""
    pw = {k: w for k, w in where.items() if not k.startswith("row:")}
    rw = {k[4:]: w for k, w in where.items() if k.startswith("row:")}
    hits = [r for r in recs if all(k in r["params"] and same(r["params"][k], w) for k, w in pw.items())]
    if len(hits) > 1:
        raise SystemExit("more than one record for %s" % json.dumps(where))
    if not hits or not rw:
        return hits[0] if hits else None
    rows = [x for x in hits[0].get("rows") or [] if all(k in x and same(x[k], w) for k, w in rw.items())]
    if len(rows) > 1:
        raise SystemExit("more than one row for %s" % json.dumps(where))
    return dict(hits[0], metrics=dict(hits[0]["metrics"], **rows[0])) if rows else None


def fields_of(r, prefix=""):
    f = {prefix + k: v for k, v in r["params"].items()}
    f.update({prefix + k: v for k, v in r["metrics"].items()})  # None (a "?path" absent) stays: "=''
                                                                # if x is None else ..." can test it
    return f


def fmt(cell, f):
    """A format string, or after '=' a Python expression over the fields."""
    if cell.startswith("="):
        # one namespace: a generator in the expression sees the fields too
        g = {"__builtins__": {"abs": abs, "format": format, "round": round, "len": len, "min": min, "max": max, "str": str, "sum": sum}}
        g.update(f)
        return str(eval(cell[1:], g))
    return cell.format(**f)


def head_cells(spec, rows, cols):
    corner = spec.get("corner", "")
    corner = corner if isinstance(corner, list) else [corner]
    return corner + [spec.get("col_head", "{}").format(c[0][0]) if c[0] else "" for c in cols]


def render_table(doc, spec, recs, defs):
    """(header, align, body): body rows are (label cells, cells), a cell
    None where no record is."""
    exp = spec["exp"]
    rows = axis(spec, doc, "rows", defs, exp)
    cols = axis(spec, doc, "cols", defs, exp)
    base = spec.get("where", {})
    head = head_cells(spec, rows, cols)
    nlab = len(head) - len(cols)
    lab_align = "---|" if spec.get("left_rows", True) else "---:|"
    align = "|" + lab_align * nlab + "---:|" * len(cols)
    body = []
    for rl, rw, rf, rbase, _ in rows:  # rf: a row's own cell (a table of one column)
        # the base record: the row's own ("base" in a row entry: a ratio
        # within one run) or the table's
        bw = rbase if rbase is not None else spec.get("base")
        if spec.get("row_base") is not None:  # the row's own record with these changes
            bw = dict(rw, **spec["row_base"])
        b = find(recs.get(exp, []), dict(base, **bw)) if bw is not None else None
        cells = []
        for _, cw, cf, _, _ in cols:
            w = dict(base)
            w.update(rw)
            w.update(cw)
            r = find(recs.get(exp, []), w)
            # "also": {PREFIX: where}: more records of the same cell (its
            # where with these changes), their fields as PREFIX_NAME
            # ("exp" in them: the same point of another definition)
            more = {p: find(recs.get(aw.get("exp", exp), []), dict(w, **{k: v for k, v in aw.items() if k != "exp"}))
                    for p, aw in spec.get("also", {}).items()}
            if r and (bw is None or b) and all(more.values()):
                f = fields_of(r)
                if b:
                    f.update(fields_of(b, "base_"))
                for p, m in more.items():
                    f.update(fields_of(m, p + "_"))
                cells.append(fmt(cf or rf or spec["cell"], f))
            else:
                cells.append(None)
        labs = [spec.get("row_head", "{}").format(x) if isinstance(x, (int, float)) else str(x) for x in rl]
        body.append((labs, cells))
    return "| " + " | ".join(head) + " |", align, body


def timing_cells(spec, d, defs):
    """(row, column) indexes of the cells that are timings of the machine
    that ran them (a column or row entry with "timing": true): checked for
    shape only."""
    rows = axis(spec, d, "rows", defs, spec["exp"])
    cols = axis(spec, d, "cols", defs, spec["exp"])
    return {(i, k) for i, r in enumerate(rows) for k, c in enumerate(cols) if r[4] or c[4]}


def tables(lines):
    """(marker line index, spec, first table line, end) for every marker."""
    out = []
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if not m:
            continue
        spec = json.loads(m.group(1))
        j = i + 1
        while j < len(lines) and lines[j].startswith("|"):
            j += 1
        out.append((i, spec, i + 1, j))
    return out


def cmd_render(docs, d, only, partial=False):
    recs, defs = load_results(d)
    for doc in docs:
        lines = open(doc, encoding="utf-8").read().split("\n")
        for i, spec, a, b in reversed(tables(lines)):
            if only and spec["exp"] not in only:
                continue
            head, align, body = render_table(doc, spec, recs, defs)
            missing = [(rl, k) for rl, cells in body for k, c in enumerate(cells) if c is None]
            if missing and partial:
                print("docs tables: %s:%d (%s): left as it is, %d cells have no record" % (doc, i + 1, spec["exp"], len(missing)))
                continue
            if missing:
                raise SystemExit("%s:%d: %s: %d cells have no record (first: row %s)" %
                                 (doc, i + 1, spec["exp"], len(missing), missing[0][0]))
            new = [head, align] + ["| %s |" % " | ".join(rl + cells) for rl, cells in body]
            lines[a:b] = new
        open(doc, "w", encoding="utf-8").write("\n".join(lines))
        print("docs tables: %s rendered from %s" % (doc, d))
    return 0


def parse_doc_table(lines):
    rows = []
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append(cells)
    return rows


NUM = re.compile(r"-?[0-9][0-9,]*\.?[0-9]*")


def shape(a, b):
    """A timing cell: the same text around the numbers, a number wherever
    the run has one (the values differ from machine to machine)."""
    return NUM.sub("#", a) == NUM.sub("#", b)


def close(a, b, tol):
    if tol is None:
        return a == b
    try:
        x = [float(t) for t in re.findall(r"-?[0-9][0-9,]*\.?[0-9]*", a.replace(",", ""))]
        y = [float(t) for t in re.findall(r"-?[0-9][0-9,]*\.?[0-9]*", b.replace(",", ""))]
    except ValueError:
        return a == b
    return len(x) == len(y) and all(abs(p - q) <= tol for p, q in zip(x, y))


def load_defs(d):
    """The definitions of DIR and of DIR/long (the sweeps of minutes a
    point that make report runs with REPORT_LONG=1)."""
    defs = {}
    for sub in (d, os.path.join(d, "long")):
        for f in sorted(os.listdir(sub)) if os.path.isdir(sub) else []:
            if f.endswith(".json"):
                x = json.load(open(os.path.join(sub, f), encoding="utf-8"))
                defs[x["name"]] = x
    return defs


def cmd_check(docs, d, only, defs_dir=None, present=False):
    recs, defs = ({}, load_defs(defs_dir)) if defs_dir else load_results(d)
    ok = True
    for doc in docs:
        lines = open(doc, encoding="utf-8").read().split("\n")
        for i, spec, a, b in tables(lines):
            if only and spec["exp"] not in only:
                continue
            if spec["exp"] not in defs or (not defs_dir and not recs.get(spec["exp"])):
                print("docs check: %s:%d (%s): not re-run (no records of it in %s)" % (doc, i + 1, spec["exp"], d))
                ok = ok and present
                continue
            got = parse_doc_table(lines[a:b])
            head, align, body = render_table(doc, spec, recs, defs)
            want_head = parse_doc_table([head])[0]
            where = "%s:%d (%s)" % (doc, i + 1, spec["exp"])
            if len(got) != len(body) + 2 or got[0] != want_head:
                print("docs check: %s: the table's shape or header is not what its marker renders" % where)
                ok = False
                continue
            n, nt, bad = 0, 0, []
            nl = len(want_head) - len(body[0][1]) if body else 0
            tcells = timing_cells(spec, doc, defs)
            for i_row, ((rl, cells), row) in enumerate(zip(body, got[2:])):
                if row[:nl] != rl:
                    bad.append("row %s: doc has row %s" % (", ".join(rl), ", ".join(row[:nl])))
                    continue
                for k, c in enumerate(cells):
                    if c is None:
                        continue
                    n += 1
                    if (i_row, k) in tcells:
                        nt += 1
                        if not shape(c, row[nl + k]):
                            bad.append("row %s, %s (a timing: shape only): doc %s, run %s" %
                                       (", ".join(rl), want_head[nl + k], row[nl + k], c))
                    elif not close(c, row[nl + k], spec.get("tol")):
                        bad.append("row %s, %s: doc %s, run %s" % (", ".join(rl), want_head[nl + k], row[nl + k], c))
            total = sum(len(cells) for _, cells in body)
            tol = "" if spec.get("tol") is None else ", within %g" % spec["tol"]
            if nt:
                tol += " (%d of them timings, checked for shape only)" % nt
            if defs_dir:
                print("docs check: %s: %d rows, %d cells: header and row labels %s" %
                      (where, len(body), total, "differ" if bad else "as the marker renders"))
            else:
                print("docs check: %s: %d of %d cells re-run, %d differ%s" % (where, n, total, len(bad), tol))
            for x in bad[:8]:
                print("  differs: " + x)
            if bad or (n == 0 and not defs_dir):
                ok = False
    return 0 if ok else 1


# A number: not part of a word, a path, a version, a time or an IPv6 group;
# both ends of a range (4.5-8) count, a compound word (24-stage) does not;
# a K, M or G right after it is its unit, an x a ratio's (num() applies
# the unit and drops the commas).
FIG = re.compile(r"(?<![\w./^:])(?<![A-Za-z]-)-?[0-9][0-9,]*(\.[0-9]+)?(K|M|G|x)?(?![\w/^:])(?!\.[0-9])(?!-[A-Za-z])")
# Masked before numbers are looked for: dates, names with hyphens that
# start with a letter (tier1-2024.v4, linx-rib6-20141225-p69), and the
# number of an ordered list's item.
def num(m):
    """A number's value as text: commas dropped, a K, M or G unit applied
    (70K and 70,000 are the same number)."""
    t = m.group(0).replace(",", "").rstrip("x")
    if t[-1] not in "KMG":
        return t
    v = float(t[:-1]) * {"K": 1e3, "M": 1e6, "G": 1e9}[t[-1]]
    return str(int(round(v))) if abs(v - round(v)) < 1e-6 * max(1.0, abs(v)) else repr(v)


DATE = re.compile(r"\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b|\b[A-Za-z][\w.]*(-[\w.]+)+|^\s*[0-9]+\.\s")
# Numbers a reader tells apart without a marker: issue, section, slide,
# page and version numbers, the load average a run was made under, and the
# exponent of 2^N.
NAMED = re.compile(r"\b(issues?|sections?|slides?|p\.|pp\.|version|Yosys|CUDA|glibc|GCC|load( average)?( of about)?)\s*([0-9.]+-)?$", re.I)
# A number the doc states but no run of this project measures, said so in
# the line right above its paragraph (or table):
#     <!-- not measured (quote): 63.52 219.69 590 -->
# KIND is quote (a paper's or vendor's figure, its source beside it),
# parameter (an input, bound or setting of the runs) or aim (a target);
# only the numbers it lists pass, only in that paragraph.
NOT_MEASURED = re.compile(r"^<!-- not measured \((quote|parameter|aim)\): ([^>]*?) -->\s*$")


def marked_numbers(lines):
    """{line index: (kind, set of numbers)} for each paragraph under a
    `not measured` marker; several markers above one paragraph add up."""
    out, pending = {}, []
    for i, line in enumerate(lines):
        m = NOT_MEASURED.match(line)
        if m:
            pending.append((m.group(1), {num(x) for x in FIG.finditer(m.group(2))}))
            continue
        if not line.strip():
            if pending and i > 0 and not NOT_MEASURED.match(lines[i - 1]):
                pending = []
            continue
        for kind, nums in pending:
            k, n = out.get(i, ({}, set()))
            out[i] = (dict(k, **{x: kind for x in nums}), n | nums)
    return out


def cmd_typed(docs, show_marked=False, strict=False):
    """Numbers in the prose that no generated table, marker or command of
    the same doc shows: figures still typed by hand. A number quoted from a
    rendered cell passes; so do issue/section/slide/page/version numbers,
    times of day, IPv6 address groups and 2^N, and the numbers a
    `not measured` marker lists for its paragraph (counted at the end;
    --marked lists them)."""
    n, nm = 0, {}
    for doc in docs:
        lines = open(doc, encoding="utf-8").read().split("\n")
        gen, known = set(), set()
        for i, spec, a, b in tables(lines):
            gen.update(range(i, b))
        code = False
        for i, line in enumerate(lines):
            if line.startswith("```"):
                code = not code
            if code or i in gen or line.startswith("    "):
                known.update(num(m) for m in FIG.finditer(line.replace("|", " ")))
        marked = marked_numbers(lines)
        code = False
        for i, line in enumerate(lines):
            if line.startswith("```"):
                code = not code
                continue
            if code or i in gen or line.startswith("    ") or line.startswith("<!--"):
                continue
            text = DATE.sub("", re.sub(r"`[^`]*`", "", line))
            kinds, excused = marked.get(i, ({}, set()))
            typed, quoted = [], []
            for m in FIG.finditer(text):
                v = num(m)
                if v in known or NAMED.search(text[:m.start()]):
                    continue
                if v in excused:
                    quoted.append((m.group(0), v))
                else:
                    typed.append(m.group(0))
            for _, q in quoted:
                k = kinds[q]
                nm[k] = nm.get(k, 0) + 1
            if show_marked and quoted:
                print("%s:%d: not measured (%s): %s" % (doc, i + 1, "/".join(sorted({kinds[q] for _, q in quoted})),
                                                       " ".join(t for t, _ in quoted)))
            if typed:
                print("%s:%d: %s  [%s]" % (doc, i + 1, line.strip()[:120], " ".join(typed)))
                n += 1
    print("docs tables: %d lines with numbers that no generated table or command of their doc shows" % n)
    if nm:
        print("docs tables: marked not measured: %s" % ", ".join("%d %s" % (c, k) for k, c in sorted(nm.items())))
    return 1 if strict and n else 0


def cmd_list(docs):
    for doc in docs:
        lines = open(doc, encoding="utf-8").read().split("\n")
        for i, spec, a, b in tables(lines):
            print("%s:%d %s %d rows" % (doc, i + 1, spec["exp"], b - a - 2))
    return 0


def main(argv):
    if len(argv) < 2 or argv[0] not in ("render", "check", "validate", "list", "typed"):
        print(__doc__.strip())
        return 2
    docs, d, only, args = [], None, [], argv[1:]
    present = "--present" in args
    partial = "--partial" in args
    show_marked = "--marked" in args
    args = [a for a in args if a not in ("--present", "--partial", "--marked", "--check")]
    while args:
        a = args.pop(0)
        if a in ("--results", "--exp", "--defs") and args:
            v = args.pop(0)
            if a == "--exp":
                only.append(v)
            else:
                d = v
        else:
            docs.append(a)
    if argv[0] == "list":
        return cmd_list(docs)
    if argv[0] == "typed":
        return cmd_typed(docs, show_marked, "--check" in argv)
    if argv[0] == "validate":
        return cmd_check(docs, None, only, d or "reports")
    if not d:
        print("docs_tables.py: --results DIR is required")
        return 2
    return cmd_render(docs, d, only, partial) if argv[0] == "render" else cmd_check(docs, d, only, present=present)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
