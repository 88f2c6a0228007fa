#!/usr/bin/env bash
# scripts/gpu-measure.sh without a GPU: one line and exit 3 at once (also
# when nvidia-smi is there but the binary finds no usable device). Its
# plumbing (sections in order, one JSON object per line, the time budget,
# failures and timeouts as lines, the summary) is checked with stand-ins
# for nvidia-smi, lpmpipe and the device test that print made-up numbers:
# no figure here is a device figure.
set -u
cd "${LPMPIPE_ROOT:-.}"
B=${LPMPIPE:?}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
S=scripts/gpu-measure.sh

# 1. This machine as it is.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIP: nvidia-smi sees a device here: the no-device exit is not exercised"
else
  t0=$SECONDS
  bash $S --bin "$B" >"$T/o" 2>"$T/e"; rc=$?
  [ $rc -eq 3 ] || fail "no device: exit $rc, want 3"
  [ "$(wc -l <"$T/o")" -eq 1 ] && grep -q '"device":null' "$T/o" || fail "no device: want one line: $(cat "$T/o")"
  [ $((SECONDS - t0)) -le 2 ] || fail "no device: took $((SECONDS - t0)) s, want at once"
  echo "ok: no device: exit 3, one line"
fi

# Stand-ins.
mkdir -p "$T/bin"
cat >"$T/bin/nvidia-smi" <<'X'
#!/usr/bin/env bash
case "$*" in
  -L) echo "GPU 0: Stand-in";;
  *driver_version*) echo "580.00";;
  *query-gpu=*) echo "Stand-in, 580.00, 1000, 5, 5, 16, 16, 1, 1, 1.00";;
esac
X
cat >"$T/bin/fake-lpmpipe" <<'X'
#!/usr/bin/env bash
arg() { local k=$1; shift; while [ $# -gt 0 ]; do [ "$1" = "$k" ] && { echo "$2"; return; }; shift; done; }
o=$(arg -o "$@"); [ -n "$o" ] && echo x >"$o"
[ -n "${FAKE_SLEEP:-}" ] && [ "$1" != gpu -o "$2" != info ] && sleep "$FAKE_SLEEP"
case "$1 $2" in
  "gpu info") echo '{"device":"Stand-in"}';;
  "gpu bench")
    e=$(arg --engine "$@"); fam=4; case $(arg --fib "$@") in *v6*) fam=6;; esac
    r=$(arg --update-rate "$@"); r=${r:-70000}
    [ "$e" = gale ] && [ -n "${FAKE_FAIL_GALE:-}" ] && { echo "gale broke" >&2; exit 1; }
    for b in $(arg --batch "$@" | tr , ' '); do for s in $(arg --streams "$@" | tr , ' '); do
      echo "{\"engine\":\"$e\",\"family\":$fam,\"batch\":$b,\"streams\":$s,\"e2e_lookups_per_s\":$((b / 1024 * s)),\"kernel_lookups_per_s\":$((b * s)),\"copy_bound_lookups_per_s\":1024,\"latency_mean_us\":$((b / 1024)),\"update_rate\":$r,\"updates_applied\":5,\"checked\":10,\"mismatches\":0,\"stale\":0}"
    done; done;;
  "names gpu")
    for b in $(arg --batch "$@" | tr , ' '); do for s in $(arg --streams "$@" | tr , ' '); do
      echo "{\"engine\":\"mata-gpu\",\"batch\":$b,\"streams\":$s,\"e2e_searches_per_s\":$((b * s)),\"batch_latency_us\":$((b / s / 100)),\"batch_latency_p99_us\":$((b / s / 50)),\"mismatches\":0}"
    done; done;;
esac
X
printf '#!/usr/bin/env bash\necho "100%%: Checks: 3, Failures: 0, Errors: 0"\n' >"$T/bin/fake-test"
chmod +x "$T"/bin/*

# 2. nvidia-smi answers, but the binary finds no usable device.
PATH=$T/bin:$PATH bash $S --bin "$B" >"$T/o" 2>"$T/e"; rc=$?
[ $rc -eq 3 ] && [ "$(wc -l <"$T/o")" -eq 1 ] && grep -q '"device":null' "$T/o" ||
  fail "driver but no usable device: exit $rc: $(cat "$T/o")"
echo "ok: no usable device behind nvidia-smi: exit 3, one line"

# 3. The whole run on stand-ins, into a file.
PATH=$T/bin:$PATH FAKE_FAIL_GALE=1 bash $S --bin "$T/bin/fake-lpmpipe" --test "$T/bin/fake-test" \
  --data "$T/none" --out "$T/run.jsonl" >/dev/null 2>"$T/e"; rc=$?
[ $rc -eq 0 ] || fail "stand-in run: exit $rc: $(tail -3 "$T/e")"
awk '!/^\{.*\}$/ { bad++ } END { exit bad > 0 }' "$T/run.jsonl" || fail "a line is not one JSON object"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/run.jsonl" || fail "invalid JSON"
fi
order=$(sed 's/^{"section":"\([a-z_]*\)".*/\1/' "$T/run.jsonl" | uniq | tr '\n' ' ')
[ "$order" = "facts correctness sweep updates names device_test summary " ] || fail "sections: $order"
grep -q '"section":"correctness","failed":1' "$T/run.jsonl" || fail "a failing step must leave a line"
sum=$(tail -1 "$T/run.jsonl")
for want in '"failed_steps":5' '"gamt_v4_kernel_max_lps":268435456' '"gamt_v4_e2e_max_under_100us_lps":1024' \
            '"gamt_v4_under_100us_at":"65536x16"' '"names_under_100us_p99_at":"262144x128"' '"wrong_or_stale":0'; do
  grep -qF "$want" <<<"$sum" || fail "summary lacks $want: $sum"
done
grep -q '"section":"device_test","exit":0' "$T/run.jsonl" || fail "device test line"
echo "ok: stand-in run: sections in order, failures as lines, summary"

# 4. The budget holds: slow steps are cut (timed_out) or skipped, and the run ends.
t0=$SECONDS
PATH=$T/bin:$PATH FAKE_SLEEP=3 BUDGET=12 bash $S --bin "$T/bin/fake-lpmpipe" --test "$T/bin/fake-test" \
  --data "$T/none" >"$T/slow.jsonl" 2>/dev/null; rc=$?
[ $rc -eq 0 ] || fail "slow run: exit $rc"
# The whole run without the budget takes over a minute (its steps sleep 3 s
# each); the bound leaves room for a loaded machine (the sanitizer suite
# beside place-and-route runs took 21 s), not for a budget that is ignored.
[ $((SECONDS - t0)) -le 40 ] || fail "slow run took $((SECONDS - t0)) s with a 12 s budget"
grep -q '"skipped":"out of time"' "$T/slow.jsonl" || fail "slow run: nothing was skipped"
tail -1 "$T/slow.jsonl" | grep -q '"section":"summary"' || fail "slow run: no summary"
echo "ok: a 12 s budget is kept"
