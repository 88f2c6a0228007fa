# Sourced by every demo step (scripts/demo.sh runs them): BIN, W (= OUT, the
# kept output folder) and the helpers that keep one style: figures labelled,
# M lookups/s and MiB, files named by path, agreement checks counted.
set -euo pipefail
BIN=${BIN:?}
W=${W:?}
OUT=${OUT:-$W}
cd "$W"

# mlps LOOKUPS_PER_S -> "12.34 M lookups/s"; mib BYTES -> "1.23 MiB"
mlps() { awk -v v="$1" 'BEGIN { printf "%.2f M lookups/s", v / 1e6 }'; }
mib() { awk -v v="$1" 'BEGIN { printf "%.2f MiB", v / 1048576 }'; }
# fig LABEL TEXT: one labelled figure line.
fig() { printf '%-34s %s\n' "$1" "$2"; }
# saved WHAT PATH: where something too long for the terminal went.
saved() { printf '%-34s %s\n' "$1" "-> $OUT/${2#"$OUT"/}"; }
# check WHAT COMPARED MISMATCHES: an agreement check for the summary.
check() { echo "CHECK: $1|$2|$3"; }
# json FILE EXPR: one value of a JSON file (python3 expression over d).
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
