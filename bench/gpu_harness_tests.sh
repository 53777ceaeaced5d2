#!/usr/bin/env bash
# On the GPU machine (after `ONLY=tile-run bench/build_jit.sh` here, with
# .carry/jit carried): the CPU-mode tests of test/Interpreter whose kernels
# are worth checking on the GPU, run by `tile-run --device gpu` through the
# JIT and checked against NumPy in float64 exactly as in the CPU mode; then
# one heuristics run (None pointers included) under compute-sanitizer.
#   bash bench/gpu_harness_tests.sh [TEST.py ...]   (default: the list below)
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=$(mktemp -d)
xz -d -c .carry/jit/tile-run.xz > "$BIN/tile-run.real" && chmod +x "$BIN/tile-run.real"
printf '#!/bin/sh\nexec %s --device gpu "$@"\n' "$BIN/tile-run.real" > "$BIN/tile-run"
chmod +x "$BIN/tile-run"
export TILE_CACHE_DIR=$(mktemp -d)
IN=test/Interpreter/Inputs
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(heuristics libdevice_extra math_functions triton36_names mma8)
status=0
for t in "${tests[@]}"; do
  echo "== $t on the GPU"
  case $t in
    math_functions) arg=$IN ;;
    *) arg=$IN/$t.tile ;;
  esac
  TILE_RUN=$BIN/tile-run python3 $IN/$t.py "$arg" || status=1
done
echo "== num_sms() in @autotune configs: the device's SM count"
"$BIN/tile-run.real" --device gpu test/Frontend/autotune-num-sms.tile \
  --grid 2 --arg out_ptr=zeros:i32:4 --arg n=4 --dump out_ptr=$BIN/sms.npy &&
python3 -c "
import numpy as np, torch
sms = torch.cuda.get_device_properties(0).multi_processor_count
got = np.load('$BIN/sms.npy')[:2].tolist()
ok = got in ([sms] * 2, [sms // 2] * 2)  # the tuner picks either config
print('num_sms:', got, 'device:', sms, 'PASS' if ok else 'FAIL')
raise SystemExit(0 if ok else 1)" || status=1
echo "== @autotune with zeroing pre_hooks and restore_value, timed by the JIT"
"$BIN/tile-run.real" --device gpu test/Frontend/autotune-zeroing-hooks.tile \
  -k accumulate --arg x_ptr=arange:fp32:100 --arg out_ptr=ones:fp32:1 \
  --arg total_ptr=ones:fp32:1 --arg n=100 \
  --dump out_ptr=$BIN/acc.npy --dump total_ptr=$BIN/total.npy &&
python3 -c "
import numpy as np
got = (np.load('$BIN/acc.npy').tolist(), np.load('$BIN/total.npy').tolist())
ok = got == ([4950.0], [4951.0])
print('zeroing hooks:', got, 'PASS' if ok else 'FAIL')
raise SystemExit(0 if ok else 1)" || status=1
echo "== compute-sanitizer: row_scale with b_ptr=None, N=1000"
for tool in memcheck racecheck synccheck; do
  /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 \
    "$BIN/tile-run.real" --device gpu $IN/heuristics.tile -k row_scale --grid 3 \
    --arg x_ptr=rand:fp32:3x1000 --arg b_ptr=None --arg y_ptr=zeros:fp32:3x1000 \
    --arg M=3 --arg N=1000 2>&1 | tail -2 || status=1
done
exit $status
