#!/usr/bin/env bash
# lpmpipe sim end to end: images mapped from small generated tables (always)
# and from the shared real tables (when present), every answer checked
# against the image interpreter and the reference LPM; results and cycle
# logs; updates in flight; bad input refused with exit 2.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
DATA=${LPMPIPE_DATA:-}
W=$(mktemp -d /tmp/lpmpipe-e2e-sim.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

if ! "$BIN" map --help >/dev/null 2>&1; then
  echo "SKIP: lpmpipe map is not built: no images to simulate"
  exit 77
fi

# A small IPv4 table: nested prefixes /8../30 under a few first octets.
awk 'BEGIN { srand(7); print "0.0.0.0/0 dflt";
  for (i = 0; i < 6000; i++) { a = int(rand() * 4) + 10; b = int(rand() * 256); c = int(rand() * 256); d = int(rand() * 256);
    l = 8 + int(rand() * 23); ip = a * 16777216 + b * 65536 + c * 256 + d; m = 2 ^ (32 - l); ip = int(ip / m) * m;
    printf "%d.%d.%d.%d/%d nh%d\n", int(ip / 16777216), int(ip / 65536) % 256, int(ip / 256) % 256, ip % 256, l, i % 40 } }' >"$W/t4.fib"
# Addresses: inside table prefixes and uniform over 8.0.0.0/5.
awk 'BEGIN { srand(11); for (i = 0; i < 30000; i++)
  printf "%d.%d.%d.%d\n", 8 + int(rand() * 8), int(rand() * 256), int(rand() * 256), int(rand() * 256) }' >"$W/t4.trace"

"$BIN" map --fib "$W/t4.fib" --stages 8 -o "$W/r8.lpi" >/dev/null 2>&1 || bad "map ring 8"
"$BIN" map --fib "$W/t4.fib" --stages 12 --stride 3 --initial-stride 12 -o "$W/r12s3.lpi" >/dev/null 2>&1 || bad "map ring stride 3"
"$BIN" map --fib "$W/t4.fib" --arch linear -o "$W/lin.lpi" >/dev/null 2>&1 || bad "map linear"

n=$(wc -l <"$W/t4.trace")
for img in r8 r12s3 lin; do
  for cfg in "--queue 0 --hop-cycles 1" "--queue 4 --issue-width 1" "--queue 16 --issue-width 4 --rob 32" \
             "--queue 2 --issue-width 2 --load 0.7 --hop-cycles 1" "--queue 3 --issue-width 3 --lookahead 12 --burst 8" \
             "--queue 4 --issue-width 2 --ports 2 --result-ready 0.6" \
             "--queue 8 --issue-width 2 --ports 2 --hop-cycles 3 --rob 16 --result-ready 0.5 --load 1.5"; do
    [ "$img" = lin ] && cfg=$(sed 's/--issue-width [0-9]*//' <<<"$cfg")
    out=$("$BIN" sim --image "$W/$img.lpi" --trace "$W/t4.trace" $cfg --verify --json --results "$W/res.csv" 2>"$W/err")
    rc=$?
    [ $rc -eq 0 ] || { bad "sim $img $cfg: exit $rc: $(head -3 "$W/err")"; continue; }
    m=$(echo "$out" | sed -n 's/.*"requests":\([0-9]*\),.*/\1/p')
    [[ "$cfg" == *--burst* ]] || [ "$m" = "$n" ] || bad "sim $img $cfg: $m requests of $n"
    echo "$out" | grep -q '"mismatches":0,"reference_checked":'"$m"',"reference_mismatches":0' ||
      bad "sim $img $cfg: not all $m answers checked clean: $out"
    # every request exactly once in the results
    [ "$(tail -n +2 "$W/res.csv" | cut -d, -f1 | sort -n | uniq | wc -l)" -eq "$m" ] || bad "sim $img $cfg: results lose or repeat requests"
    if [[ "$cfg" == *--rob* ]]; then
      tail -n +2 "$W/res.csv" | cut -d, -f1 | awk '$1 != NR - 1 { exit 1 }' || bad "sim $img $cfg: reorder buffer output out of order"
    fi
    lpc=$(echo "$out" | sed -n 's/.*"lpc":\([0-9.]*\).*/\1/p')
    [ "$img" = lin ] && awk -v l="$lpc" 'BEGIN { exit !(l > 1.0) }' && bad "linear LPC $lpc above 1"
  done
