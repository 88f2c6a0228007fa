#!/usr/bin/env bash
# make demo: the whole chain on built-in synthetic data, as a short report.
# Each numbered section is one script in scripts/demo.d (its title on its
# "# title:" line) and ends with its elapsed time. What a section makes
# (tables, images, JSON reports, per-stage tables, Verilog) is written under
# OUT (default build/demo, kept after the run) and its path printed; the
# terminal gets labelled figures only. Sections report through three
# prefixes on stdout (scripts/demo.d/lib.sh writes them):
#   CHECK: what|compared|mismatches   an agreement check (counted in the summary)
#   SUMMARY: line                     a key figure, repeated in the summary
#   anything else                     shown as it is
set -uo pipefail
BIN=${1:-build/lpmpipe}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
OUT=${DEMO_OUT:-build/demo}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -rf "${OUT:?}"/*
mkdir -p "$OUT/logs"
W=$OUT
export BIN W OUT
LIB=$PWD/scripts/demo.d/lib.sh
export LIB
checks=$OUT/checks.tsv summary=$OUT/summary.txt
: >"$checks"
: >"$summary"
shown=()
failed=()
t_all=$SECONDS

printf 'lpmpipe demo: the whole chain on synthetic tables (no real data needed)\n'
printf '%s\n' "$("$BIN" --version 2>/dev/null | head -1)"
printf 'everything this run writes: %s\n' "$OUT"

n=0
for step in scripts/demo.d/[0-9]*.sh; do
  [ -e "$step" ] || continue
  n=$((n + 1))
  title=$(sed -n 's/^# title: //p' "$step")
  short=$(sed -n 's/^# short: //p' "$step")
  printf '\n%d. %s\n' "$n" "$title"
  log=$OUT/logs/$(basename "$step" .sh).log
  t0=$SECONDS
  bash "$step" >"$OUT/logs/$(basename "$step" .sh).out" 2>"$log"
  rc=$?
  dt=$((SECONDS - t0))
  while IFS= read -r l; do
    case $l in
      CHECK:*) printf '%s\t%s\n' "$n" "${l#CHECK: }" >>"$checks" ;;
      SUMMARY:*) printf '%s\n' "${l#SUMMARY: }" >>"$summary"; printf '   %s\n' "${l#SUMMARY: }" ;;
      *) printf '   %s\n' "$l" ;;
    esac
  done <"$OUT/logs/$(basename "$step" .sh).out"
  if [ $rc -ne 0 ]; then
    failed+=("$n. $title")
    printf '   FAILED (exit %d); its messages:\n' "$rc"
    sed 's/^/     /' "$log" | tail -15
  fi
  printf '   (%d s)\n' "$dt"
  shown+=("${short:-$title}")
done

# Agreement: every check a section made, counted.
read -r nchecks compared mism < <(awk -F'|' '{ c++; n += $2; m += $3 } END { printf "%d %d %d\n", c, n, m }' "$checks")
printf '\n%d. summary (whole run %d s)\n' "$((n + 1))" "$((SECONDS - t_all))"
printf '   Shown: %s.\n' "$(IFS='|'; echo "${shown[*]}" | sed 's/|/; /g')"
if [ ${#failed[@]} -eq 0 ] && [ "$mism" -eq 0 ]; then
  printf '   Everything agreed: %d checks (%d answers and cycles compared), 0 mismatches.\n' "$nchecks" "$compared"
else
  printf '   NOT everything agreed: %d checks, %d compared, %d mismatches; failed sections: %s\n' "$nchecks" "$compared" \
    "$mism" "${failed[*]:-none}"
  awk -F'|' '$3 > 0 { print "     mismatches in: " $1 }' "$checks"
fi
printf '   Key figures:\n'
sed 's/^/     /' "$summary"
printf '   Checks in %s; per-section output and messages in %s/logs/.\n' "$checks" "$OUT"
[ ${#failed[@]} -eq 0 ] && [ "$mism" -eq 0 ]
