#!/usr/bin/env bash
# title: NDN name lookup: a synthetic name table, traces, and every name engine checked
# short: NDN name lookup engines
source "$LIB"
"$BIN" names gen --count 60000 --seed 1 -o hosts.txt
"$BIN" names build --domains hosts.txt --ports 64 -o names.tab 2>names.notes
"$BIN" names stats --table names.tab --structures >names-stats.txt
fig "name table:" "$(awk '$1 == "names" { print $2 }' names-stats.txt) names from 60000 synthetic hostnames, 64 ports"
"$BIN" names trace --table names.tab --kind average --count 100000 --seed 2 -o names.avg
"$BIN" names trace --table names.tab --kind heavy --count 100000 --seed 3 -o names.heavy
for e in ref trie ata mata; do
  for k in avg heavy; do
    "$BIN" names lookup --table names.tab --engine "$e" --verify --trace "names.$k" >/dev/null 2>names.err \
      || { cat names.err >&2; check "names $e $k" 100000 1; exit 1; }
    check "names $e $k" 100000 0
  done
  fig "names engine $e:" "200000 lookups (average and heavy traces), each equal to the reference"
done
"$BIN" names bench --table names.tab --trace names.avg --updates 5000 --repeat 1 >names-bench.jsonl
python3 - names-bench.jsonl <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    print("%-34s %.2f M lookups/s (CPU), %.2f MiB, %.2f M inserts/s" % ("names %s:" % e["engine"], e["lookups_per_s"] / 1e6,
          e["bytes"] / 1048576, e["inserts_per_s"] / 1e6))
    print("CHECK: names bench %s|%d|%d" % (e["engine"], e["lookups"], e["mismatches"] + e["mismatches_after_deletes"] + e["mismatches_after_inserts"]))
    if e["engine"] == "mata":
        print("SUMMARY: names MATA (d = %d): %.2f M lookups/s on the CPU, %.2f MiB; inserts and deletes checked" % (e["stride"], e["lookups_per_s"] / 1e6, e["bytes"] / 1048576))
PY
set +e
"$BIN" names gpu bench --table names.tab --trace names.avg >names-gpu.txt 2>&1
rc=$?
set -e
if [ $rc = 0 ]; then echo "SUMMARY: names GPU bench: $(tail -1 names-gpu.txt)"
elif [ $rc = 3 ]; then echo "SUMMARY: names GPU bench: no CUDA device here (exit 3), no GPU figure"
else cat names-gpu.txt >&2; echo "names GPU bench FAILED"; exit 1; fi
saved "table, traces, structures, bench" "names.tab, names.avg, names.heavy, names-stats.txt, names-bench.jsonl"
