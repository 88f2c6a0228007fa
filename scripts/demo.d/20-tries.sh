#!/usr/bin/env bash
# title: tries: stride algorithms, per-level sizes, engines side by side
set -euo pipefail
# Stride arrays for the synthetic IPv4 table, and what each costs.
if "$BIN" fib tries --help >/dev/null 2>&1; then
  for a in "--strides 16-8-8" "--levels 3 --algo optimal" "--levels 4 --algo gamt"; do
    # shellcheck disable=SC2086
    "$BIN" fib tries --fib "$W/v4.fib" $a --json | python3 -c '
import json, sys
m = json.load(sys.stdin)["multibit"]
print("  %-8s %-12s %8.2f MiB  widest level %9d entries  %7d transactions" % (m["algo"], m["strides"],
      m["bytes"] / 1048576, m["widest"], m["transactions"]))'
  done
fi
"$BIN" bench --fib "$W/v4.fib" --trace "$W/v4.trace" --engines ref,unibit,multibit --repeat 3 | tee "$W/bench.txt"
"$BIN" bench --fib "$W/v6.fib" --trace "$W/v6.trace" --engines ref,unibit,multibit --repeat 3 --json >"$W/bench6.json"
python3 - "$W/bench6.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["engines"]:
    print("  IPv6 %-9s %7.2f M lookups/s  %6.2f MiB  %s" % (e["name"], e["lookups_per_s"] / 1e6, e["memory_bytes"] / 1048576, e["detail"]))
PY
awk '$1 == "multibit" { printf "SUMMARY: multibit trie (%s): %s M lookups/s on IPv4 random-match, %s mismatches\n", $8, $4, $6 }' "$W/bench.txt"