done
echo "generated table: 3 images x 7 configurations, up to $n lookups each, all checked"

# The linear credit rules (docs/microarchitecture.md 4.1): every answer
# checked, results in input order, full rate with credits above the latency
# and credit-bound below it.
for cfg in "--result-fifo 128" "--result-fifo 4 --hop-cycles 3" "--result-fifo 40 --result-ready 0.5 --load 0.8"; do
  out=$("$BIN" sim --image "$W/lin.lpi" --trace "$W/t4.trace" $cfg --verify --json --results "$W/res.csv" 2>"$W/err")
  [ $? -eq 0 ] || { bad "sim lin $cfg: $(head -3 "$W/err")"; continue; }
  echo "$out" | grep -q '"mismatches":0,"reference_checked":'"$n"',"reference_mismatches":0' || bad "sim lin $cfg: $out"
  tail -n +2 "$W/res.csv" | cut -d, -f1 | awk '$1 != NR - 1 { exit 1 } END { exit NR != '"$n"' }' ||
    bad "sim lin $cfg: results not all out in input order"
  lpc=$(echo "$out" | sed -n 's/.*"lpc":\([0-9.]*\).*/\1/p')
  case "$cfg" in
  *128) awk -v l="$lpc" 'BEGIN { exit !(l > 0.99 && l <= 1.0) }' || bad "credit rules, 128 credits: LPC $lpc, not full rate" ;;
  *"fifo 4 "*) awk -v l="$lpc" 'BEGIN { exit !(l < 0.3) }' || bad "credit rules, 4 credits at D = 3: LPC $lpc, not bound by credits" ;;
  esac
done

# The speed baselines answer like the image: the unibit walk of the table and
# the interleaved walk of the image give the same next-hop checksum.
for img in r8 r12s3 lin; do
  u=$("$BIN" sim --image "$W/$img.lpi" --trace "$W/t4.trace" --walk-baseline unibit --preload) || bad "walk unibit $img"
  i=$("$BIN" sim --image "$W/$img.lpi" --trace "$W/t4.trace" --walk-baseline 24) || bad "walk image $img"
  grep -q "\"walk_baseline\":\"unibit\",\"in_flight\":24,\"lookups\":$n," <<<"$u" || bad "walk unibit $img: $u"
  [ "$(sed 's/.*"checksum"://' <<<"$u")" = "$(sed 's/.*"checksum"://' <<<"$i")" ] || bad "walk checksums differ ($img): $u / $i"
done
"$BIN" sim --image "$W/r8.lpi" --trace "$W/t4.trace" --walk-baseline binary 2>/dev/null; [ $? -eq 2 ] || bad "--walk-baseline binary not refused"

# The answers in the results file agree with lookup --image.
"$BIN" sim --image "$W/r8.lpi" --trace "$W/t4.trace" --rob 64 --issue-width 2 --json --results "$W/res.csv" >/dev/null || bad "sim for results"
"$BIN" lookup --image "$W/r8.lpi" --trace "$W/t4.trace" >"$W/lk.txt" 2>/dev/null || bad "lookup --image"
paste -d' ' <(tail -n +2 "$W/res.csv" | cut -d, -f2,3 | tr , ' ') "$W/lk.txt" | awk '$1 != $3 || $2 != $4 { bad++ } END { exit bad > 0 }' ||
  bad "results file answers differ from lookup --image"

# Same inputs: byte-identical cycle logs, results and JSON.
for i in 1 2; do
  "$BIN" sim --image "$W/r8.lpi" --trace "$W/t4.trace" --queue 3 --issue-width 3 --json --cycle-log "$W/log$i" --results "$W/res$i" >"$W/json$i" || bad "sim run $i"
