#!/usr/bin/env bash
# make demo: the whole chain that exists so far, on built-in synthetic data.
set -euo pipefail
BIN=${1:-build/lpmpipe}
W=$(mktemp -d /tmp/lpmpipe-demo.XXXXXX)
trap 'rm -rf "$W"' EXIT
say() { printf '\n== %s\n' "$*"; }
summary=()

say "1. synthetic IPv4 and IPv6 tables"
"$BIN" fib gen --family 4 --count 200000 --seed 1 -o "$W/v4.fib"
"$BIN" fib gen --family 6 --count 50000 --seed 1 -o "$W/v6.fib"
"$BIN" fib stats --fib "$W/v4.fib"
for fam in 4 6; do
  summary+=("$("$BIN" fib stats --fib "$W/v$fam.fib" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print("IPv%d synthetic table: %d prefixes, %d next hops, %.1f%% nested" % (d["family"], d["prefixes"], d["next_hops"], 100*d["nesting_share"]))')")
done

say "2. traces and lookups, every answer checked against the reference"
for fam in 4 6; do
  "$BIN" trace gen --fib "$W/v$fam.fib" --kind random-match --count 100000 --seed 2 -o "$W/v$fam.trace"
  for e in $("$BIN" lookup --help | awk '/^engines:/{f=1;next} f&&NF{print $1}'); do
    if "$BIN" lookup --fib "$W/v$fam.fib" --engine "$e" --verify --trace "$W/v$fam.trace" >/dev/null 2>"$W/err"; then
      summary+=("IPv$fam engine $e: 100000 lookups, 0 mismatches")
    elif grep -q "does not support" "$W/err"; then
      :
    else
      cat "$W/err"; summary+=("IPv$fam engine $e: FAILED"); fi
  done
done

for step in scripts/demo.d/*.sh; do
  [ -e "$step" ] || continue
  say "$(sed -n 's/^# title: //p' "$step")"
  out=$(BIN="$BIN" W="$W" bash "$step") || { echo "$out"; summary+=("$(basename "$step"): FAILED"); continue; }
  echo "$out"
  while IFS= read -r l; do summary+=("$l"); done < <(printf '%s\n' "$out" | sed -n 's/^SUMMARY: //p')
done

say "summary"
printf '  %s\n' "${summary[@]}"
if printf '%s\n' "${summary[@]}" | grep -q FAILED; then exit 1; fi
