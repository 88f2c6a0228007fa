#!/usr/bin/env bash
# The tries through the CLI: lookup --engine unibit|multibit (verified, and
# the same output as the reference), lpmpipe bench (table, JSON, bad
# options), lpmpipe fib tries (when wired into fib; SKIP otherwise).
set -u
BIN=${LPMPIPE:-build/lpmpipe}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# expect STATUS "message part" -- command...
expect() {
  local want=$1 msg=$2; shift 3
  "$@" >"$W/out" 2>"$W/err"
  local rc=$?
  [ "$rc" = "$want" ] || bad "exit $rc (want $want): $*: $(head -c 300 "$W/err")"
  [ -z "$msg" ] || grep -qF -- "$msg" "$W/err" || bad "no '$msg' in the message of: $*: $(head -c 300 "$W/err")"
}

"$BIN" fib gen --family 4 --count 20000 --seed 3 -o "$W/v4.fib" || bad "fib gen v4"
"$BIN" fib gen --family 6 --count 8000 --seed 3 -o "$W/v6.fib" || bad "fib gen v6"
for fam in v4 v6; do
  "$BIN" trace gen --fib "$W/$fam.fib" --kind random-match --count 20000 --seed 5 -o "$W/$fam.trace" || bad "trace gen $fam"
  "$BIN" trace gen --fib "$W/$fam.fib" --kind uniform --count 5000 --seed 6 >>"$W/$fam.trace" || bad "trace gen $fam"
  "$BIN" lookup --fib "$W/$fam.fib" --engine ref --trace "$W/$fam.trace" >"$W/ref.out" || bad "lookup ref $fam"
  for e in unibit multibit; do
    "$BIN" lookup --fib "$W/$fam.fib" --engine $e --verify --trace "$W/$fam.trace" >"$W/$e.out" \
      || bad "lookup --engine $e --verify $fam"
    cmp -s "$W/ref.out" "$W/$e.out" || bad "lookup --engine $e differs from ref on $fam"
  done
  [ "$(wc -l <"$W/ref.out")" = 25000 ] || bad "lookup printed $(wc -l <"$W/ref.out") lines for 25000 addresses"
done

# bench: table and JSON, every engine checked, strides spec.
"$BIN" bench --fib "$W/v4.fib" --engines ref,unibit,multibit --count 50000 --repeat 3 >"$W/b.txt" || bad "bench table"
grep -q '^multibit .* 16-8-8$' "$W/b.txt" || bad "bench table lacks the multibit row: $(cat "$W/b.txt")"
for s in 8-8-8-8 optimal:3 gamt:4 gamt:4:16; do
  "$BIN" bench --fib "$W/v4.fib" --engines multibit --strides $s --count 20000 --repeat 1 --json >"$W/b.json" \
    || bad "bench --strides $s"
  python3 - "$W/b.json" "$s" <<'EOF' || bad "bench --json --strides $s"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["family"] == 4 and d["prefixes"] == 20000, d
assert d["trace"] == {"kind": "random-match", "seed": 1, "count": 20000}, d["trace"]
(e,) = d["engines"]
assert e["name"] == "multibit" and e["mismatches"] == 0 and e["checked"] == 20000, e
assert e["lookups_per_s"] > 0 and e["memory_bytes"] > 0 and len(e["runs_s"]) == 1, e
if sys.argv[2] == "8-8-8-8":
    assert e["detail"] == "8-8-8-8", e
assert sum(int(x) for x in e["detail"].split("-")) == 32, e
EOF
done
"$BIN" bench --fib "$W/v6.fib" --trace "$W/v6.trace" --repeat 1 --json >"$W/b6.json" || bad "bench v6 --trace"
python3 - "$W/b6.json" <<'EOF' || bad "bench v6 JSON"
import json, sys
d = json.load(open(sys.argv[1]))
names = [e["name"] for e in d["engines"]]
assert "ref" in names and "unibit" in names and "multibit" in names, names
for e in d["engines"]:
    assert "skipped" in e or (e["mismatches"] == 0 and e["checked"] == 25000), e
EOF
expect 2 "unknown engine 'nope'" -- "$BIN" bench --fib "$W/v4.fib" --engines ref,nope
expect 2 "--repeat" -- "$BIN" bench --fib "$W/v4.fib" --repeat 0
expect 2 "--count" -- "$BIN" bench --fib "$W/v4.fib" --count 12x
expect 2 "unknown kind" -- "$BIN" bench --fib "$W/v4.fib" --kind sideways
expect 2 "not both" -- "$BIN" bench --fib "$W/v4.fib" --trace "$W/v4.trace" --count 5
expect 2 "--fib is required" -- "$BIN" bench --engines ref
expect 2 "holds IPv6 addresses" -- "$BIN" bench --fib "$W/v4.fib" --trace "$W/v6.trace"
expect 2 "strides" -- "$BIN" bench --fib "$W/v4.fib" --engines multibit --strides 16-8-9 --count 10
expect 2 "strides" -- "$BIN" bench --fib "$W/v4.fib" --engines multibit --strides gamt:x --count 10
expect 2 "longer than the strides 16-16-16-16 cover (64 bits)" -- \
  "$BIN" bench --fib "$W/v6.fib" --engines multibit --strides 16-16-16-16 --count 10
"$BIN" bench --help | grep -q -- '--strides' || bad "bench --help"

# fib tries, once the lead has wired it into lpmpipe fib.
if "$BIN" fib tries --help >/dev/null 2>&1; then
  "$BIN" fib tries --fib "$W/v4.fib" --levels 3 --algo optimal --json >"$W/t.json" || bad "fib tries --json"
  python3 - "$W/t.json" <<'EOF' || bad "fib tries JSON"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["multibit"]
assert d["prefixes"] == 20000 and m["algo"] == "optimal" and len(m["levels"]) == 3, d
assert sum(l["bytes"] for l in m["levels"]) == m["bytes"] == 4 * m["entries"], m
assert max(l["entries"] for l in m["levels"]) == m["widest"], m
assert sum(l["stride"] for l in m["levels"]) == 32, m
u = d["unibit"]
assert sum(l["nodes"] for l in u["levels"]) == u["nodes"], u
EOF
  "$BIN" fib tries --fib "$W/v4.fib" >"$W/t1.txt" && "$BIN" fib tries --fib "$W/v4.fib" >"$W/t2.txt" \
    && cmp -s "$W/t1.txt" "$W/t2.txt" || bad "fib tries is not deterministic"
  grep -q 'strides 16-8-8 (default)' "$W/t1.txt" || bad "fib tries default strides"
  expect 2 "--algo" -- "$BIN" fib tries --fib "$W/v4.fib" --algo best
  expect 2 "not both" -- "$BIN" fib tries --fib "$W/v4.fib" --strides 16-8-8 --levels 3
  expect 2 "--levels" -- "$BIN" fib tries --fib "$W/v4.fib" --levels 0
  expect 2 "cannot cover" -- "$BIN" fib tries --fib "$W/v4.fib" --levels 1 --algo gamt
  expect 2 "longer than the strides" -- "$BIN" fib tries --fib "$W/v6.fib" --strides 16-16-16-16
else
  echo "SKIP: lpmpipe fib tries is not wired into this binary yet"
fi
exit $fail
