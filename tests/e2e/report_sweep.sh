#!/usr/bin/env bash
# lpmpipe report end to end on small synthetic sweeps (docs/cli-report.md):
# the same sweep run in this process, through GNU parallel with --jobs 2 and
# through the emitted parallel script gives byte-identical records; merges
# of partial folders equal the whole run in any order; bad definitions and
# mixed versions are refused with exit 2; render draws every figure and
# says "no device run exists" for a GPU sweep that has no record.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
W=$(mktemp -d /tmp/lpmpipe-report-e2e.XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }

D=tests/reports
defs=("$D/small-sim.json" "$D/small-map.json" "$D/small-gpu.json")
has_gpu=0
"$BIN" gpu info >/dev/null 2>&1 && has_gpu=1

# ---- in this process, one point at a time
"$BIN" report run "${defs[@]}" -o "$W/seq" --plain >"$W/seq.log" 2>&1 || bad "sequential run (exit $?): $(tail -3 "$W/seq.log")"
n=$(wc -l <"$W/seq/results.jsonl")
want=$((6 + 2 + 2 * has_gpu))
[ "$n" -eq "$want" ] && ok "sequential run: $n records" || bad "sequential run: $n records, want $want"
grep -q '"mismatches":0' "$W/seq/results.jsonl" || bad "no checked sim record"
[ $has_gpu = 1 ] || grep -q 'skipped: exit 3: no CUDA device' "$W/seq.log" || bad "gpu points not reported as skipped"

# ---- through GNU parallel, --jobs 2 (a wrapper proves parallel ran them)
mkdir -p "$W/bin"
real_parallel=$(command -v parallel) || { echo "FAIL: GNU parallel is not installed (scripts/deps.sh)"; exit 1; }
printf '#!/bin/sh\necho "$@" >>"%s/parallel.calls"\nexec %s "$@"\n' "$W" "$real_parallel" >"$W/bin/parallel"
chmod +x "$W/bin/parallel"
PATH="$W/bin:$PATH" "$BIN" report run "${defs[@]}" -o "$W/par" --jobs 2 --plain >"$W/par.log" 2>&1 || bad "parallel run: $(tail -3 "$W/par.log")"
grep -q -- '--jobs 2' "$W/parallel.calls" 2>/dev/null && ok "GNU parallel ran the points (--jobs 2)" || bad "GNU parallel was not called"
cmp -s "$W/seq/results.jsonl" "$W/par/results.jsonl" && ok "parallel records equal the sequential ones" || bad "parallel records differ"

# ---- the emitted multi-machine script, with ':' (this machine) as the login list
"$BIN" report run "${defs[@]}" -o "$W/emit" --emit parallel >"$W/emit.log" 2>&1 || bad "emit parallel"
[ "$(wc -l <"$W/emit/jobs.txt")" -eq 10 ] || bad "jobs.txt has $(wc -l <"$W/emit/jobs.txt") lines, want 10"
echo ':' >"$W/logins"
(cd "$W" && sh emit/run-parallel.sh logins 2) >"$W/emit-run.log" 2>&1 || [ $has_gpu = 0 ] || bad "run-parallel.sh: $(tail -3 "$W/emit-run.log")"
"$BIN" report merge "$W/emit" -o "$W/emit" 2>/dev/null || bad "merge of the emitted run"
cmp -s "$W/seq/results.jsonl" "$W/emit/results.jsonl" && ok "records of the emitted script equal the local run's" || bad "emitted-script records differ"

# ---- an --only naming a parameter no experiment has is refused (it would keep every point)
"$BIN" report run "$D/small-sim.json" -o "$W/badonly" --only qeueu=4 --quiet >"$W/badonly.log" 2>&1; st=$?
[ $st != 0 ] && grep -q "no experiment given has a parameter 'qeueu'" "$W/badonly.log" && [ ! -e "$W/badonly" ] &&
  ok "--only with an unknown parameter: exit $st, $(head -1 "$W/badonly.log")" || bad "--only qeueu=4: exit $st: $(cat "$W/badonly.log")"