done
cmp -s "$W/log1" "$W/log2" && cmp -s "$W/res1" "$W/res2" && cmp -s "$W/json1" "$W/json2" || bad "two identical runs differ"
[ "$(head -1 "$W/log1")" = "# lpmpipe sim cycle log v2: stages=8 ring queue=3 width=3 rob=0 lookahead=0 hop=2 ports=1" ] || bad "cycle log header"
# The two example logs of docs/microarchitecture.md section 7 are what the simulator writes.
DOC=${LPMPIPE_ROOT:-.}/docs/microarchitecture.md
for d in 1 2; do
  awk -v h="# lpmpipe sim cycle log v2: stages=4 ring queue=2 width=1 rob=0 lookahead=0 hop=$d ports=1" \
    '$0 == h { on = 1 } on && /^```/ { exit } on { print }' "$DOC" >"$W/doc$d.log"
  "$BIN" sim --synthetic 4 --reads 3 --count 6 --queue 2 --hop-cycles $d --cycle-log "$W/ex$d.log" >/dev/null || bad "doc example run"
  [ -s "$W/doc$d.log" ] && cmp -s "$W/doc$d.log" "$W/ex$d.log" || bad "docs/microarchitecture.md example (hop $d) differs from the simulator's log"
done
cycles=$(sed -n 's/.*"cycles":\([0-9]*\),"window".*/\1/p' "$W/json1")
[ "$(($(wc -l <"$W/log1") - 1))" -eq "$cycles" ] || bad "cycle log has not one line per cycle"
[ "$(grep -o ' exit:' "$W/log1" | wc -l)" -eq "$n" ] || bad "cycle log exits != requests"

# Updates in flight: announces and withdrawals under the traffic, every
# answer right before or after its update.
awk 'BEGIN { srand(5); for (i = 0; i < 300; i++) { a = 10 + int(rand() * 4); b = int(rand() * 256); l = 12 + int(rand() * 13);
  ip = a * 16777216 + b * 65536 + int(rand() * 65536); m = 2 ^ (32 - l); ip = int(ip / m) * m;
  printf "%d %s %d.%d.%d.%d/%d%s\n", i, (i % 4 == 3 ? "w" : "a"), int(ip / 16777216), int(ip / 65536) % 256, int(ip / 256) % 256, ip % 256, l, (i % 4 == 3 ? "" : " up" i % 7) } }' >"$W/upd.txt"
"$BIN" update --image "$W/r8.lpi" --updates "$W/upd.txt" --bubbles "$W/r8.bub" >/dev/null || bad "update"
for rate in 0 1000000 20000000; do
  out=$("$BIN" sim --image "$W/r8.lpi" --trace "$W/t4.trace" --queue 8 --issue-width 2 --updates "$W/r8.bub" --update-rate $rate --json 2>"$W/err")
  [ $? -eq 0 ] || bad "updates at $rate/s: $(head -3 "$W/err")"
  echo "$out" | grep -q '"against":"interpreter before/after update","checked":'"$n"',"mismatches":0' || bad "updates at $rate/s: $out"
  echo "$out" | grep -q '"applied":0,' && [ "$rate" != 1000000 ] && bad "updates at $rate/s: no bubble applied"
done
# Bad input: exit 2 with file:line or lpmpipe: sim: reason.
printf '10.0.0.1\nnot-an-address\n' >"$W/bad.trace"
"$BIN" sim --image "$W/r8.lpi" --trace "$W/bad.trace" >/dev/null 2>"$W/err"
[ $? -eq 2 ] && grep -q "bad.trace:2:" "$W/err" || bad "bad trace line not refused: $(cat "$W/err")"
printf '10.0.0.1\n2001:db8::1\n' >"$W/mix.trace"
"$BIN" sim --image "$W/r8.lpi" --trace "$W/mix.trace" >/dev/null 2>"$W/err"
[ $? -eq 2 ] && grep -q "mix.trace:2:" "$W/err" || bad "IPv6 address on an IPv4 image not refused"
{ grep '^H ' "$W/r8.bub"; printf 'U 1 a x\nB 1 99:0:1\n'; } >"$W/bad.bub"
"$BIN" sim --image "$W/r8.lpi" --trace "$W/t4.trace" --updates "$W/bad.bub" >/dev/null 2>"$W/err"
[ $? -eq 2 ] && grep -q "bad.bub:3: write to stage 99, the image has 8 stages" "$W/err" || bad "bubble to stage 99 not refused: $(cat "$W/err")"
for opt in "--queue -1" "--issue-width 0" "--issue-width 65" "--burst 0.5" "--load 0" "--rob x" "--warmup" "--bogus" \
           "--hop-cycles 0" "--hop-cycles 17" "--queue 0" "--ports 3" "--result-ready 0" "--result-ready 1.5" \
           "--result-ready 0.5 --hop-cycles 1" "--result-fifo 8" "--result-fifo 3" "--result-fifo x"; do
  "$BIN" sim --image "$W/r8.lpi" --trace "$W/t4.trace" $opt >/dev/null 2>&1
  [ $? -eq 2 ] || bad "option '$opt' not refused with exit 2"
