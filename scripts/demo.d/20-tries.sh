#!/usr/bin/env bash
# title: tries: stride algorithms and software engines side by side
# short: trie stride algorithms and engine speeds
source "$LIB"
if "$BIN" fib tries --help >/dev/null 2>&1; then
  for a in "--strides 16-8-8" "--levels 3 --algo optimal" "--levels 4 --algo gamt"; do
    # shellcheck disable=SC2086
    "$BIN" fib tries --fib v4.fib $a --json >tries.json
    python3 - tries.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["multibit"]
print("%-34s %s: %.2f MiB, widest level %d entries, %d memory transactions" % (
    "IPv4 multibit, %s strides:" % m["algo"], m["strides"], m["bytes"] / 1048576, m["widest"], m["transactions"]))
PY
  done
fi
for fam in 4 6; do
  "$BIN" bench --fib "v$fam.fib" --trace "v$fam.trace" --engines ref,unibit,multibit --repeat 3 --json >"bench-v$fam.json"
  python3 - "bench-v$fam.json" "$fam" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["engines"]:
    print("%-34s %.2f M lookups/s, %.2f MiB%s" % ("IPv%s %s:" % (sys.argv[2], e["name"]), e["lookups_per_s"] / 1e6,
          e["memory_bytes"] / 1048576, (", strides " + e["detail"]) if e["detail"] else ""))
    print("CHECK: IPv%s bench %s|%d|%d" % (sys.argv[2], e["name"], e["checked"], e["mismatches"]))
PY
done
python3 - bench-v4.json <<'PY'
import json, sys
e = [e for e in json.load(open(sys.argv[1]))["engines"] if e["name"] == "multibit"][0]
print("SUMMARY: multibit trie (%s): %.1f M lookups/s on IPv4 random-match (%.1f M per CPU-second), %d answers equal to the reference"
      % (e["detail"], e["lookups_per_s"] / 1e6, e["lookups_per_cpu_s"] / 1e6, e["checked"] - e["mismatches"]))
PY
saved "bench reports (JSON)" "bench-v4.json, bench-v6.json"
