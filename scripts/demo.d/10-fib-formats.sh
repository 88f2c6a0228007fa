#!/usr/bin/env bash
# title: table formats: compressed, bgpdump text with two peers, MRT, round trip
set -euo pipefail
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac # we work inside $W
cd "$W"
# The synthetic table, compressed three ways: same table each time.
"$BIN" fib convert --fib v4.fib -o plain.txt
for z in gzip xz bzip2; do
  $z -c plain.txt >"t.$z"
  "$BIN" fib convert --fib "t.$z" -o back.txt
  cmp -s plain.txt back.txt || { echo "$z round trip differs"; exit 1; }
done
echo "gzip, xz, bzip2: the same $(wc -l <plain.txt) routes"
# The same routes as a bgpdump -m RIB from two peers; the second peer has
# a third of them, so the first one is chosen (and named on stderr).
awk '{ print "TABLE_DUMP2|1|B|192.0.2.1|64500|" $1 "|64500 1|IGP|" $2 "|0|0||NAG||"
       if (NR % 3 == 0) print "TABLE_DUMP2|1|B|192.0.2.2|64501|" $1 "|64501 1|IGP|198.51.100.1|0|0||NAG||" }' plain.txt >rib.txt
"$BIN" fib convert --fib rib.txt -o frombgp.txt
cmp -s plain.txt frombgp.txt || { echo "bgpdump reading differs"; exit 1; }
"$BIN" fib stats --fib rib.txt --peer-as 64501 --json | cut -c1-120
ex=/usr/share/doc/mrtparse/examples/quagga_rib
if [ -e "$ex" ]; then
  echo "binary MRT ($ex), IPv6 routes:"
  "$BIN" fib convert --fib "$ex" --family 6
fi
echo "SUMMARY: formats: gz/xz/bz2 and bgpdump text of $(wc -l <plain.txt) routes read back identical"
