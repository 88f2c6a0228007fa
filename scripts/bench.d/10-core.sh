#!/usr/bin/env bash
# title: core engines (ref, unibit, multibit): parse, build, size, lookups/s (median of 5), peak RSS
# One `lpmpipe bench` process per engine, so each peak RSS is that engine's
# run alone (it includes the table, the trace and the reference that checks
# the answers). Traffic: 1M random-match addresses, seed 1.
set -uo pipefail
D=${LPMPIPE_DATA:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
tables=()
if [ -n "$D" ] && [ -e "$D/tier1-2024.v4.txt.xz" ]; then tables+=("$D/tier1-2024.v4.txt.xz"); fi
if [ -n "$D" ] && [ -e "$D/routeviews-20210117-as293.fib6.txt" ]; then tables+=("$D/routeviews-20210117-as293.fib6.txt"); fi
if [ ${#tables[@]} -eq 0 ]; then
  echo "NOTE: the real tables are absent: synthetic tables of the same sizes (lpmpipe fib gen) stand in"
  "$BIN" fib gen --family 4 --count 900000 --seed 1 -o "$T/synth-900k.v4.txt" && tables+=("$T/synth-900k.v4.txt")
  "$BIN" fib gen --family 6 --count 105000 --seed 1 -o "$T/synth-105k.v6.txt" && tables+=("$T/synth-105k.v6.txt")
fi
rc=0
printf '  %-36s %-9s %8s %8s %11s %9s %11s %12s  %s\n' table engine parse_s build_s Mlookups/s M/cpu_s memory_MiB peak_RSS_MiB detail
for f in "${tables[@]}"; do
  for e in ref unibit multibit; do
    if ! "$BIN" bench --fib "$f" --engines $e --count 1000000 --seed 1 --repeat 5 --json >"$T/$e.json" 2>"$T/err"; then
      echo "  $(basename "$f") $e: FAILED: $(head -c 300 "$T/err")"; rc=1; continue
    fi
    python3 - "$T/$e.json" "$(basename "$f")" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
e = d["engines"][0]
print("  %-36s %-9s %8.3f %8.3f %11.2f %9.2f %11.2f %12.1f  %s" % (sys.argv[2], e["name"], d["parse_s"], e["build_s"],
      e["lookups_per_s"] / 1e6, e["lookups_per_cpu_s"] / 1e6, e["memory_bytes"] / 1048576, e["peak_rss_kb"] / 1024,
      e["detail"]))
EOF
  done
  if [ -s "$T/multibit.json" ] && [ -s "$T/ref.json" ]; then
    python3 - "$T/ref.json" "$T/multibit.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
pb = m["parse_s"] + m["engines"][0]["build_s"]
rl = r["engines"][0]["lookups_per_s"] / 1e6; ml = m["engines"][0]["lookups_per_s"] / 1e6
ok = lambda c: "met" if c else "MISSED"
if m["family"] == 4:
    print("  targets (IPv4): parse + multibit build %.3f s < 1.5 s: %s; reference %.2f M/s >= 5: %s; "
          "multibit %.2f M/s >= 50: %s" % (pb, ok(pb < 1.5), rl, ok(rl >= 5), ml, ok(ml >= 50)))
EOF
  fi
  rm -f "$T"/*.json
done
echo "  (load average now: $(cut -d' ' -f1-3 /proc/loadavg); figures on a shared machine vary with it)"
exit $rc
