#!/usr/bin/env bash
# One run on a GPU machine measures everything issue 15 asks, as JSON lines
# (docs/results-gpu.md says how a session runs it and what each line is):
#   facts        the device, driver, PCIe link (nvidia-smi), the binary
#   correctness  every answer against the reference on the real tables,
#                IPv4 and IPv6, with updates, forced rebuilds and swaps
#   sweep        GAMT and GALE IPv4, GAMT IPv6: kernel-only and end-to-end
#                lookups/s for batch 2^10..2^24 x streams 1..16, with the
#                PCIe copy bound in every line
#   updates      0, 70K and 1M updates/s for 2 s each (70K/s applies 140K),
#                and the linx trace at 70K/s
#   names        the MATA kernel on the ut1 table: batch x streams, and the
#                best throughput under a 100 us batch latency
#   device_test  tests/gpu/test_gpu_device in the time that is left
#   summary      the headline figures, from the lines above
# Without a device it prints one line and exits 3 at once.
#
#   scripts/gpu-measure.sh [--bin B] [--test T] [--data D] [--out F] [--budget S]
# or BIN=, TEST=, DATA=, OUT=, BUDGET= in the environment. Defaults: the
# package of `make gpu-pack` (gpu-pack/lpmpipe, gpu-pack/test_gpu_device,
# gpu-pack/data), stdout, 450 s in all.
set -uo pipefail
BIN=${BIN:-gpu-pack/lpmpipe} TEST=${TEST:-gpu-pack/test_gpu_device} DATA=${DATA:-gpu-pack/data}
OUT=${OUT:--} BUDGET=${BUDGET:-450}
while [ $# -gt 0 ]; do
  case $1 in
    --bin) BIN=$2; shift 2 ;;
    --test) TEST=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --budget) BUDGET=$2; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-measure: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
done
T0=$SECONDS
jstr() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr -d '\n'; }

# No device: one line, exit 3, before anything slow.
smi=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && smi=1
if [ $smi -eq 0 ] && ! ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
  echo '{"section":"facts","device":null,"reason":"no NVIDIA device or driver here (no nvidia-smi, no /dev/nvidia*): nothing measured"}'
  exit 3
