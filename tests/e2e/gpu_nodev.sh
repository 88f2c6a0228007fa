#!/usr/bin/env bash
# `lpmpipe gpu` without a CUDA device: exit 3 and a plain message, after
# the options are checked (bad ones still exit 2). On a machine with a
# device the no-device part is skipped.
set -u
B=${LPMPIPE:?}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf '10.0.0.0/8 a\n10.1.0.0/16 b\n' >"$T/t.fib"

"$B" gpu --help | grep -q 'gpu bench' || fail "gpu --help"
"$B" gpu bench --fib "$T/t.fib" --engine nope 2>"$T/e"; [ $? -eq 2 ] || fail "bad engine must exit 2"
"$B" gpu bench --fib "$T/t.fib" --engine gamt --batch 12 2>"$T/e"; [ $? -eq 2 ] || fail "batch 12 must exit 2"
"$B" gpu bench --fib "$T/t.fib" --engine gamt --streams 33 2>"$T/e"; [ $? -eq 2 ] || fail "33 streams must exit 2"
"$B" gpu frobnicate 2>"$T/e"; [ $? -eq 2 ] || fail "unknown subcommand must exit 2"
# Lists of batches and streams: every value checked, updates need one point,
# and every stream of the largest pair needs a batch of the lookups.
for bad in "--batch 1024,,4096" "--batch 1024,12" "--batch ," "--streams 1,2,33" "--streams 4,"; do
  "$B" gpu bench --fib "$T/t.fib" --engine gamt $bad 2>"$T/e"; [ $? -eq 2 ] || fail "$bad must exit 2"
done
"$B" gpu bench --fib "$T/t.fib" --engine gamt --batch 1024,2048 --updates 10 2>"$T/e"
[ $? -eq 2 ] && grep -q 'one --batch' "$T/e" || fail "updates with a list of points must exit 2"
"$B" gpu bench --fib "$T/t.fib" --engine gamt --batch 1048576 --streams 8 --count 4194304 2>"$T/e"
[ $? -eq 2 ] && grep -q 'each stream a batch' "$T/e" || fail "count below batch x streams must exit 2"
"$B" gpu bench --fib "$T/t.fib" --engine gamt --seconds -1 2>"$T/e"; [ $? -eq 2 ] || fail "--seconds -1 must exit 2"
"$B" gpu bench --fib "$T/t.fib" --engine gamt --rebuild-every x 2>"$T/e"; [ $? -eq 2 ] || fail "--rebuild-every x must exit 2"

"$B" gpu info >"$T/o" 2>"$T/e"
rc=$?
if [ $rc -eq 0 ]; then
  echo "SKIP: a CUDA device is present ($(cat "$T/o")): the no-device path is not exercised"
  exit 77
fi
[ $rc -eq 3 ] || fail "gpu info without a device: exit $rc, want 3"
grep -qiE 'no CUDA device|without CUDA' "$T/e" || fail "gpu info message: $(cat "$T/e")"
"$B" gpu bench --fib "$T/t.fib" --engine gamt --batch 1024 --streams 2 --json >"$T/o" 2>"$T/e"
rc=$?
[ $rc -eq 3 ] || fail "gpu bench without a device: exit $rc, want 3"
grep -qiE 'no CUDA device|without CUDA' "$T/e" || fail "gpu bench message: $(cat "$T/e")"
[ ! -s "$T/o" ] || fail "gpu bench printed results without a device"
# The CPU builds answer regardless, and agree with the reference.
out=$("$B" lookup --fib "$T/t.fib" --engine gamt --verify 10.1.2.3 10.2.0.0 11.0.0.0) || fail "lookup --engine gamt"
[ "$out" = "$(printf '10.1.2.3 b\n10.2.0.0 a\n11.0.0.0 -')" ] || fail "gamt answers: $out"
out=$("$B" lookup --fib "$T/t.fib" --engine gale --verify 10.1.2.3 10.2.0.0 11.0.0.0) || fail "lookup --engine gale"
[ "$out" = "$(printf '10.1.2.3 b\n10.2.0.0 a\n11.0.0.0 -')" ] || fail "gale answers: $out"
echo "ok: gpu commands exit 3 with a message; CPU builds answer"
