#!/usr/bin/env bash
# Parameter sweeps of lpmpipe sim on all cores: every combination of the
# given option values, one JSON run each, collected into one CSV in
# combination order (the same inputs give the same bytes).
#
#   sim/sweep.sh [-j JOBS] -p OPT=V1,V2,.. [-p OPT=..]... -- BIN sim ARGS...
#
# Columns: the swept options, then lpc, utilisation, stalls (queue-full
# cycles), latency_mean, latency_p99, requests. JOBS defaults to the number
# of cores.
set -euo pipefail
jobs=$(nproc 2>/dev/null || echo 2)
names=() values=()
while [ $# -gt 0 ]; do
  case $1 in
    -j) jobs=$2; shift 2 ;;
    -p) names+=("${2%%=*}"); values+=("${2#*=}"); shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "sweep.sh: unexpected '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] && [ ${#names[@]} -gt 0 ] || { echo "sweep.sh: give -p OPT=VALUES and -- COMMAND" >&2; exit 2; }
tmp=$(mktemp -d /tmp/lpmpipe-sweep.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The combinations, first option slowest.
combos=("")
for i in "${!names[@]}"; do
  next=()
  IFS=, read -ra vs <<<"${values[$i]}"
  for c in "${combos[@]}"; do for v in "${vs[@]}"; do next+=("$c ${names[$i]}=$v"); done; done
  combos=("${next[@]}")
done
printf '%s\n' "${combos[@]}" | awk '{ print NR - 1 "\t" $0 }' >"$tmp/list"
export tmp
run_one() {
  idx=$1; shift
  args=()
  for kv in $COMBO; do args+=("--${kv%%=*}" "${kv#*=}"); done
  "$@" "${args[@]}" --json >"$tmp/$idx.json" 2>"$tmp/$idx.err" || echo "run $idx failed: $(head -2 "$tmp/$idx.err")" >"$tmp/$idx.fail"
}
export -f run_one
while IFS=$'\t' read -r idx combo; do printf '%s\t%s\n' "$idx" "$combo"; done <"$tmp/list" |
  xargs -P "$jobs" -d '\n' -I{} bash -c 'idx=$(cut -f1 <<<"$1"); COMBO=$(cut -f2 <<<"$1") run_one "$idx" "${@:2}"' _ {} "$@"
if ls "$tmp"/*.fail >/dev/null 2>&1; then cat "$tmp"/*.fail >&2; exit 1; fi
field() { sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p" "$2" | head -1; }
(IFS=,; echo "${names[*]},lpc,utilisation,stalls,latency_mean,latency_p99,requests")
while IFS=$'\t' read -r idx combo; do
  f="$tmp/$idx.json"
  row=""
  for kv in $combo; do row+="${kv#*=},"; done
  lat=$(tr -d '\n' <"$f" | sed -n 's/.*"latency":{\([^}]*\)}.*/\1/p')
  echo "${row}$(field lpc "$f"),$(field utilisation "$f"),$(tr -d '\n' <"$f" | sed -n 's/.*"stalls":{"queue":\([0-9]*\).*/\1/p'),$(sed -n 's/.*"mean":\([0-9.]*\).*/\1/p' <<<"$lat"),$(sed -n 's/.*"p99":\([0-9]*\).*/\1/p' <<<"$lat"),$(field requests "$f")"
done <"$tmp/list"
