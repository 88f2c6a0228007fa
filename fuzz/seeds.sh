#!/usr/bin/env bash
# fuzz/seeds.sh BIN OUT: writes the seed corpora, OUT/NAME/ per harness.
# Nothing here is kept in the repository: slices of the shared tables
# (../shared/data, or $LPMPIPE_DATA), the MRT examples scripts/deps.sh
# installs (python3-mrtparse), and tables, traces, images, bubble files and
# name tables that lpmpipe generates now. Byte 0 of a FIB, input, trace,
# update or name seed is the harness's option byte (see each fuzz/*.c).
set -euo pipefail
BIN=${1:?usage: fuzz/seeds.sh BIN OUT}
OUT=${2:?usage: fuzz/seeds.sh BIN OUT}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
DATA=${LPMPIPE_DATA:-}
[ -n "$DATA" ] || { [ -d ../shared/data ] && DATA=$(cd ../shared/data && pwd); } || :
MRT=/usr/share/doc/mrtparse/examples
rm -rf "$OUT"
mkdir -p "$OUT"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# put NAME FILE BYTE: FILE with the option byte BYTE (octal escape) in front.
n=0
put() {
  mkdir -p "$OUT/$1"
  n=$((n + 1))
  { printf "$3"; cat "$2"; } >"$OUT/$1/seed-$n"
}
# slice FILE LINES: the first LINES lines of a (possibly xz) shared file.
slice() { case $1 in *.xz) xzcat "$1" | head -n "$2" || : ;; *) head -n "$2" "$1" ;; esac; }

# --- tables (text), generated and shared ---------------------------------
"$BIN" fib gen --family 4 --count 300 --seed 7 -o "$T/v4.fib"
"$BIN" fib gen --family 6 --count 300 --seed 7 -o "$T/v6.fib"
for b in '\000' '\001' '\004' '\010' '\224'; do put fib_text "$T/v4.fib" "$b"; put fib_text "$T/v6.fib" "$b"; done
if [ -n "$DATA" ]; then
  for f in routeviews-pfx2as-v4-2020-02.txt.xz routeviews-pfx2as-v6-2020-02.txt.xz tier1-2024.v4.txt.xz \
           tier1-2024.v6.txt.xz routeviews-20210117-as293.fib6.txt linx-rib6-20141225-p69.txt \
           bgp4mp-et-20151023-as3856.bgpdump.txt.xz; do
    [ -e "$DATA/$f" ] || continue
    slice "$DATA/$f" 200 >"$T/s.txt"
    for b in '\000' '\010' '\100' '\244'; do put fib_text "$T/s.txt" "$b"; done
    put fib_text "$T/s.txt" '\001'; put fib_text "$T/s.txt" '\002'; put fib_text "$T/s.txt" '\003'
  done
fi
# A two-peer bgpdump RIB (the peer choice) and a CRLF table.
awk 'NR<=100 { print "TABLE_DUMP2|1|B|192.0.2.1|64500|" $1 "|64500 1|IGP|" $2 "|0|0||NAG||"
               if (NR % 3 == 0) print "TABLE_DUMP2|1|B|192.0.2.2|65000|" $1 "|65000 1|IGP|198.51.100.1|0|0||NAG||" }' \
  "$T/v4.fib" >"$T/rib.txt"
put fib_text "$T/rib.txt" '\000'; put fib_text "$T/rib.txt" '\100'
sed 's/$/\r/' "$T/v4.fib" >"$T/crlf.txt"; put fib_text "$T/crlf.txt" '\000'

