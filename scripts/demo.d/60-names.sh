#!/usr/bin/env bash
# title: NDN name lookup: a synthetic name table, traces, and every name engine checked
set -euo pipefail
"$BIN" names gen --count 60000 --seed 1 -o "$W/hosts.txt"
"$BIN" names build --domains "$W/hosts.txt" --ports 64 -o "$W/names.tab"
"$BIN" names stats --table "$W/names.tab" --structures
"$BIN" names trace --table "$W/names.tab" --kind average --count 100000 --seed 2 -o "$W/names.avg"
"$BIN" names trace --table "$W/names.tab" --kind heavy --count 100000 --seed 3 -o "$W/names.heavy"
for e in ref trie ata mata; do
  for k in avg heavy; do
    "$BIN" names lookup --table "$W/names.tab" --engine "$e" --verify --trace "$W/names.$k" >/dev/null 2>"$W/names.err" \
      || { cat "$W/names.err"; echo "SUMMARY: names engine $e ($k): FAILED"; exit 1; }
  done
  echo "SUMMARY: names engine $e: 200000 lookups (average + heavy), 0 mismatches"
done
"$BIN" names bench --table "$W/names.tab" --trace "$W/names.avg" --updates 5000 --repeat 1 | tee "$W/names.bench"
echo "SUMMARY: names bench (inserts and deletes checked): $(sed -n 's/.*"engine":"mata".*"bytes":\([0-9]*\).*"lookups_per_s":\([0-9]*\).*/MATA \1 bytes, \2 lookups\/s (CPU time)/p' "$W/names.bench")"
rc=0
"$BIN" names gpu bench --table "$W/names.tab" --trace "$W/names.avg" >"$W/names.gpu" 2>&1 || rc=$?
if [ $rc = 0 ]; then cat "$W/names.gpu"; echo "SUMMARY: names gpu bench: $(tail -1 "$W/names.gpu")"
elif [ $rc = 3 ]; then cat "$W/names.gpu"; echo "SUMMARY: names gpu bench: no CUDA device here (exit 3), no GPU figure"
else cat "$W/names.gpu"; echo "SUMMARY: names gpu bench: FAILED"; exit 1; fi
