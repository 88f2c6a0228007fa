#!/usr/bin/env bash
# title: mapper at scale: default mapping of the largest tables and 1M IPv6 / 2M IPv4 synthetic ones (target < 5 s each), 1M-lookup simulation, FPGA memory blocks
# For each table: `lpmpipe map` with no options (IPv6: split, IPv4: min-max
# ring), median of 3 of the report's "seconds" (trie, placement, encoding,
# validation; not reading the table) and of the CPU time of the whole
# command; then `lpmpipe sim --queue 32` over 1M random-match lookups, all
# checked against the interpreter and the reference LPM; then the memory in
# FPGA blocks and which largest parts of each family hold it (capacities:
# docs/results-mapping.md, "Scale").
set -uo pipefail
D=${LPMPIPE_DATA:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$BIN" fib gen --family 6 --count 1000000 --seed 1 -o "$T/syn6-1M.txt" || exit 1
"$BIN" fib gen --family 4 --count 2000000 --seed 1 -o "$T/syn4-2M.txt" || exit 1
tabs="$T/syn6-1M.txt $T/syn4-2M.txt"
if [ -n "$D" ]; then
  for f in tier1-2024.v6.txt.xz tier1-2024.v4.txt.xz; do [ -e "$D/$f" ] && tabs="$tabs $D/$f"; done
else
  echo "NOTE: the real tables are absent: synthetic tables only"
fi
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "  load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for tab in $tabs; do
  for i in 1 2 3; do
    /usr/bin/time -f "%U %S" -o "$T/cpu" "$BIN" map --fib "$tab" -o "$T/img.lpi" --json >"$T/rep.json" || exit 1
    python3 -c "import json; print(json.load(open('$T/rep.json'))['seconds'])" >>"$T/secs"
    awk '{print $1 + $2}' "$T/cpu" >>"$T/cpus"
  done
  s=$(median <"$T/secs"); c=$(median <"$T/cpus"); rm -f "$T/secs" "$T/cpus"
  "$BIN" sim --image "$T/img.lpi" --gen random-match --count 1000000 --queue 32 --verify --json >"$T/sim.json" || echo "  FAIL: sim on $tab"
  python3 - "$T/rep.json" "$T/sim.json" "$(basename "$tab")" "$s" "$c" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); s = json.load(open(sys.argv[2]))
ps, dit = r['per_stage'], r['dit_fpga']
nb = sum(p['bram36'] for p in ps) + dit['bram36']
nu = sum(p['uram288'] for p in ps) + dit['uram288']
nm = sum(p['m20k'] for p in ps) + dit['m20k']
# largest part of each family: 36 Kb block RAMs, 288 Kb UltraRAMs, M20Ks
fam = [("7series", 1880, 0, 0), ("UltraScale", 3780, 0, 0), ("UltraScale+", 2688, 1280, 0),
       ("Versal", 4949, 2549, 0), ("Stratix10", 0, 0, 11721), ("Agilex7", 0, 0, 19908)]
fits = []
for name, b, u, m in fam:
    if m:
        ok = nm <= m
    else:  # stages into UltraRAM while it lasts (most block RAMs saved first), the rest and the DIT in block RAM
        ub, bb = 0, dit['bram36']
        for p in sorted(ps, key=lambda p: -p['bram36'] / p['uram288']):
            if ub + p['uram288'] <= u:
                ub += p['uram288']
            else:
                bb += p['bram36']
        ok = bb <= b
    fits.append(name + (":yes" if ok else ":no"))
c = s['check']
chk = "all %d checked, %d mismatches" % (c['checked'], c['mismatches'] + c['reference_mismatches'])
print("  %-20s %-12s %8d routes  map %.2f s (CPU %.2f s)  fullest/mean %.4f  LPC %.5f  reads %.2f  %s" %
      (sys.argv[3], r['mapping'], r['routes'], float(sys.argv[4]), float(sys.argv[5]), r['fullest_over_mean'],
       s['lpc'], s['reads_per_lookup'], chk))
print("  %-20s blocks: %d RAMB36 or %d URAM288 (+DIT) or %d M20K; largest part holds it: %s" %
      ("", nb, nu, nm, " ".join(fits)))
PY
done
