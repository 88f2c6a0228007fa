#!/usr/bin/env bash
# Our binary MRT reader against bgpdump: for every MRT file among Debian
# mrtparse's examples, the table we read equals the one our bgpdump-text
# reader builds from `bgpdump -m FILE` (same prefixes, same next hops, same
# peer chosen), for each address family. Then the real bgpdump-text table is
# converted and compared with a replay done in awk.
set -u
BIN=${LPMPIPE:?}
EX=/usr/share/doc/mrtparse/examples
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 compared=0

# run NAME ARGS...: converts into $T/NAME.txt; the first stderr line that is
# an error (not a note) goes to $T/NAME.err; echoes the exit status.
run() {
  local name=$1; shift
  "$BIN" fib convert -o "$T/$name.txt" "$@" 2>"$T/$name.log"
  local rc=$?
  grep -v '^lpmpipe: fib convert: \(note: \|.*skipped$\)' "$T/$name.log" |
    sed 's/^lpmpipe: fib convert: //; s/^[^:]*:[0-9]*: //; s/^[^:]*: offset [0-9]*: record [0-9]*: //; s/^[^:]*: [0-9]* records\{0,1\}: //' >"$T/$name.err"
  echo $rc
}

if ! command -v bgpdump >/dev/null; then
  echo "SKIP: bgpdump is not installed (Debian package bgpdump)"
elif [ ! -d "$EX" ]; then
  echo "SKIP: $EX is absent (Debian package mrtparse)"
else
  for f in "$EX"/*; do
    n=$(basename "$f")
    # MRT files only: the folder also holds router configs and a README.
    case $(head -c 12 "$f" | od -An -tu1 | awk '{ print $5 * 256 + $6 }') in
      12|13|16|17) ;;
      *) continue ;;
    esac
    bgpdump -m "$f" 2>/dev/null >"$T/dump.txt"
    routes=$(grep -vc '|STATE|' "$T/dump.txt")
    if [ "$routes" = 0 ]; then
      # openbgpd's table-mp dump: BGP4MP_ENTRY records (subtype 2, not in
      # RFC 6396). Both tools skip them; ours must not invent routes.
      if [ "$(run mrt --fib "$f")" = 2 ] && grep -q 'no prefixes' "$T/mrt.err"; then
        echo "SKIP: $n: bgpdump -m prints no routes for it (record types outside RFC 6396); our reader skips them too"
      else
        echo "FAIL: $n: bgpdump reads no routes, our MRT reader does"; fail=1
      fi
      continue
    fi
    if ! grep -v '|STATE|' "$T/dump.txt" | grep -qv '^[A-Z0-9_]*_AP|'; then
      echo "SKIP: $n: only RFC 8050 add-path routes, which lpmpipe skips in MRT and in bgpdump text alike"
      continue
    fi
    for fam in 4 6; do
      a=$(run mrt --fib "$f" --family $fam)
      b=$(run txt --fib - --format bgpdump --family $fam <"$T/dump.txt")
      if [ "$a" = 2 ] && ! grep -q 'no prefixes' "$T/mrt.err" && grep -q 'host bits' "$T/txt.err"; then
        # bird puts add-path NLRI into plain BGP4MP records: bgpdump prints
        # garbage prefixes (host bits set), our reader must refuse the file.
        echo "SKIP: $n IPv$fam: bgpdump misreads it ($(head -1 "$T/txt.err")); our MRT reader refuses it: $(head -1 "$T/mrt.err")"
        continue
      fi
      if [ "$a" != "$b" ]; then
        echo "FAIL: $n IPv$fam: exit $a from the MRT reader, $b from bgpdump text"
        cat "$T/mrt.err" "$T/txt.err"; fail=1; continue
      fi
      if [ "$a" != 0 ]; then
        if grep -q 'no prefixes' "$T/mrt.err" && grep -q 'no prefixes' "$T/txt.err"; then
          echo "ok: $n IPv$fam: no routes of this family in either reading"
          continue
        fi
        echo "FAIL: $n IPv$fam: both readers failed"; cat "$T/mrt.err" "$T/txt.err"; fail=1; continue
      fi
      if ! cmp -s "$T/mrt.txt" "$T/txt.txt"; then
        echo "FAIL: $n IPv$fam: tables differ (< MRT, > bgpdump text)"; diff "$T/mrt.txt" "$T/txt.txt" | head -20; fail=1; continue
      fi
      pa=$(grep -o 'using peer .*' "$T/mrt.log"); pb=$(grep -o 'using peer .*' "$T/txt.log")
      if [ "$pa" != "$pb" ]; then
        echo "FAIL: $n IPv$fam: peer '$pa' from MRT, '$pb' from bgpdump text"; fail=1; continue
      fi
      compared=$((compared + 1))
      echo "ok: $n IPv$fam: $(wc -l <"$T/mrt.txt") prefixes equal${pa:+, $pa}"
    done
  done
fi

D=${LPMPIPE_DATA:-}
B=bgp4mp-et-20151023-as3856.bgpdump.txt.xz
if [ -z "$D" ] || [ ! -e "$D/$B" ]; then
  echo "SKIP: $B: ../shared/data is absent"
else
  # Replay in awk: the last A of a prefix wins, a later W removes it.
  xzcat "$D/$B" | awk -F'|' '$3 == "A" { nh[$6] = $9 } $3 == "W" { delete nh[$6] }
                              END { for (p in nh) print p, nh[p] }' | sort >"$T/awk.txt"
  if "$BIN" fib convert --fib "$D/$B" -o - 2>/dev/null | sort >"$T/ours.txt" && cmp -s "$T/awk.txt" "$T/ours.txt"; then
    compared=$((compared + 1))
    echo "ok: $B: $(wc -l <"$T/ours.txt") prefixes and next hops equal an awk replay"
  else
    echo "FAIL: $B: converted table differs from the awk replay"; diff "$T/awk.txt" "$T/ours.txt" | head; fail=1
  fi
fi

[ $compared -gt 0 ] || [ $fail = 1 ] || exit 77
exit $fail
