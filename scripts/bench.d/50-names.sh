#!/usr/bin/env bash
# title: NDN name lookup: STT/ATA/MATA memory, MATA construction, CPU lookups/s, insert/delete rates
# Tables of 1M+ real names (ut1-hosts: 2.39M hostnames, zonewalk: 1.13M) when
# ../shared/data is there, else 1M synthetic hostnames. Times are CPU time of
# the measuring thread (lookups/s: median of 3 runs). docs/results-names.md
# shows them as ratios within one run (reports/names-real-speed.json).
set -euo pipefail
W=$(mktemp -d /tmp/lpmpipe-names-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
D=${LPMPIPE_DATA:+$LPMPIPE_DATA/names}
if [ -n "$D" ] && [ -e "$D/ut1-hosts.txt.xz" ]; then
  lists="$D/ut1-hosts.txt.xz $D/zonewalk-domains.txt.xz"
  paths="--paths $D/urls-ut1.txt.xz"; rank="--rank $D/alexa-top100k-2016.txt.xz --zipf 0.8"
else
  echo "NOTE: no real domain lists: 1M synthetic hostnames"
  "$BIN" names gen --count 1M --seed 1 -o "$W/synthetic.txt"
  lists="$W/synthetic.txt"; paths=""; rank=""
fi
for f in $lists; do
  n=$(basename "$f" | sed 's/\..*//')
  echo "-- $n"
  "$BIN" names build --domains "$f" -o "$W/$n.tab"
  "$BIN" names stats --table "$W/$n.tab" --structures
  "$BIN" names trace --table "$W/$n.tab" --kind average --count 1M --seed 1 $paths $rank -o "$W/$n.avg"
  "$BIN" names trace --table "$W/$n.tab" --kind heavy --count 1M --seed 2 $paths -o "$W/$n.heavy"
  echo "average workload:"
  "$BIN" names bench --table "$W/$n.tab" --trace "$W/$n.avg" --updates 100000 --repeat 3
  echo "heavy workload:"
  "$BIN" names bench --table "$W/$n.tab" --trace "$W/$n.heavy" --engine ref,ata,mata --repeat 3
done
"$BIN" names gpu bench --table "$W/$n.tab" --trace "$W/$n.avg" || echo "(no GPU figure: exit $?)"
