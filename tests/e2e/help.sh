#!/usr/bin/env bash
# Every command's --help: exit 0, a usage line, and every option the help
# describes is named in the usage lines (the FIB options as "[FIB options]",
# listed under that heading). lpmpipe --help lists only commands this
# binary has (tests/e2e/version.sh checks that part).
set -u
BIN=${LPMPIPE:-build/lpmpipe}
fail=0 n=0
cmds="fib:stats fib:gen fib:convert fib:tries trace:gen trace:updates lookup map image:dump image:hex image:check
      update sim rtl rtl:verify rtl:synth gpu:info gpu:bench bench bench:cpu bench:update-cost
      names:build names:stats names:trace names:lookup names:bench names:gpu names:gen model:run model:verify model:linecard"
for c in $cmds; do
  read -r -a args <<<"${c//:/ }"
  "$BIN" "${args[0]}" --help >/dev/null 2>&1 || continue # a command this binary lacks
  n=$((n + 1))
  h=$("$BIN" "${args[@]}" --help 2>&1) || { echo "FAIL: ${args[*]} --help: exit $?"; fail=1; continue; }
  usage=$(awk '/^usage:/ { u = 1 } u && /^$/ { exit } u { print }' <<<"$h")
  [ -n "$usage" ] || { echo "FAIL: ${args[*]} --help: no usage line"; fail=1; continue; }
  # Options under the "FIB options" heading count when the usage says [FIB options].
  fibopts=$(awk '/^FIB options/ { f = 1; next } f && /^  --/ { print $1 } f && !/^  / { f = 0 }' <<<"$h")
  miss=()
  # The options the help defines: the option part of lines "  -x, --opt ARG   what".
  defined=$(awk '/^  +-/ { spec = $0; sub(/^ +/, "", spec); sub(/   .*/, "", spec); print spec }' <<<"$h" |
            grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
  for o in $defined; do
    [ "$o" = --help ] && continue
    grep -qE -- "$o([^a-z0-9-]|$)" <<<"$usage" && continue
    [ "$o" = --output ] && grep -qE -- "(^| |\[)-o " <<<"$usage" && continue
    grep -qxF -- "$o" <<<"$fibopts" && grep -qF '[FIB options]' <<<"$usage" && continue
    miss+=("$o")
  done
  [ ${#miss[@]} -eq 0 ] || { echo "FAIL: ${args[*]} --help: the usage lines do not name ${miss[*]}"; fail=1; }
done
echo "$n commands' help checked"
[ $n -ge 20 ] || { echo "FAIL: only $n commands found"; fail=1; }
exit $fail
