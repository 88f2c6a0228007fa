#!/usr/bin/env bash
# One idempotent installer for everything lpmpipe builds and tests with.
# Does nothing when every package is present. --peers adds the heavy peer
# libraries (DPDK), which the default suite does not need; --fuzz adds
# clang and its libFuzzer/sanitizer runtimes for `make fuzz`.
set -euo pipefail

pkgs=(build-essential pkg-config check zlib1g-dev liblzma-dev libbz2-dev
      verilator libsystemc-dev iverilog yosys nextpnr-ice40 fpga-icestorm
      gnuplot-nox bgpdump python3-mrtparse mrtparse xz-utils
      libjansson-dev parallel chromium slurm-wlm munge)
peers=(libdpdk-dev)
fuzz=(clang libclang-rt-dev bzip2 gzip)

want=("${pkgs[@]}")
for a in "$@"; do
  case "$a" in
    --peers) want+=("${peers[@]}") ;;
    --fuzz) want+=("${fuzz[@]}") ;;
    -h|--help) echo "usage: scripts/deps.sh [--peers] [--fuzz]"; exit 0 ;;
    *) echo "deps.sh: unknown option '$a'" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Several checkouts may run this at once (parallel builds, worktrees): one
# apt run at a time, the others wait for it instead of failing on dpkg's lock.
lock=${TMPDIR:-/tmp}/lpmpipe-deps.lock
exec 9>"$lock"
flock 9
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
