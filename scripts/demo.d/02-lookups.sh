#!/usr/bin/env bash
# title: lookups with every engine, every answer checked against the reference LPM
# short: every lookup engine against the reference
source "$LIB"
for fam in 4 6; do
  "$BIN" trace gen --fib "v$fam.fib" --kind random-match --count 100000 --seed 2 -o "v$fam.trace"
  ok=()
  for e in $("$BIN" lookup --help | awk '/^engines:/{f=1;next} f&&NF{print $1}'); do
    if "$BIN" lookup --fib "v$fam.fib" --engine "$e" --verify --trace "v$fam.trace" >"lookup-v$fam-$e.txt" 2>"lookup.err"; then
      ok+=("$e")
      check "IPv$fam lookup --engine $e" 100000 0
    elif grep -q "does not support" lookup.err; then
      rm -f "lookup-v$fam-$e.txt"
    else
      sed 's/^/  /' lookup.err >&2
      check "IPv$fam lookup --engine $e" 100000 "$(grep -c mismatch lookup.err || echo 1)"
      echo "IPv$fam engine $e: FAILED (see the log)"
    fi
  done
  fig "IPv$fam, 100000 random-match lookups:" "${#ok[@]} engines, each equal to the reference (${ok[*]})"
done
rm -f lookup.err
saved "answers (addr nexthop per line)" "lookup-v4-ENGINE.txt, lookup-v6-ENGINE.txt"
