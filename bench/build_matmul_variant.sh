#!/usr/bin/env bash
# One variant of examples/matmul.tile for bench/matmul_variants.py: every
# config with the JIT's div16 facts, into OUT (default .carry/variants/base),
# compiled by TILEC (default build/bin/tilec) with TILEC_FLAGS.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/variants/base}
rm -rf "$OUT" && mkdir -p "$OUT"
SIG="M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_bk=i32:16,stride_cm=i32:16,stride_ak=i32:1,stride_bn=i32:1,stride_cn=i32:1"
# shellcheck disable=SC2086
"$TILEC" "${MATMUL_SRC:-examples/matmul.tile}" ${TILEC_FLAGS:-} --all-configs --signature "$SIG" \
  -o "$OUT/matmul_div16.ptx"
/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$OUT/matmul_div16.ptx" -o /dev/null 2>&1 |
  grep -E "Used|spill" > "$OUT/ptxas.txt"
