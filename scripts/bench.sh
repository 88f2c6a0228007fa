#!/usr/bin/env bash
# make bench: speed and memory figures. Each part is a script in
# scripts/bench.d/ and prints its own table; real tables come from
# ../shared/data when it is there (said clearly when it is not).
set -uo pipefail
BIN=${1:-build/lpmpipe}
export BIN
if [ -z "${LPMPIPE_DATA:-}" ] && [ -d ../shared/data ]; then LPMPIPE_DATA="$(cd ../shared/data && pwd)"; fi
export LPMPIPE_DATA=${LPMPIPE_DATA:-}
[ -n "$LPMPIPE_DATA" ] || echo "NOTE: ../shared/data is absent: benchmarks run on synthetic tables only"
rc=0
for b in scripts/bench.d/*.sh; do
  [ -e "$b" ] || continue
  printf '\n== %s\n' "$(sed -n 's/^# title: //p' "$b")"
  bash "$b" || rc=1
done
exit $rc
