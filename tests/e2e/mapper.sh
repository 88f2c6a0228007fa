#!/usr/bin/env bash
# The mapper through the CLI: map (ring, adaptive, linear level/height/
# balanced, IPv4 and IPv6) -> lookup --image --verify (same output as the
# reference engine), image dump|hex|check, update with a bubble file (the
# updated image verified against the updated table), bad options and bad
# images refused with exit 2.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
expect() { # expect STATUS "message part" -- command...
  local want=$1 msg=$2; shift 3
  "$@" >"$W/out" 2>"$W/err"
  local rc=$?
  [ "$rc" = "$want" ] || bad "exit $rc (want $want): $*: $(head -c 300 "$W/err")"
  [ -z "$msg" ] || grep -qF -- "$msg" "$W/err" || bad "no '$msg' in the message of: $*: $(head -c 300 "$W/err")"
}

"$BIN" fib gen --family 4 --count 30000 --seed 3 -o "$W/v4.fib" || bad "fib gen v4"
"$BIN" fib gen --family 6 --count 10000 --seed 3 -o "$W/v6.fib" || bad "fib gen v6"
for fam in v4 v6; do
  "$BIN" trace gen --fib "$W/$fam.fib" --kind random-match --count 20000 --seed 5 -o "$W/$fam.trace" || bad "trace $fam"
  "$BIN" trace gen --fib "$W/$fam.fib" --kind uniform --count 5000 --seed 6 >>"$W/$fam.trace" || bad "trace $fam"
  "$BIN" lookup --fib "$W/$fam.fib" --trace "$W/$fam.trace" >"$W/ref.out" || bad "lookup ref $fam"
  for m in "--arch ring --stages 16 --initial-stride 8" "--arch ring --mapping adaptive --stages 8 --stride 2" \
           "--arch linear" "--arch linear --mapping height --stride 3" "--arch linear --mapping balanced --stages 20"; do
    # shellcheck disable=SC2086
    "$BIN" map --fib "$W/$fam.fib" $m -o "$W/$fam.lpi" --json >"$W/rep.json" || { bad "map $fam $m"; continue; }
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['words_used']>0 and len(r['per_stage'])==r['stages']" \
      "$W/rep.json" || bad "map report $fam $m"
    "$BIN" lookup --image "$W/$fam.lpi" --verify --trace "$W/$fam.trace" >"$W/img.out" || bad "lookup --image --verify $fam $m"
    "$BIN" lookup --image "$W/$fam.lpi" --verify --fib "$W/$fam.fib" --trace "$W/$fam.trace" >/dev/null \
      || bad "lookup --image --verify --fib $fam $m"
    cmp -s "$W/ref.out" "$W/img.out" || bad "lookup --image differs from the reference engine: $fam $m"
  done
done

# lookup --image --json: the --stats figures as JSON instead of the answers.
"$BIN" lookup --image "$W/v4.lpi" --verify --trace "$W/v4.trace" --stats --json >"$W/st.json" 2>"$W/st.err" \
  || bad "lookup --image --json"
python3 - "$W/st.json" "$W/st.err" <<'PY' || bad "lookup --image --json figures"
import json, re, sys
r = json.loads(open(sys.argv[1]).read())
m = re.search(r"(\d+) lookups, stage reads ([0-9.]+) mean / (\d+) max, loops ([0-9.]+) mean / (\d+) max", open(sys.argv[2]).read())
assert r["lookups"] == 25000 and r["verified"] and r["mismatches"] == 0, r
assert m and int(m.group(1)) == r["lookups"] and "%.3f" % r["reads_mean"] == m.group(2), (r, m)
assert int(m.group(3)) == r["reads_max"] and "%.4f" % r["loops_mean"] == m.group(4) and int(m.group(5)) == r["loops_max"]
assert 1 <= r["reads_mean"] <= r["reads_max"] <= 20
PY

# Same inputs, same bytes.
"$BIN" map --fib "$W/v4.fib" -o "$W/a.lpi" >/dev/null && "$BIN" map --fib "$W/v4.fib" -o "$W/b.lpi" >/dev/null
cmp -s "$W/a.lpi" "$W/b.lpi" || bad "map is not deterministic"