# ---- partial folders merged in any order equal the whole run
for q in 1 4 16; do
  "$BIN" report run "$D/small-sim.json" "$D/small-map.json" -o "$W/part$q" --only queue=$q --quiet 2>/dev/null || bad "part $q"
done
"$BIN" report run "$D/small-gpu.json" -o "$W/part1" --quiet 2>/dev/null
"$BIN" report run "$D/small-map.json" -o "$W/part4" --quiet 2>/dev/null
"$BIN" report merge "$W/part16" "$W/part1" "$W/part4" -o "$W/m1" 2>/dev/null || bad "merge 16 0 4"
"$BIN" report merge "$W/part4" "$W/part16" "$W/part1" "$W/seq" -o "$W/m2" 2>/dev/null || bad "merge 4 16 0 seq"
cmp -s "$W/m1/results.jsonl" "$W/seq/results.jsonl" && cmp -s "$W/m2/results.jsonl" "$W/seq/results.jsonl" &&
  diff -r "$W/m1/records" "$W/m2/records" >/dev/null && ok "merges in any order equal the whole run" || bad "merged results differ"

# ---- refusals
cp -r "$W/par" "$W/other"
f=$(ls "$W/other/records/small-sim/"*.json | head -1)
rm "$W"/other/records/small-sim/*.json
sed 's/"tool_version":"[^"]*"/"tool_version":"lpmpipe other"/' "$W/par/records/small-sim/$(basename "$f")" >"$f"
"$BIN" report merge "$W/seq" "$W/other" -o "$W/m3" 2>"$W/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'two tool versions' "$W/err" && ok "mixed tool versions refused" || bad "mixed versions: exit $rc: $(cat "$W/err")"
"$BIN" report merge "$W/seq" "$W/other" -o "$W/m3" --mixed-versions --duplicates first 2>/dev/null && ok "--mixed-versions merges" || bad "--mixed-versions"
printf '{"name": "x", "command": ["sim"], "keep": {"a": "a"}, "params": {"q": [1, 1]}}\n' >"$W/bad.json"
"$BIN" report run "$W/bad.json" -o "$W/b" 2>"$W/err"; rc=$?
[ $rc -eq 2 ] && grep -q "bad.json: params.q\[1\]: the same label" "$W/err" && ok "bad definition: $(cat "$W/err")" || bad "bad definition: exit $rc: $(cat "$W/err")"
[ ! -e "$W/b/records" ] || bad "a bad definition ran points"

# ---- render: every figure drawn, and the GPU panel
"$BIN" report render "$W/seq" -o "$W/html" >/dev/null 2>"$W/err" || bad "render: $(cat "$W/err")"
for fgr in small-sim.lpc small-map.stages small-map.balance; do
  for ext in svg png csv gp; do [ -s "$W/html/$fgr.$ext" ] || bad "render: $fgr.$ext missing"; done
done
grep -q '<img src="small-sim.lpc.svg"' "$W/html/index.html" || bad "index.html lacks the figure"
if [ $has_gpu = 0 ]; then
  grep -q 'No device run exists for this sweep' "$W/html/index.html" && ! grep -q 'small-gpu.e2e.svg' "$W/html/index.html" &&
    [ ! -e "$W/html/small-gpu.e2e.svg" ] && ok "no GPU figure, a panel says no device run exists" || bad "GPU panel"
fi
grep -q '^| 16 |' "$W/html/summary.md" || bad "summary.md lacks the data table"

# ---- fields kept from a pre command's output ("pre0:path") beside the command's
cat >"$W/pre.json" <<'EOF2'
{"name": "small-pre",
 "inputs": {"fib": {"file": "t.fib", "command": ["fib", "gen", "--family", "4", "--count", "3000", "--seed", "1", "-o", "{out}"]}},
 "pre": [["map", "--fib", "{fib}", "--stages", "{stages}", "-o", "{tmp}/i.lpi", "--json"]],
 "command": ["sim", "--image", "{tmp}/i.lpi", "--gen", "random-match", "--count", "2000", "--json"],
 "params": {"stages": [8, 12]},
 "keep": {"lpc": "lpc", "words": "pre0:words_used", "balance": "pre0:fullest_over_mean", "none": "?pre0:no.such"}}
EOF2
"$BIN" report run "$W/pre.json" -o "$W/pre" --plain >"$W/pre.log" 2>&1 || bad "pre keep run: $(tail -3 "$W/pre.log")"
for st in 8 12; do
  "$BIN" map --fib "$W/pre/inputs/"*-t.fib --stages $st -o "$W/p.lpi" --json >"$W/p.map" 2>/dev/null
  "$BIN" sim --image "$W/p.lpi" --gen random-match --count 2000 --json >"$W/p.sim" 2>/dev/null
  python3 - "$W/pre/results.jsonl" "$W/p.map" "$W/p.sim" "$st" <<'PY' && ok "stages $st: pre0: fields equal map --json's, lpc equals sim's" || bad "pre keep: stages $st"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
r = [x for x in recs if x["params"]["stages"] == int(sys.argv[4])][0]["metrics"]
m, s = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
sys.exit(0 if (r["words"], r["balance"], r["lpc"], r["none"]) == (m["words_used"], m["fullest_over_mean"], s["lpc"], None) else 1)
PY
done

# ---- a command whose first word is a path runs that program (a repository
# script such as scripts/synth-memories.sh), not lpmpipe; its JSON is kept
cat >"$W/count.sh" <<'EOF2'
#!/bin/sh
# the image's word count, read back by lpmpipe: what a script run by a report does
words=$("$1" image dump "$2" --json | sed -n 's/.*"words_used": *\([0-9]*\).*/\1/p')
echo "{\"script_words\": ${words:-null}, \"arg\": \"$3\"}"
EOF2
chmod +x "$W/count.sh"
cat >"$W/script.json" <<EOF2
{"name": "small-script",
 "inputs": {"fib": {"file": "t.fib", "command": ["fib", "gen", "--family", "4", "--count", "3000", "--seed", "1", "-o", "{out}"]}},
 "pre": [["map", "--fib", "{fib}", "--stages", "8", "-o", "{tmp}/i.lpi", "--json"]],
 "command": ["{how.argv}"],
 "params": {"how": [{"label": "script", "argv": ["$W/count.sh", "$BIN", "{tmp}/i.lpi", "x"]}]},
 "keep": {"words": "pre0:words_used", "script_words": "script_words", "arg": "arg"}}
