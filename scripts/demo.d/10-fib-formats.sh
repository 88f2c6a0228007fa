#!/usr/bin/env bash
# title: table formats: gzip/xz/bzip2, bgpdump text with two peers, binary MRT, round trip
# short: table formats (compressed, bgpdump, MRT)
source "$LIB"
# The synthetic table, compressed three ways: the same table each time.
"$BIN" fib convert --fib v4.fib -o plain.txt
for z in gzip xz bzip2; do
  $z -c plain.txt >"plain.$z"
  "$BIN" fib convert --fib "plain.$z" -o back.txt
  cmp -s plain.txt back.txt || { echo "$z round trip differs"; check "read back $z" 1 1; exit 1; }
done
rm -f back.txt
n=$(wc -l <plain.txt)
check "gzip, xz, bzip2 tables read back" "$((3 * n))" 0
fig "gzip, xz, bzip2:" "each read back as the same $n routes"
# The same routes as a bgpdump -m RIB from two peers; the second peer has a
# third of them, so the first one is chosen (lpmpipe names it on stderr).
awk '{ print "TABLE_DUMP2|1|B|192.0.2.1|64500|" $1 "|64500 1|IGP|" $2 "|0|0||NAG||"
       if (NR % 3 == 0) print "TABLE_DUMP2|1|B|192.0.2.2|64501|" $1 "|64501 1|IGP|198.51.100.1|0|0||NAG||" }' plain.txt >rib.txt
"$BIN" fib convert --fib rib.txt -o frombgp.txt 2>>bgpdump.notes
cmp -s plain.txt frombgp.txt || { echo "bgpdump reading differs"; check "bgpdump RIB read back" 1 1; exit 1; }
check "bgpdump RIB read back" "$n" 0
fig "bgpdump RIB, two peers:" "peer chosen: $(sed -n 's/.*using peer //p' bgpdump.notes | head -1) (most prefixes), $n routes as written"
"$BIN" fib stats --fib rib.txt --peer-as 64501 --json >peer2.json 2>>bgpdump.notes
fig "the other peer (--peer-as 64501):" "$(json peer2.json 'd["prefixes"]') prefixes, $(json peer2.json 'd["next_hops"]') next hop"
ex=/usr/share/doc/mrtparse/examples/quagga_rib
if [ -e "$ex" ]; then
  "$BIN" fib convert --fib "$ex" --family 6 -o mrt-v6.txt 2>mrt.notes
  fig "binary MRT ($(basename "$ex")):" "$(wc -l <mrt-v6.txt) IPv6 routes from peer $(sed -n 's/.*using peer //p' mrt.notes), $(sed -n 's/.*: \([0-9]*\) records\{0,1\} skipped/\1/p' mrt.notes) records skipped (IPv4 routes, record types not read)"
  saved "its routes" mrt-v6.txt
fi
saved "files" "plain.txt, plain.gzip|xz|bzip2, rib.txt, peer2.json"
echo "SUMMARY: formats: gzip, xz, bzip2 and bgpdump text of $n routes read back identical"
