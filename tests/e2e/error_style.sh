#!/usr/bin/env bash
# One error style (docs/cli.md): for a battery of bad inputs and absurd
# options across every command, the exit status is 2, every line on stderr
# starts "lpmpipe: COMMAND: " with COMMAND the subcommand as typed, no line
# is printed twice, and nothing goes to stdout. Notes say "note:" and
# --quiet silences them.
set -u
BIN=${LPMPIPE:-build/lpmpipe}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
W=$(mktemp -d /tmp/lpmpipe-e2e-style.XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
fail=0 cases=0
bad() { echo "FAIL: $*"; fail=1; }

"$BIN" fib gen --family 4 --count 500 --seed 1 -o t.fib
"$BIN" map --fib t.fib --stages 4 -o t.lpi >/dev/null
printf 'garbage\n' >g.txt
: >e.txt
mkdir d
printf '/com/a 1\n' >n.tab
printf '10.0.0.0/8 a\n10.0.0.0/8 b\n' >dup.txt

# style 'COMMAND' ARGS...: exit 2, every stderr line "lpmpipe: COMMAND: ...", no
# line twice, no stdout.
style() {
  local want=$1; shift
  cases=$((cases + 1))
  "$BIN" "$@" >out.txt 2>err.txt
  local rc=$?
  [ $rc -eq 2 ] || { bad "$*: exit $rc, want 2: $(head -3 err.txt)"; return; }
  [ -s err.txt ] || { bad "$*: nothing on stderr"; return; }
  if grep -qv "^lpmpipe: $want: " err.txt; then bad "$*: a line not in 'lpmpipe: $want: ' style: $(grep -v "^lpmpipe: $want: " err.txt | head -2)"; fi
  [ -z "$(sort err.txt | uniq -d)" ] || bad "$*: a line printed twice: $(sort err.txt | uniq -d | head -1)"
  [ -s out.txt ] && bad "$*: printed on stdout although the input is bad"
}
style "fib stats" fib stats --fib g.txt
style "fib stats" fib stats --fib e.txt
style "fib stats" fib stats --fib d
style "fib stats" fib stats --bogus
style "fib stats" fib stats --fib
style "fib convert" fib convert --fib t.fib -o d
style "fib gen" fib gen --family 4 --count 0
style "fib tries" fib tries --fib g.txt
style "trace gen" trace gen --fib t.fib --count 0
style "trace gen" trace gen --fib t.fib --count 5 -o d
style "trace updates" trace updates --fib g.txt --count 5
style "lookup" lookup --fib t.fib --trace g.txt
style "lookup" lookup --fib t.fib --trace d
style "lookup" lookup --fib t.fib 10.0.0.300
style "lookup" lookup --image g.txt 10.0.0.1
style "map" map --fib g.txt -o x.lpi
style "map" map --fib t.fib -o d
style "image dump" image dump g.txt
style "image check" image check d
style "update" update --image t.lpi --updates g.txt
style "sim" sim --image t.lpi --trace g.txt
style "sim" sim --image t.lpi --gen uniform --count 0
style "sim" sim --image g.txt --gen uniform
style "sim" sim --image t.lpi --gen uniform --updates d
style "sim" sim --image t.lpi --gen uniform --results d
style "sim" sim --queue
style "rtl" rtl --image g.txt -o out
style "rtl verify" rtl verify --image t.lpi --gen uniform --count 0
command -v verilator >/dev/null && style "rtl verify" rtl verify --image t.lpi --trace g.txt
style "bench" bench --fib t.fib --count 0
style "bench cpu" bench cpu --fib t.fib --count 0
style "bench update-cost" bench update-cost --fib g.txt
style "gpu bench" gpu bench --fib t.fib --count 0
style "names lookup" names lookup --table g.txt /a
style "names lookup" names lookup --table e.txt /a
style "names lookup" names lookup --table n.tab --trace e.txt
style "names build" names build --domains e.txt -o /dev/null
style "names build" names build --domains d -o /dev/null
style "names stats" names stats --table d
style "names trace" names trace --table n.tab --count 0
style "names gen" names gen --count 5 -o d

# Notes: marked, and silenced by --quiet (also before the command).
cases=$((cases + 1))
"$BIN" fib stats --fib dup.txt >/dev/null 2>err.txt || bad "duplicates: exit $?"
grep -qx "lpmpipe: fib stats: note: dup.txt: 1 duplicate prefix replaced by later lines" err.txt || bad "duplicates note: $(cat err.txt)"
"$BIN" fib stats --fib dup.txt --quiet >/dev/null 2>err.txt || bad "--quiet: exit $?"
[ -s err.txt ] && bad "--quiet did not silence the note: $(cat err.txt)"
"$BIN" --quiet fib stats --fib dup.txt >/dev/null 2>err.txt
[ -s err.txt ] && bad "lpmpipe --quiet fib stats did not silence the note: $(cat err.txt)"
echo "$cases cases"
exit $fail
