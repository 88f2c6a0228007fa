#!/usr/bin/env bash
# lpmpipe --version names the version (VERSION), the git revision and the
# optional parts; --help lists only commands this binary has, and each of
# them answers its own --help.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
ROOT=${LPMPIPE_ROOT:-.}
fail=0
bad() { echo "FAIL: $*"; fail=1; }

out=$("$BIN" --version) || bad "--version: exit $?"
want=$(cat "$ROOT/VERSION")
head -1 <<<"$out" | grep -Eq "^lpmpipe $want \(git ([0-9a-f]{7,}(-dirty)?|unknown)\)$" || bad "--version first line: $(head -1 <<<"$out")"
for part in "CUDA engines" "DPDK peer" "SystemC models" "Verilator"; do
  grep -q "$part" <<<"$out" || bad "--version does not say whether $part is there"
done
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  rev=$(git -C "$ROOT" rev-parse --short=7 HEAD)
  grep -q "(git $rev" <<<"$out" || echo "note: binary built from another revision than HEAD $rev: $(head -1 <<<"$out")"
fi
"$BIN" --version --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["version"] == sys.argv[1], d
assert isinstance(d["git"], str) and d["git"], d
for k in ("cuda", "dpdk_peer", "systemc"):
    assert isinstance(d["parts"][k], bool), d
assert d["parts"]["verilator"] is None or d["parts"]["verilator"].startswith("Verilator"), d
' "$want" || bad "--version --json"
"$BIN" --version --bogus >/dev/null 2>&1; [ $? -eq 2 ] || bad "--version --bogus not refused with exit 2"

help=$("$BIN" --help) || bad "--help: exit $?"
grep -q "not built" <<<"$help" && bad "--help lists a command that is not built"
n=0
for c in $(awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }' <<<"$help"); do
  n=$((n + 1))
  "$BIN" "$c" --help >/dev/null 2>&1 || bad "'$c' is listed but '$c --help' fails"
done
[ $n -ge 8 ] || bad "--help lists only $n commands"
"$BIN" nosuchcommand >/dev/null 2>&1; [ $? -eq 2 ] || bad "unknown command not exit 2"
exit $fail