EOF2
"$BIN" report run "$W/script.json" -o "$W/script" --plain >"$W/script.log" 2>&1 || bad "script command run: $(tail -3 "$W/script.log")"
python3 - "$W/script/results.jsonl" "$W/count.sh" <<'PY' && ok "a command that names a script runs it, its JSON kept beside pre0's" || bad "script command: $(cat "$W/script.log")"
import json, sys
r = json.loads(open(sys.argv[1]).readline())
m = r["metrics"]
sys.exit(0 if m["words"] and m["script_words"] == m["words"] and m["arg"] == "x" and r["command"][0] == sys.argv[2] else 1)
PY

# ---- "result_exit": an exit status whose output is still the result (update's
# stop at an update the hardware cannot hold); without it the point fails
cat >"$W/stop.sh" <<'EOF2'
#!/bin/sh
echo '{"stopped_at": 7}'
exit 1
EOF2
chmod +x "$W/stop.sh"
for rx in '"result_exit": [1],' ''; do
  rm -rf "$W/rx"
  printf '{"name": "small-rx", %s "command": ["%s"], "params": {"n": [1]}, "keep": {"stopped_at": "stopped_at"}}\n' "$rx" "$W/stop.sh" >"$W/rx.json"
  "$BIN" report run "$W/rx.json" -o "$W/rx" --plain >"$W/rx.log" 2>&1
  st=$?
  if [ -n "$rx" ]; then
    [ $st = 0 ] && grep -q '"stopped_at":7' "$W/rx/results.jsonl" && ok "result_exit [1]: the output of exit 1 is the record" ||
      bad "result_exit: exit $st, $(cat "$W/rx.log")"
  else
    [ $st = 1 ] && grep -q "exit 1" "$W/rx.log" && ok "without result_exit an exit 1 fails the point" || bad "exit 1 without result_exit: exit $st"
  fi
done
exit $fail
