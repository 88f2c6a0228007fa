#!/usr/bin/env python3
"""Checks that the CAMP figures of a rendered report hold the numbers typed
into docs/results-camp.md: section (a) (camp-slide12, both dispatchers)
always, section (b) (camp-slide13, the real table) when it was run.

    scripts/report_doc_check.py docs/results-camp.md REPORT_HTML_DIR

Every LPC of the doc's tables is compared with the figure's CSV rounded to
three decimals, as the doc prints it. Exit 1 on any difference or when the
(a) figures are missing."""
import csv
import os
import re
import sys


def doc_tables(path):
    """The markdown tables of the doc, each as (section heading, rows)."""
    tables, rows, heading = [], [], ""
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            heading = line
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif rows:
            tables.append((heading, rows))
            rows = []
    if rows:
        tables.append((heading, rows))
    return tables


def read_csv(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    head, body = r[0], r[1:]
    return {(row[0], head[i]): row[i] for row in body for i in range(1, len(head))}


def compare(name, doc_rows, csv_path, key_of):
    """key_of(row label, column label) -> (csv x, csv column)."""
    if not os.path.exists(csv_path):
        return None
    data = read_csv(csv_path)
    head, n, bad = doc_rows[0], 0, []
    for row in doc_rows[1:]:
        for i in range(1, len(head)):
            k = key_of(row[0], head[i])
            if k is None:
                continue
            got = data.get(k)
            n += 1
            if got is None or got == "" or "%.3f" % float(got) != row[i]:
                bad.append("%s %s: doc %s, report %s" % (row[0], head[i], row[i], got))
    print("report check: %s: %d of %d values as in the doc" % (name, n - len(bad), n))
    for b in bad[:10]:
        print("  differs: " + b)
    return not bad and n > 0


def main():
    doc, html = sys.argv[1], sys.argv[2]
    tables = doc_tables(doc)
    a = [rows for h, rows in tables if h.startswith("## (a)") or h.startswith("### Past CAMP")]
    a = [rows for rows in a if rows[0][0].startswith("queue")]
    ok = True
    for rows, fig in zip(a, ["lpc-camp", "lpc-lookahead"]):
        r = compare("camp-slide12 " + fig, rows, os.path.join(html, "camp-slide12.%s.csv" % fig),
                    lambda q, b: (q, "burst=" + b))
        if r is not True:
            ok = False
            if r is None:
                print("report check: %s/camp-slide12.%s.csv is missing" % (html, fig))
    if len(a) != 2:
        print("report check: docs tables of section (a) not found")
        ok = False
    b = [rows for h, rows in tables if h.startswith("## (b)")]

    def key_b(fig):
        def key(label, burst):
            m = re.fullmatch(r"(\d+), (in order|lookahead 32)", label)
            if not m or (m.group(2) == "in order") != (fig == "lpc-in-order"):
                return None
            return (burst, "queue=" + m.group(1))
        return key
    for fig in ["lpc-in-order", "lpc-lookahead"]:
        if b:
            r = compare("camp-slide13 " + fig, b[0], os.path.join(html, "camp-slide13.%s.csv" % fig), key_b(fig))
            ok = ok and r is not False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