# --- binary MRT: the examples python3-mrtparse installs ------------------
if [ -d "$MRT" ]; then
  for f in "$MRT"/*; do
    case $f in *.conf | *.rst) continue ;; esac
    put fib_mrt "$f" '\000'; put fib_mrt "$f" '\010'; put fib_mrt "$f" '\040'
  done
fi
[ -d "$OUT/fib_mrt" ] || { echo "fuzz/seeds.sh: no MRT examples in $MRT (scripts/deps.sh installs them)" >&2; exit 2; }

# --- the compressed-input layer ------------------------------------------
head -50 "$T/v4.fib" >"$T/small.txt"
put input "$T/small.txt" '\000'
gzip -c "$T/small.txt" >"$T/a.gz"; put input "$T/a.gz" '\003'
xz -0 -c "$T/small.txt" >"$T/a.xz"; put input "$T/a.xz" '\007'; put input "$T/a.xz" '\000'
bzip2 -1 -c "$T/small.txt" >"$T/a.bz2"; put input "$T/a.bz2" '\000'
cat "$T/a.gz" "$T/a.gz" >"$T/aa.gz"; put input "$T/aa.gz" '\001'
cat "$T/a.xz" "$T/a.xz" >"$T/aa.xz"; put input "$T/aa.xz" '\002'
cat "$T/a.bz2" "$T/a.bz2" >"$T/aa.bz2"; put input "$T/aa.bz2" '\011'
head -c 60 "$T/a.gz" >"$T/cut.gz"; put input "$T/cut.gz" '\000'
put fib_text "$T/a.gz" '\000'; put fib_text "$T/a.xz" '\000'; put fib_text "$T/a.bz2" '\000'

# --- lookup traces --------------------------------------------------------
"$BIN" trace gen --fib "$T/v4.fib" --kind random-match --count 100 --seed 2 -o "$T/v4.trace"
"$BIN" trace gen --fib "$T/v6.fib" --kind table --count 100 --seed 2 -o "$T/v6.trace"
put trace "$T/v4.trace" '\000'; put trace "$T/v6.trace" '\001'
printf '# a comment\n10.0.0.1 # trailing\n\n\t192.0.2.1\r\n' >"$T/odd.trace"; put trace "$T/odd.trace" '\000'

# --- update traces --------------------------------------------------------
"$BIN" trace updates --fib "$T/v4.fib" --count 100 --withdraw-share 0.3 --seed 4 -o "$T/v4.upd"
"$BIN" trace updates --fib "$T/v6.fib" --count 100 --withdraw-share 0.3 --seed 4 -o "$T/v6.upd"
put updates "$T/v4.upd" '\001'; put updates "$T/v6.upd" '\002'; put updates "$T/v4.upd" '\000'
if [ -n "$DATA" ]; then
  [ -e "$DATA/linx-update-20141217-p52.txt" ] && { slice "$DATA/linx-update-20141217-p52.txt" 200 >"$T/s.upd"; put updates "$T/s.upd" '\001'; }
  [ -e "$DATA/bgp4mp-et-20151023-as3856.bgpdump.txt.xz" ] && {
    slice "$DATA/bgp4mp-et-20151023-as3856.bgpdump.txt.xz" 200 >"$T/s.upd"; put updates "$T/s.upd" '\000'; put updates "$T/s.upd" '\005'; }
fi
awk '{ if ($2 == "a") print "BGP4MP|" $1 "|A|192.0.2.1|64500|" $3 "|64500|IGP|" $4 "|0|0||NAG||"; else print "BGP4MP|" $1 "|W|192.0.2.1|64500|" $3 }' \
  "$T/v4.upd" >"$T/bgp.upd"
put updates "$T/bgp.upd" '\001'; put updates "$T/bgp.upd" '\005'

# --- pipeline images: every mapping, small tables -------------------------
head -40 "$T/v4.fib" >"$T/i4.fib"; head -40 "$T/v6.fib" >"$T/i6.fib"
i=0
for fam in 4 6; do
  for m in "--arch ring --stages 6 --initial-stride 4" "--arch ring --mapping adaptive --stages 6 --split 3 --initial-stride 4" \
           "--arch linear --mapping level --initial-stride 4 --stride 4" "--arch linear --mapping height --initial-stride 4 --stride 4" \
           "--arch linear --mapping balanced --stages $((fam * 4)) --initial-stride 4"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    "$BIN" map --fib "$T/i$fam.fib" $m -o "$OUT/image.$i.lpi" >/dev/null
  done
done
mkdir -p "$OUT/image"
mv "$OUT"/image.*.lpi "$OUT/image/"

# --- bubble files, made for the harness's own image -----------------------
# fuzz/fuzz_bubbles.c builds the same image in memory (lpm_fuzz_bubble_image).
"$BIN" fib gen --family 4 --count 500 --seed 7 -o "$T/b.fib"
"$BIN" map --fib "$T/b.fib" --arch ring --stages 8 --initial-stride 8 -o "$T/b.lpi" >/dev/null
mkdir -p "$OUT/bubbles"
for s in 1 2 3; do
  "$BIN" trace updates --fib "$T/b.fib" --count 40 --withdraw-share 0.3 --seed "$s" -o "$T/b.upd"
  "$BIN" update --image "$T/b.lpi" --updates "$T/b.upd" --bubbles "$OUT/bubbles/seed-$s" >/dev/null
done

# --- name tables and name queries -----------------------------------------
"$BIN" names gen --count 200 --seed 1 -o "$T/hosts.txt"
"$BIN" names build --domains "$T/hosts.txt" --ports 16 -o "$T/names.tab" 2>/dev/null
put names_table "$T/hosts.txt" '\001'; put names_table "$T/hosts.txt" '\005'
put names_table "$T/names.tab" '\000'; put names_table "$T/names.tab" '\002'
"$BIN" names trace --table "$T/names.tab" --kind average --count 100 --seed 2 -o "$T/names.q"
put names_query "$T/names.q" '\000'
printf '/com/parc/www/index.html\n/com\n/\n/net/xyz/0123456789abcdef/x\n/org/example/a/b\n' >"$T/q.txt"
put names_query "$T/q.txt" '\000'
if [ -n "$DATA" ]; then
  for f in names/alexa-top100k-2016.txt.xz names/ut1-hosts.txt.xz names/zonewalk-domains.txt.xz; do
    [ -e "$DATA/$f" ] || continue
    slice "$DATA/$f" 200 >"$T/s.txt"; put names_table "$T/s.txt" '\001'; put names_table "$T/s.txt" '\003'
  done
fi
for d in "$OUT"/*/; do printf '%s %s\n' "$(basename "$d")" "$(ls "$d" | wc -l)"; done >"$OUT/COUNTS"
