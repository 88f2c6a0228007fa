#!/usr/bin/env bash
# title: synthetic IPv4 and IPv6 forwarding tables (the model of docs/synthetic.md)
# short: synthetic tables
source "$LIB"
"$BIN" fib gen --family 4 --count 200000 --seed 1 -o v4.fib
"$BIN" fib gen --family 6 --count 50000 --seed 1 -o v6.fib
for fam in 4 6; do
  "$BIN" fib stats --fib "v$fam.fib" --json >"v$fam.stats.json"
  "$BIN" fib stats --fib "v$fam.fib" >"v$fam.stats.txt"
  echo "SUMMARY: IPv$fam table: $(json "v$fam.stats.json" 'd["prefixes"]') prefixes, $(json "v$fam.stats.json" 'd["next_hops"]') next hops, $(json "v$fam.stats.json" '"%.1f%%" % (100 * d["nesting_share"])') of them nested under a shorter one"
done
saved "tables" "v4.fib, v6.fib"
saved "figures and length histograms" "v4.stats.txt, v6.stats.txt"
