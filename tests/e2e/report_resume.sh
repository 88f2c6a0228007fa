#!/usr/bin/env bash
# report run interrupted (SIGINT to its process group, as Ctrl-C sends) and
# started again, in this process and through GNU parallel: the second run
# runs exactly the points without a record, leaves the recorded ones alone,
# and the result equals an uninterrupted run byte for byte.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
W=$(mktemp -d /tmp/lpmpipe-report-resume.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
set -m # background jobs in their own process group, so kill -INT -PID is Ctrl-C

# The first four points (seeds 1 and 2) run at once; the others wait for
# $W/gate (two minutes at most, so that nothing hangs), so an interrupted
# run has exactly those four recorded however fast the machine is.
cat >"$W/slow.json" <<EOF
{"name": "slow", "title": "points that take a while",
 "command": ["/bin/sh", "-c", "i=0; [ {seed} -le 2 ] || while [ ! -e $W/gate ] && [ \$i -lt 2400 ]; do sleep 0.05; i=\$((i + 1)); done; exec \"\$0\" sim --synthetic 24 --count {count} --seed {seed} --queue 4 --json", "{lpmpipe}"],
 "params": {"seed": [1, 2, 3, 4, 5, 6, 7, 8], "count": [150000, 250000]},
 "keep": {"lpc": "lpc", "requests": "requests"}}
EOF
touch "$W/gate"
"$BIN" report run "$W/slow.json" -o "$W/full" --quiet || bad "uninterrupted run"
[ "$(wc -l <"$W/full/results.jsonl")" -eq 16 ] || bad "uninterrupted run: $(wc -l <"$W/full/results.jsonl") records"

resume() { # $1: name, then run options
  local name=$1 dir="$W/$1" pid k t
  shift
  rm -f "$W/gate"
  # env --default-signal: a shell started in the background (nohup CMD &,
  # a CI runner) hands SIGINT down ignored, and an ignored SIGINT stays so
  # across exec; Ctrl-C's default action is what the test is about.
  env --default-signal=INT "$BIN" report run "$W/slow.json" -o "$dir" --plain "$@" >"$W/$name.1.log" 2>&1 &
  pid=$!
  for t in $(seq 1 3000); do # up to 5 minutes: the first records come late on a loaded machine
    k=$(ls "$dir"/records/slow/*.json 2>/dev/null | wc -l)
    [ "$k" -ge 4 ] && break
    sleep 0.1
  done
  kill -INT -- -"$pid" 2>/dev/null
  wait "$pid"
  touch "$W/gate"
  k=$(ls "$dir"/records/slow/*.json 2>/dev/null | wc -l)
  if [ "$k" -lt 4 ] || [ "$k" -ge 16 ]; then
    bad "$name: interrupted after $k of 16 records (the test needs an interruption in the middle)"
    return
  fi
  ls -l --time-style=+%s.%N "$dir"/records/slow/*.json | awk '{ print $6, $7 }' >"$W/$name.before"
  ls -i "$dir"/records/slow/*.json >"$W/$name.inodes"
  "$BIN" report run "$W/slow.json" -o "$dir" --plain "$@" >"$W/$name.2.log" 2>&1 || bad "$name: second run failed"
  grep -q "slow: 16 points, $k done, $((16 - k)) to run" "$W/$name.2.log" ||
    bad "$name: second run did not start from the $k recorded: $(head -2 "$W/$name.2.log")"
  [ "$(grep -c ': ok' "$W/$name.2.log")" -eq $((16 - k)) ] || bad "$name: second run ran $(grep -c ': ok' "$W/$name.2.log") points, want $((16 - k))"
  ls -l --time-style=+%s.%N "$dir"/records/slow/*.json | awk '{ print $6, $7 }' | grep -F -x -f "$W/$name.before" |
    cmp -s - "$W/$name.before" || bad "$name: records of the first run were rewritten"
  ls -i "$dir"/records/slow/*.json | grep -F -x -f "$W/$name.inodes" | cmp -s - "$W/$name.inodes" ||
    bad "$name: records of the first run were replaced"
  cmp -s "$W/full/results.jsonl" "$dir/results.jsonl" &&
    echo "ok: $name: interrupted after $k of 16, resumed with $((16 - k)), same bytes as an uninterrupted run" ||
    bad "$name: resumed results differ from the uninterrupted run"
}
resume here
resume parallel --jobs 2
exit $fail