done
"$BIN" sim --image "$W/lin.lpi" --trace "$W/t4.trace" --issue-width 2 >/dev/null 2>&1
[ $? -eq 2 ] || bad "linear pipeline with issue width 2 not refused"
for opt in "--result-fifo 4097" "--result-fifo 8 --hop-cycles 1" "--result-fifo 8 --rob 16" "--result-fifo 8 --ports 2"; do
  "$BIN" sim --image "$W/lin.lpi" --trace "$W/t4.trace" $opt >/dev/null 2>"$W/err"
  [ $? -eq 2 ] && grep -q "result" "$W/err" || bad "linear with '$opt' not refused with a reason: $(cat "$W/err")"
done
"$BIN" sim --image "$W/lin.lpi" --trace "$W/t4.trace" --issue-width 2 --ports 2 --verify >/dev/null 2>&1 ||
  bad "linear pipeline with two ports and issue width 2 refused or wrong"
"$BIN" sim --image "$W/nonexistent.lpi" --trace "$W/t4.trace" >/dev/null 2>&1
[ $? -ne 0 ] || bad "missing image accepted"
head -c 100 "$W/r8.lpi" >"$W/trunc.lpi"
"$BIN" sim --image "$W/trunc.lpi" --trace "$W/t4.trace" >/dev/null 2>&1
[ $? -eq 2 ] || bad "truncated image not refused with exit 2"
"$BIN" sim --help | grep -q -- "--cycle-log" || bad "--help"

# Real tables: full IPv4 and IPv6 FIBs, 100K lookups each, all checked.
if [ -n "$DATA" ] && [ -f "$DATA/routeviews-pfx2as-v4-2020-02.txt.xz" ]; then
  for t in routeviews-pfx2as-v4-2020-02.txt.xz:24:1 routeviews-20210117-as293.fib6.txt:32:3 linx-rib6-20141225-p69.txt:16:1; do
    IFS=: read -r f st k <<<"$t"
    [ -f "$DATA/$f" ] || { echo "SKIP: $f absent"; continue; }
    "$BIN" map --fib "$DATA/$f" --stages "$st" --stride "$k" -o "$W/real.lpi" >/dev/null || { bad "map $f"; continue; }
    # addresses: the table's own prefixes, as written by lookup --image over its dump
    xzcat -f "$DATA/$f" | awk 'NR % 7 == 1 && !/^#/ { split($1, p, "/"); print p[1] } NR > 700000 { exit }' | head -100000 >"$W/real.trace"
    out=$("$BIN" sim --image "$W/real.lpi" --trace "$W/real.trace" --queue 16 --issue-width 4 --verify --json 2>"$W/err")
    rc=$?
    m=$(wc -l <"$W/real.trace")
    if [ $rc -ne 0 ] || ! echo "$out" | grep -q '"mismatches":0,"reference_checked":'"$m"',"reference_mismatches":0'; then
      bad "sim on $f: exit $rc $(head -2 "$W/err")"
    else
      echo "$f: $m lookups on a $st-stage ring (stride $k), LPC $(echo "$out" | sed -n 's/.*"lpc":\([0-9.]*\).*/\1/p'), 0 mismatches"
    fi
  done
else
  echo "SKIP: real tables absent"
fi
exit $fail