fi
[ -x "$BIN" ] || { echo "gpu-measure: $BIN is not an executable (make gpu-pack, or --bin)" >&2; exit 2; }
if ! info=$("$BIN" gpu info --json 2>&1); then
  drv=$([ $smi -eq 1 ] && nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
  echo "{\"section\":\"facts\",\"device\":null,\"reason\":\"$(jstr "$(printf '%s' "$info" | grep -v '^{' | head -1)") (driver ${drv:-unknown}; this binary needs R580 or newer)\"}"
  exit 3
fi

W=$(mktemp -d /tmp/gpu-measure.XXXXXX)
trap 'rm -rf "$W"' EXIT
[ "$OUT" = - ] || : >"$OUT"
emit() {
  printf '%s\n' "$1" >>"$W/all.jsonl"
  if [ "$OUT" = - ]; then printf '%s\n' "$1"; else printf '%s\n' "$1" | tee -a "$OUT"; fi
}
log() { echo "gpu-measure: $* ($((SECONDS - T0)) s)" >&2; }
left() { echo $((BUDGET - (SECONDS - T0))); }
# run SECTION CAP CMD...: CMD's JSON lines with "section" first; a failure or
# a timeout is a line too. CAP: at most this many seconds (and what is left).
run() {
  local sec=$1 cap=$2; shift 2
  local t=$(left); [ "$t" -gt "$cap" ] && t=$cap
  if [ "$t" -le 5 ]; then emit "{\"section\":\"$sec\",\"skipped\":\"out of time\",\"cmd\":\"$(jstr "$*")\"}"; return; fi
  timeout "$t" "$@" >"$W/o" 2>"$W/e"
  local rc=$?
  grep '^{' "$W/o" | sed "s/^{/{\"section\":\"$sec\",/" | while IFS= read -r l; do emit "$l"; done
  if [ $rc -ne 0 ]; then
    emit "{\"section\":\"$sec\",\"failed\":$rc,\"timed_out\":$([ $rc -eq 124 ] && echo true || echo false),\"cmd\":\"$(jstr "$*")\",\"stderr\":\"$(jstr "$(tail -c 600 "$W/e")")\"}"
  fi
}

# ---- facts
q=name,driver_version,memory.total,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max,clocks.max.sm,clocks.max.mem,power.limit
IFS=, read -r name drv mem gcur gmax wcur wmax sm memclk pw < <([ $smi -eq 1 ] &&
  nvidia-smi --query-gpu=$q --format=csv,noheader,nounits | head -1 | sed 's/, /,/g')
emit "{\"section\":\"facts\",\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"gpu\":\"$(jstr "$name")\",\"driver\":\"$drv\",\"memory_mib\":\"$mem\",\"pcie_gen\":\"$gcur\",\"pcie_gen_max\":\"$gmax\",\"pcie_width\":\"$wcur\",\"pcie_width_max\":\"$wmax\",\"sm_clock_max_mhz\":\"$sm\",\"mem_clock_max_mhz\":\"$memclk\",\"power_limit_w\":\"$pw\",\"lpmpipe\":$(printf '%s' "$info" | sed -n 's/^{\(.*\)}$/{\1}/p' | head -1),\"host_cpus\":$(nproc),\"host\":\"$(jstr "$(uname -sr)")\",\"package\":\"$(jstr "$(sed -n 's/^commit: *//p' "$(dirname "$BIN")/MANIFEST.txt" 2>/dev/null)")\"}"

# ---- tables
if [ -f "$DATA/tier1-2024.v4.txt.xz" ]; then
  V4=$DATA/tier1-2024.v4.txt.xz V6=$DATA/tier1-2024.v6.txt.xz U=$DATA/linx-update-20141217-p52.txt
  OTHERS="$DATA/routeviews-pfx2as-v4-2020-02.txt.xz $DATA/routeviews-pfx2as-v6-2020-02.txt.xz $DATA/routeviews-20210117-as293.fib6.txt $DATA/linx-rib6-20141225-p69.txt"
else
  log "no real tables in '$DATA': synthetic ones (the lines say so)"
  "$BIN" fib gen --family 4 --count 900000 --seed 1 -o "$W/synthetic-v4.fib"
  "$BIN" fib gen --family 6 --count 160000 --seed 1 -o "$W/synthetic-v6.fib"
  V4=$W/synthetic-v4.fib V6=$W/synthetic-v6.fib U="" OTHERS=""
  emit '{"section":"facts","tables":"synthetic: no real data folder given"}'
fi
B="$BIN gpu bench --json"

# ---- correctness first: every answer checked (--check 0), updates applied
# as fast as the host can (--update-rate 1e9), rebuild and swap forced.
log "correctness"
for e in gamt gale; do
  run correctness 45 $B --fib "$V4" --engine $e --batch 1048576 --streams 4 --count 4194304 \
    --updates 30000 --update-rate 1e9 --rebuild-every 10000
done
run correctness 45 $B --fib "$V6" --engine gamt --batch 1048576 --streams 4 --count 4194304 \
  --updates 30000 --update-rate 1e9 --rebuild-every 10000
for f in $OTHERS; do
  run correctness 20 $B --fib "$f" --engine gamt --batch 1048576 --streams 4 --count 4194304
done

# ---- sweep: kernel-only and end to end vs batch and streams, one build each
log "sweep"
BATCHES=1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216
for spec in "$V4 gamt" "$V4 gale" "$V6 gamt"; do
  set -- $spec
  run sweep 100 $B --fib "$1" --engine "$2" --batch $BATCHES --streams 1,2,4,8,16 --check 65536
done

# ---- updates: 2 s each at 0, 70K and 1M per second
log "updates"
for spec in "$V4 gamt" "$V4 gale" "$V6 gamt"; do
  set -- $spec
  for r in 0 70000 1000000; do
    run updates 25 $B --fib "$1" --engine "$2" --batch 1048576 --streams 4 --count 16777216 \
      --seconds 2 --updates 2500000 --update-rate $r --check 1048576
  done
done
[ -n "$U" ] && run updates_trace 40 $B --fib "$V4" --engine gamt --batch 1048576 --streams 4 --count 16777216 \
  --seconds 2 --update-trace "$U" --update-rate 70000 --check 1048576

# ---- names: MATA on ut1 (or 1M synthetic names), batch x streams
log "names"
N=$DATA/names
if [ -f "$N/ut1-hosts.txt.xz" ]; then
  "$BIN" names build --domains "$N/ut1-hosts.txt.xz" -o "$W/n.tab" 2>"$W/e" &&
    "$BIN" names trace --table "$W/n.tab" --kind average --count 1M --seed 1 --paths "$N/urls-ut1.txt.xz" \
      --rank "$N/alexa-top100k-2016.txt.xz" --zipf 0.8 -o "$W/n.trace" 2>>"$W/e"
  ntab=ut1-hosts
else
  "$BIN" names gen --count 1M --seed 1 -o "$W/n.txt" && "$BIN" names build --domains "$W/n.txt" -o "$W/n.tab" &&
    "$BIN" names trace --table "$W/n.tab" --kind average --count 1M --seed 1 -o "$W/n.trace"
  ntab=synthetic-1M
fi
if [ -s "$W/n.trace" ]; then
  emit "{\"section\":\"names\",\"table\":\"$ntab\",\"trace\":\"average, 1M names\"}"
  run names 120 "$BIN" names gpu bench --table "$W/n.tab" --trace "$W/n.trace" \
    --batch 1024,2048,4096,8192,16384,32768,65536,262144,1048576 --streams 1,2,4,8,16,32,64,128 --threads 256 --repeat 3
else
  emit "{\"section\":\"names\",\"failed\":1,\"stderr\":\"$(jstr "$(tail -c 600 "$W/e")")\"}"
fi

# ---- the device test with the time that is left
log "device test"
if [ -x "$TEST" ] && [ "$(left)" -gt 20 ]; then
  t0=$SECONDS
  LPMPIPE_DATA=$DATA CK_DEFAULT_TIMEOUT=$(left) timeout "$(left)" "$TEST" >"$W/t" 2>&1
  rc=$?
  emit "{\"section\":\"device_test\",\"exit\":$rc,\"timed_out\":$([ $rc -eq 124 ] && echo true || echo false),\"seconds\":$((SECONDS - t0)),\"result\":\"$(jstr "$(grep -E '^[0-9]+%: Checks' "$W/t" | tail -1)")\",\"failures\":\"$(jstr "$(grep -E ':[EF]:' "$W/t" | head -5)")\"}"
else
  emit "{\"section\":\"device_test\",\"skipped\":\"$([ -x "$TEST" ] && echo "out of time" || echo "no test binary $TEST")\"}"
fi

# ---- summary: from the lines above (awk: no jq on a bare machine)
emit "$(awk -v took=$((SECONDS - T0)) '
  function num(k,   m) { if (match($0, "\"" k "\":-?[0-9.e+]+")) { m = substr($0, RSTART, RLENGTH); sub(/^[^:]*:/, "", m); return m + 0 } return -1 }
  function str(k,   m) { if (match($0, "\"" k "\":\"[^\"]*\"")) { m = substr($0, RSTART, RLENGTH); sub(/^[^:]*:"/, "", m); sub(/"$/, "", m); return m } return "" }
  /"failed":/ { failed++ }
  /"mismatches":/ { checked += num("checked"); bad += num("mismatches") + (num("stale") > 0 ? num("stale") : 0) }
  /"section":"sweep"/ && /"e2e_lookups_per_s"/ {
    k = str("engine") "_v" num("family")
    if (num("kernel_lookups_per_s") > kmax[k]) kmax[k] = num("kernel_lookups_per_s")
    if (num("e2e_lookups_per_s") > emax[k]) { emax[k] = num("e2e_lookups_per_s"); ebound[k] = num("copy_bound_lookups_per_s"); ept[k] = num("batch") "x" num("streams") }
    if (num("latency_mean_us") < 100 && num("e2e_lookups_per_s") > lmax[k]) { lmax[k] = num("e2e_lookups_per_s"); lpt[k] = num("batch") "x" num("streams") }
  }
  /"section":"updates"/ && /"e2e_lookups_per_s"/ && str("engine") == "gamt" && num("family") == 4 {
    r = num("update_rate"); urate[r] = num("e2e_lookups_per_s"); uapp[r] = num("updates_applied")
  }
  /"section":"names"/ && /"e2e_searches_per_s"/ {
    if (num("batch_latency_us") < 100 && num("e2e_searches_per_s") > nmax) { nmax = num("e2e_searches_per_s"); npt = num("batch") "x" num("streams") }
    if (num("batch_latency_p99_us") < 100 && num("e2e_searches_per_s") > n99) { n99 = num("e2e_searches_per_s"); n99pt = num("batch") "x" num("streams") }
  }
  END {
    printf "{\"section\":\"summary\",\"seconds\":%d,\"failed_steps\":%d,\"answers_checked\":%.0f,\"wrong_or_stale\":%.0f", took, failed, checked, bad
    for (k in kmax) printf ",\"%s_kernel_max_lps\":%.0f,\"%s_e2e_max_lps\":%.0f,\"%s_e2e_max_at\":\"%s\",\"%s_e2e_over_copy_bound\":%.3f,\"%s_e2e_max_under_100us_lps\":%.0f,\"%s_under_100us_at\":\"%s\"", k, kmax[k], k, emax[k], k, ept[k], k, (ebound[k] > 0 ? emax[k] / ebound[k] : 0), k, lmax[k], k, lpt[k]
    for (r in urate) printf ",\"gamt_v4_e2e_lps_at_%d_updates_per_s\":%.0f,\"gamt_v4_updates_applied_at_%d\":%.0f", r, urate[r], r, uapp[r]
    printf ",\"names_e2e_max_under_100us_mean_sps\":%.0f,\"names_under_100us_mean_at\":\"%s\",\"names_e2e_max_under_100us_p99_sps\":%.0f,\"names_under_100us_p99_at\":\"%s\"}", nmax, npt, n99, n99pt
  }' "$W/all.jsonl")"
log "done"
