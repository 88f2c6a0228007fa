#!/usr/bin/env bash
# lpmpipe trace gen | updates end to end: output shape, determinism, every
# generated lookup checked by `lookup --verify`, absurd options refused
# with exit 2, and (when built) the demo's `fib gen` -> `trace gen` chain.
set -u
BIN=${LPMPIPE:?}
W=$(mktemp -d /tmp/lpm-e2e-trace.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# A small table by hand: nested prefixes, both families.
printf '10.0.0.0/8 a\n10.1.0.0/16 b\n10.1.2.0/24 c\n192.168.0.0/23 d\n192.168.0.0/24 e\n192.168.1.0/24 f\n172.16.0.0/12 g\n' > "$W/v4.fib"
printf '2001:db8::/32 a\n2001:db8:1::/48 b\n2400::/12 c\n2001:db8:1:2::/64 d\n' > "$W/v6.fib"

"$BIN" trace --help | grep -q 'random-match' || bad "trace --help"
"$BIN" trace gen --help >/dev/null || bad "trace gen --help"

for fam in 4 6; do
  for k in uniform random-match table zipf; do
    "$BIN" trace gen --fib "$W/v$fam.fib" --kind $k --count 5000 --seed 3 --burst 2 -o "$W/t" || bad "gen v$fam $k"
    [ "$(wc -l < "$W/t")" -eq 5000 ] || bad "v$fam $k: not 5000 lines"
    "$BIN" trace gen --fib "$W/v$fam.fib" --kind $k --count 5000 --seed 3 --burst 2 > "$W/t2"
    cmp -s "$W/t" "$W/t2" || bad "v$fam $k: same seed, different output"
    "$BIN" trace gen --fib "$W/v$fam.fib" --kind $k --count 5000 --seed 4 --burst 2 > "$W/t3"
    cmp -s "$W/t" "$W/t3" && bad "v$fam $k: another seed, same output"
    "$BIN" lookup --fib "$W/v$fam.fib" --verify --trace "$W/t" > "$W/ans" || bad "v$fam $k: lookup --verify"
    if [ $k != uniform ] && grep -q ' -$' "$W/ans"; then bad "v$fam $k: an address without a match"; fi
  done
done
# Random Match on the hand table: only the leaf-pushed paths' owners match.
"$BIN" trace gen --fib "$W/v4.fib" --count 3000 --seed 1 | "$BIN" lookup --fib "$W/v4.fib" - \
  | awk '{print $2}' | sort -u | tr '\n' ' ' > "$W/hops"
[ "$(cat "$W/hops")" = "a b c e f g " ] || bad "random-match owners: $(cat "$W/hops")"

# Update traces.
"$BIN" trace updates --fib "$W/v4.fib" --count 200 --withdraw-share 0.5 --seed 2 -o "$W/u" || bad "updates"
[ "$(wc -l < "$W/u")" -eq 200 ] || bad "updates: not 200 lines"
awk '($2=="a" && NF==4) || ($2=="w" && NF==3) {next} {exit 1}' "$W/u" || bad "updates: bad line shape"
"$BIN" trace updates --fib "$W/v4.fib" --count 200 --withdraw-share 0.5 --seed 2 | cmp -s - "$W/u" || bad "updates not deterministic"

# Absurd options: exit 2 and a message naming the option.
expect2() {
  local what=$1; shift
  "$BIN" "$@" > /dev/null 2> "$W/err"
  local rc=$?
  [ $rc -eq 2 ] || bad "$what: exit $rc, want 2"
  grep -qF -- "$what" "$W/err" || bad "$what: message '$(cat "$W/err")'"
}
expect2 "--count" trace gen --fib "$W/v4.fib" --count 0
expect2 "--count" trace gen --fib "$W/v4.fib" --count 2G
expect2 "--count" trace gen --fib "$W/v4.fib" --count -5
expect2 "--burst" trace gen --fib "$W/v4.fib" --count 5 --burst 0.5
expect2 "--burst" trace gen --fib "$W/v4.fib" --count 5 --burst 1e9
expect2 "--zipf" trace gen --fib "$W/v4.fib" --count 5 --kind zipf --zipf 0
expect2 "--zipf" trace gen --fib "$W/v4.fib" --count 5 --kind zipf --zipf 50
expect2 "--kind" trace gen --fib "$W/v4.fib" --count 5 --kind random
expect2 "--seed" trace gen --fib "$W/v4.fib" --count 5 --seed x
expect2 "--fib" trace gen --count 5
expect2 "--count" trace gen --fib "$W/v4.fib"
expect2 "--withdraw-share" trace updates --fib "$W/v4.fib" --count 5 --withdraw-share 1.5
expect2 "unknown subcommand" trace generate --fib "$W/v4.fib"
expect2 "unexpected argument" trace gen --fib "$W/v4.fib" --count 5 extra
printf '10.0.0.0/33 a\n' > "$W/bad.fib"
expect2 "bad.fib:1:" trace gen --fib "$W/bad.fib" --count 5
: > "$W/empty.fib"
"$BIN" trace gen --fib "$W/empty.fib" --count 5 > /dev/null 2>&1
[ $? -eq 2 ] || bad "empty table: want exit 2"

# The demo's chain, once `fib gen` is built into the binary.
if "$BIN" fib gen --help > /dev/null 2>&1; then
  "$BIN" fib gen --family 4 --count 200000 --seed 1 -o "$W/F" || bad "fib gen"
  "$BIN" trace gen --fib "$W/F" --kind random-match --count 100000 --seed 2 -o "$W/T" || bad "demo trace gen"
  "$BIN" lookup --fib "$W/F" --verify --trace "$W/T" > "$W/ans" || bad "demo lookups"
  grep -q ' -$' "$W/ans" && bad "demo: random-match address without a match"
else
  echo "SKIP: lpmpipe fib gen is not built: the demo chain is not run"
fi

# A real table, when present.
if [ -n "${LPMPIPE_DATA:-}" ] && [ -f "$LPMPIPE_DATA/tier1-2024.v6.txt.xz" ]; then
  "$BIN" trace gen --fib "$LPMPIPE_DATA/tier1-2024.v6.txt.xz" --kind random-match --count 100000 --seed 5 -o "$W/r6" || bad "real v6"
  "$BIN" lookup --fib "$LPMPIPE_DATA/tier1-2024.v6.txt.xz" --verify --trace "$W/r6" > "$W/ans" || bad "real v6 lookups"
  grep -q ' -$' "$W/ans" && bad "real v6: random-match address without a match"
else
  echo "SKIP: no real IPv6 table: the real-table trace is not run"
fi
exit $fail
