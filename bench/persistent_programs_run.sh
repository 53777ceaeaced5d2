#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 52): the whole GPU
# correctness suite with one-tile matmuls made persistent
# (tile-persistent-programs), then every example under memcheck, racecheck
# and synccheck (sanitize_examples.py launches the persistent matmuls with
# more tiles than programs). Needs .carry/bundle.tar.xz holding
# correctness, kernels and their _noturns builds (bench/build_correctness.sh,
# build_kernels.sh, the latter pair with tilec --warpgroup-turns=false).
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
tar xJf .carry/bundle.tar.xz -C .carry
python3 bench/gpu_correctness.py .carry/correctness "$LOG/correctness.log" | tail -1
grep -E "^FAIL" "$LOG/correctness.log" | head -20
bash bench/sanitize.sh
