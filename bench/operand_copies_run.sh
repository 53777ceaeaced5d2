#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 52): the per-operand
# copies of tile-version-arguments (b160911) on the GPU. Needs
# .carry/bundle.tar.xz holding correctness, kernels and their _noturns
# builds (bench/build_correctness.sh, build_kernels.sh, the latter pair with
# tilec --warpgroup-turns=false, for racecheck: bench/sanitize.sh says why).
# The matmul and split-K checks (odd row strides of one operand select its
# copy), then every example under memcheck, racecheck and synccheck.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
tar xJf .carry/bundle.tar.xz -C .carry
ONLY=${ONLY:-check_matmul,check_splitk} python3 bench/gpu_correctness.py \
  .carry/correctness "$LOG/correctness.log" | tail -1
grep -E "FAIL" "$LOG/correctness.log" | head -20
grep -E "odd rows" "$LOG/correctness.log" | head -60
bash bench/sanitize.sh
