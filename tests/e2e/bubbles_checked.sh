#!/usr/bin/env bash
# Bubble files are checked against the image they are applied to: every
# hostile case below is refused by `sim --updates` (and `rtl verify
# --updates`) with exit 2 and its `file:line: reason`, before anything is
# simulated (no report on stdout, no results file). A file made for another
# image is refused unless --ignore-image-crc; `update --bubbles -` pipes
# into `sim --updates -`.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
W=$(mktemp -d /tmp/lpmpipe-e2e-bub.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0 cases=0
bad() { echo "FAIL: $*"; fail=1; }
if ! "$BIN" update --help >/dev/null 2>&1; then echo "SKIP: lpmpipe update is not built"; exit 77; fi

"$BIN" fib gen --family 4 --count 2000 --seed 3 -o "$W/t.fib"
"$BIN" map --fib "$W/t.fib" --stages 8 -o "$W/t.lpi" >/dev/null || { echo "FAIL: map"; exit 1; }
"$BIN" trace updates --fib "$W/t.fib" --count 200 --seed 5 -o "$W/t.upd"
"$BIN" update --image "$W/t.lpi" --updates "$W/t.upd" --bubbles "$W/good.bub" >/dev/null || { echo "FAIL: update"; exit 1; }
H=$(grep '^H ' "$W/good.bub")
depth0=$("$BIN" image dump "$W/t.lpi" | awk '$1 == "0" { print $4 }')
wbits=$(sed -n 's/.* word_bits=\([0-9]*\).*/\1/p' <<<"$H")
dbits=$(sed -n 's/.* dit_bits=\([0-9]*\).*/\1/p' <<<"$H")
crc=$(sed -n 's/.* image_crc=\([0-9a-f]*\).*/\1/p' <<<"$H")
[ -n "$depth0" ] && [ -n "$wbits" ] && [ -n "$crc" ] || { echo "FAIL: cannot read the header or the stage depth: $H"; exit 1; }
hex() { printf '%x' "$1"; }

# refused NAME 'expected file:line: reason' FILE-CONTENT [sim options]
refused() {
  local name=$1 want=$2 body=$3; shift 3
  cases=$((cases + 1))
  printf '%s\n' "$body" >"$W/$name.bub"
  rm -f "$W/res.csv"
  "$BIN" sim --image "$W/t.lpi" --gen random-match --count 1000 --updates "$W/$name.bub" --results "$W/res.csv" "$@" \
    >"$W/out" 2>"$W/err"
  local rc=$?
  [ $rc -eq 2 ] || { bad "$name: exit $rc, want 2: $(cat "$W/err")"; return; }
  grep -qF -- "$W/$name.bub:$want" "$W/err" || { bad "$name: want '$name.bub:$want', got: $(cat "$W/err")"; return; }
  [ -s "$W/out" ] && bad "$name: a report was printed although nothing may be simulated"
  [ -e "$W/res.csv" ] && bad "$name: the results file was written although nothing may be simulated"
  [ "$(wc -l <"$W/err")" -eq 1 ] || bad "$name: more than one line on stderr: $(cat "$W/err")"
}
u='U 1 a 10.0.0.0/8 nh1'
refused stage "3: write to stage 8, the image has 8 stages (0..7)" "$H"$'\n'"$u"$'\nB 1 8:0:0'
refused address "3: write to stage 0 address $depth0, the stage has $depth0 words" "$H"$'\n'"$u"$'\n'"B 1 0:$depth0:0"
refused wide "3: write 0:0: word $(hex $((1 << wbits))) is wider than the image's $wbits-bit words" \
  "$H"$'\n'"$u"$'\n'"B 1 0:0:$(hex $((1 << wbits)))"
refused dit_index "3: write to DIT entry 256, the table has 256 entries" "$H"$'\n'"$u"$'\nB 1 D:256:0'
refused dit_wide "3: write D:0: word $(hex $((1 << dbits))) is wider than the image's $dbits-bit DIT entries" \
  "$H"$'\n'"$u"$'\n'"B 1 D:0:$(hex $((1 << dbits)))"
refused reserved "3: write 0:0: word 4 has reserved or disabled bits set" "$H"$'\n'"$u"$'\nB 1 0:0:4'
# C set, the child address all ones: its block lies past stage 1's memory.
nh_bits=$("$BIN" image dump "$W/t.lpi" | sed -n 's/.*(C V nh:\([0-9]*\) addr:\([0-9]*\)).*/\1/p')
addr_bits=$("$BIN" image dump "$W/t.lpi" | sed -n 's/.*(C V nh:\([0-9]*\) addr:\([0-9]*\)).*/\2/p')
ptr=$(( (((1 << addr_bits) - 1) << (2 + nh_bits)) | 1 ))
# image version 2: the field is a block index; the message names word addresses
s1=$("$BIN" image dump "$W/t.lpi" | awk '$1 == "1" { print $2 }')
first=$(( ((1 << addr_bits) - 1) << s1 ))
refused pointer "3: write 0:0: child block $first..$(( first + (1 << s1) - 1 )) of stage 1 is outside its" \
  "$H"$'\n'"$u"$'\n'"B 1 0:0:$(hex $ptr)"
refused family "1: made for an IPv6 image, this image is IPv4" "${H/family=4/family=6}"$'\n'"$u"
refused stages "1: made for 24 stages, this image has 8" "${H/stages=8/stages=24}"$'\n'"$u"
refused arch "1: made for a linear pipeline, this image is a ring" "${H/arch=ring/arch=linear}"$'\n'"$u"
refused crc "1: made for the image with CRC 0badc0de, this image's CRC is $crc (--ignore-image-crc applies it anyway)" \
  "${H/image_crc=$crc/image_crc=0badc0de}"$'\n'"$u"
refused noheader "1: the first line must be the header 'H bubbles=2 ...' (a file from lpmpipe update)" "$u"$'\nB 1 0:0:0'
refused empty "1: no header line 'H bubbles=2 ...': not a bubble file from lpmpipe update" ""
refused counts "4: update 1 says writes=1 bubbles=2, its B lines hold 1 writes in 1 bubbles" \
  "$H"$'\nU 1 a 10.0.0.0/8 nh1 writes=1 bubbles=2\nB 1 0:0:0\nU 2 w 10.0.0.0/8 - writes=0 bubbles=0'
refused numbering "4: bubble 3 follows bubble 1 (numbers count 1, 2, ...)" "$H"$'\n'"$u"$'\nB 1 0:0:0\nB 3 1:0:0'
refused version "1: bubble file version 3 is not supported (this build reads 2)" "${H/bubbles=2/bubbles=3}"

# A real file made for another image (same shape, other table): refused,
# and applied when asked (its writes still have to fit).
"$BIN" fib gen --family 4 --count 2000 --seed 4 -o "$W/o.fib"
"$BIN" map --fib "$W/o.fib" --stages 8 -o "$W/o.lpi" >/dev/null
"$BIN" trace updates --fib "$W/o.fib" --count 50 --seed 5 -o "$W/o.upd"
"$BIN" update --image "$W/o.lpi" --updates "$W/o.upd" --bubbles "$W/other.bub" >/dev/null
cases=$((cases + 1))
"$BIN" sim --image "$W/t.lpi" --gen random-match --count 1000 --updates "$W/other.bub" >/dev/null 2>"$W/err"
rc=$?
[ $rc -eq 2 ] && grep -q "other.bub:2: made for the image with CRC" "$W/err" || bad "another image's bubbles: exit $rc: $(cat "$W/err")"
printf '%s\n' "${H/image_crc=$crc/image_crc=0badc0de}" >"$W/forced.bub"; grep -v '^[H#]' "$W/good.bub" >>"$W/forced.bub"
out=$("$BIN" sim --image "$W/t.lpi" --gen random-match --count 1000 --updates "$W/forced.bub" --ignore-image-crc --json 2>"$W/err")
[ $? -eq 0 ] || bad "--ignore-image-crc: $(cat "$W/err")"
grep -q "note: .*forced.bub was made for another image" "$W/err" || bad "--ignore-image-crc: no note: $(cat "$W/err")"
grep -q '"mismatches":0' <<<"$out" || bad "--ignore-image-crc: $out"

# The pipe: only bubbles on update's stdout, the report on stderr.
out=$("$BIN" update --image "$W/t.lpi" --updates "$W/t.upd" --bubbles - 2>"$W/rep" |
      "$BIN" sim --image "$W/t.lpi" --gen random-match --count 20000 --updates - --update-rate 1000000 --json)
[ $? -eq 0 ] || bad "update --bubbles - | sim --updates -: failed"
grep -q '"against":"interpreter before/after update","checked":20000,"mismatches":0' <<<"$out" || bad "pipe: $out"
grep -q '"applied":[1-9]' <<<"$out" || bad "pipe: no bubble applied: $out"
grep -q '^updates ' "$W/rep" || bad "pipe: the report is not on stderr: $(head -3 "$W/rep")"
"$BIN" update --image "$W/t.lpi" --updates "$W/t.upd" --bubbles - 2>/dev/null | cmp -s - "$W/good.bub" ||
  bad "update --bubbles - writes something other than the bubble file"
"$BIN" update --image "$W/t.lpi" --updates "$W/t.upd" --bubbles - -o - >/dev/null 2>"$W/err"
[ $? -eq 2 ] || bad "--bubbles - with -o - not refused"

# rtl verify reads bubble files through the same checks.
if command -v verilator >/dev/null && "$BIN" rtl --help >/dev/null 2>&1; then
  cases=$((cases + 1))
  "$BIN" rtl verify --image "$W/t.lpi" --gen random-match --count 100 --updates "$W/stage.bub" >/dev/null 2>"$W/err"
  rc=$?
  [ $rc -eq 2 ] && grep -qF "stage.bub:3: write to stage 8, the image has 8 stages (0..7)" "$W/err" ||
    bad "rtl verify: exit $rc: $(cat "$W/err")"
else
  echo "SKIP: rtl verify --updates (no verilator)"
fi
echo "$cases cases"
exit $fail
