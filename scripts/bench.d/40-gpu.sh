#!/usr/bin/env bash
# title: GPU engines GAMT and GALE, MATA names kernel (needs a CUDA device; docs/results-gpu.md)
# The same run scripts/gpu-measure.sh makes on a device machine: correctness
# on the real tables with updates and forced rebuilds, the batch x streams
# sweep against the PCIe bound, updates at 0/70K/1M per second, the names
# kernel under 100 us; JSON lines. Without a device it says so and stops.
set -uo pipefail
T=${LPMPIPE_BUILD:-$(dirname "$BIN")}/tests/gpu/test_gpu_device
bash scripts/gpu-measure.sh --bin "$BIN" --test "$T" --data "${LPMPIPE_DATA:-/nonexistent}"
rc=$?
if [ $rc -eq 3 ]; then
  echo "no CUDA device here: GPU figures are not measured (see docs/results-gpu.md)"
  exit 0
fi
exit $rc
