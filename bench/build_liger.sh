#!/usr/bin/env bash
# Compile bench/kernels/liger.tile (ports of three Liger-Kernel kernels) as
# Liger launches them: BLOCK_SIZE the next power of two of the row (the
# cross entropy's at most 32768), warps from Liger's calculate_settings.
# Outputs to ${OUT:-.carry/liger} for bench/liger_bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/liger}
rm -rf "$OUT" && mkdir -p "$OUT"
SRC=bench/kernels/liger.tile
$TILEC $SRC -k rms_norm_forward -D BLOCK_SIZE=4096 --num-warps 8 -o "$OUT/rms_norm_4096.ptx"
$TILEC $SRC -k rms_norm_forward -D BLOCK_SIZE=8192 --num-warps 16 -o "$OUT/rms_norm_8192.ptx"
$TILEC $SRC -k swiglu_forward -D BLOCK_SIZE=16384 -D n_cols=11008 --num-warps 32 -o "$OUT/swiglu_11008.ptx"
$TILEC $SRC -k swiglu_forward -D BLOCK_SIZE=16384 -D n_cols=14336 --num-warps 32 -o "$OUT/swiglu_14336.ptx"
$TILEC $SRC -k cross_entropy -D BLOCK_SIZE=32768 --num-warps 32 -o "$OUT/cross_entropy.ptx"
for f in "$OUT"/*.ptx; do
  echo "$(basename "$f"): $(/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$f" -o /dev/null 2>&1 | grep -oE '[0-9]+ bytes spill stores' | head -1)"
done