# image dump | hex | check
"$BIN" image check "$W/a.lpi" >/dev/null || bad "image check"
"$BIN" image dump "$W/a.lpi" --json | python3 -c "import json,sys; json.load(sys.stdin)" || bad "image dump --json"
"$BIN" image dump "$W/a.lpi" --stage 3 | grep -q "^stage 3:" || bad "image dump --stage"
"$BIN" image hex "$W/a.lpi" -o "$W/hex" || bad "image hex"
[ "$(ls "$W/hex"/stage_*.hex | wc -l)" = 24 ] || bad "image hex: not 24 stage files"
depth0=$(python3 -c "import json; print(json.load(open('$W/hex/layout.json'))['depth'][0])")
[ "$(wc -l <"$W/hex/stage_00.hex")" = "$depth0" ] || bad "stage_00.hex has not depth[0] lines"
[ "$(wc -l <"$W/hex/dit.hex")" = 256 ] || bad "dit.hex has not 256 lines"

# update: bubbles, then the image verified against the updated table
"$BIN" trace updates --fib "$W/v4.fib" --count 3000 --seed 9 -o "$W/u.txt" || bad "trace updates"
"$BIN" update --image "$W/a.lpi" --updates "$W/u.txt" -o "$W/a2.lpi" --bubbles "$W/b.txt" --json >"$W/upd.json" \
  || bad "update"
python3 - "$W/b.txt" "$W/upd.json" <<'PY' || bad "bubble file"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].startswith("# lpmpipe bubbles v2")
r = json.load(open(sys.argv[2]))
u = sum(1 for l in lines if l.startswith("U "))
b = [l for l in lines if l.startswith("B ")]
assert u == r["updates"] == 3000, (u, r["updates"])
assert len(b) == r["bubbles"], (len(b), r["bubbles"])
for l in b:
    stages = [w.split(":")[0] for w in l.split()[2:]]
    assert len(stages) == len(set(stages)), l   # at most one write per stage
PY
cat "$W/v4.trace" >"$W/all.trace"; awk '{split($3,a,"/"); print a[1]}' "$W/u.txt" >>"$W/all.trace"
"$BIN" lookup --image "$W/a2.lpi" --verify --trace "$W/all.trace" >/dev/null || bad "updated image vs its table"

# bad options and bad images: exit 2 with a reason
expect 2 "--stages" -- "$BIN" map --fib "$W/v4.fib" --stages 0 -o "$W/x.lpi"
expect 2 "--stride" -- "$BIN" map --fib "$W/v4.fib" --stride 9 -o "$W/x.lpi"
expect 2 "--initial-stride" -- "$BIN" map --fib "$W/v4.fib" --initial-stride 25 -o "$W/x.lpi"
expect 2 "unknown" -- "$BIN" map --fib "$W/v4.fib" --arch linear --mapping minmax -o "$W/x.lpi"
expect 2 "too few" -- "$BIN" map --fib "$W/v4.fib" --arch linear --stages 3 -o "$W/x.lpi"
expect 2 "required" -- "$BIN" map --fib "$W/v4.fib"
expect 2 "wrong magic" -- "$BIN" lookup --image "$W/v4.fib" 1.2.3.4
head -c 1000 "$W/a.lpi" >"$W/t.lpi"
expect 2 "truncated" -- "$BIN" image check "$W/t.lpi"
expect 2 "IPv6 address" -- "$BIN" lookup --image "$W/a.lpi" ::1
expect 2 "unknown action" -- "$BIN" image frob "$W/a.lpi"
printf '1 x 10.0.0.0/8 a\n' >"$W/badu.txt"
expect 2 "badu.txt:1" -- "$BIN" update --image "$W/a.lpi" --updates "$W/badu.txt"
expect 2 "--rebalance-at" -- "$BIN" update --image "$W/a.lpi" --updates "$W/u.txt" --rebalance-at 0.5
"$BIN" map --help | grep -q "initial-stride" || bad "map --help"
"$BIN" update --help | grep -q "bubbles" || bad "update --help"
"$BIN" image --help | grep -q "readmemh" || bad "image --help"
"$BIN" lookup --image x --help | grep -q "verify" || bad "lookup --image --help"
exit $fail
