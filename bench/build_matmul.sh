#!/usr/bin/env bash
# Compile examples/matmul.tile for the H100 matmul benchmark (issue 4):
# every @autotune config, in three specializations of the integer
# arguments (as a JIT would choose per call: all divisible by 16, by 8, or
# only the unit strides known). Outputs go to .carry/matmul with the SASS
# facts (ptxas -v) next to them. Runs here; bench/matmul_bench.py runs on
# the GPU. OUT and TILEC_FLAGS (e.g. --wgmma=false) build a baseline for
# matmul_bench.py --baseline.
# DTYPE=bf16 or fp32 (tf32 tensor cores) builds the kernel on those
# pointers (C too), LAYOUT=bt for B given transposed (A @ W^T: stride_bk
# 1), for matmul_bench.py --dtype ... --bt; LAYOUT=tt for A transposed too
# (stride_am 1), for --at --bt.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/matmul}
FLAGS=${TILEC_FLAGS:-}
DTYPE=${DTYPE:-fp16}
rm -rf "$OUT" && mkdir -p "$OUT"
# MATMUL_SRC=bench/kernels/matmul_tutorial03.tile: tutorial 03 as
# published (its sixteen configs), the same parameters.
SRC=${MATMUL_SRC:-examples/matmul.tile}
if [ "$DTYPE" != fp16 ]; then
  sed "s/\*fp16:16/*$DTYPE:16/g; s/\*fp16/*$DTYPE/g; s/tl.float16/c_ptr.dtype.element_ty/" \
    "$SRC" > "$OUT/matmul_$DTYPE.tile"
  SRC="$OUT/matmul_$DTYPE.tile"
fi
A_STRIDE=stride_am
case "${LAYOUT:-nn}" in
  bt) UNIT="stride_ak=i32:1,stride_bk=i32:1,stride_cn=i32:1" B_STRIDE=stride_bn ;;
  tt) UNIT="stride_am=i32:1,stride_bk=i32:1,stride_cn=i32:1" B_STRIDE=stride_bn
      A_STRIDE=stride_ak ;;
  *) UNIT="stride_ak=i32:1,stride_bn=i32:1,stride_cn=i32:1" B_STRIDE=stride_bk ;;
esac
for d in 16 8 1; do
  if [ "$d" = 1 ]; then
    SIG="$UNIT"
  else
    SIG="M=i32:$d,N=i32:$d,K=i32:$d,$A_STRIDE=i32:$d,$B_STRIDE=i32:$d,stride_cm=i32:$d,$UNIT"
  fi
  "$TILEC" "$SRC" $FLAGS --all-configs --signature "$SIG" \
    -o "$OUT/matmul_div$d.ptx"
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$OUT/matmul_div$d.ptx" \
    -o /dev/null 2> "$OUT/matmul_div$d.ptxas.txt"
done
# The naive 2-D version with and without the grouped-order pass.
SIG="M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_bk=i32:16,stride_cm=i32:16,$UNIT"
"$TILEC" examples/matmul_2d.tile $FLAGS --all-configs --signature "$SIG" \
  --group-m=8 -o "$OUT/matmul_2d_grouped.ptx"
"$TILEC" examples/matmul_2d.tile $FLAGS --all-configs --signature "$SIG" \
  --group-m=0 -o "$OUT/matmul_2d_rowmajor.ptx"
grep -H -E "Used|spill" "$OUT"/*.ptxas.txt
