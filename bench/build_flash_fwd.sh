#!/usr/bin/env bash
# FlashAttention's Triton forward (Dao-AILab flash_attn_triton.py
# _fwd_kernel, ported with its @triton.heuristics in
# bench/kernels/probe_generality.tile) at its launcher's settings for head
# dim 64 (128 x 128 blocks, 4 warps, 1 stage), causal and not, no bias:
# as written (the heuristics told the sizes with --arg) and with the JIT's
# facts (--signature), for bench/flash_fwd_bench.py.
#   OUT=.carry/flash_fwd SEQ=4096 bash bench/build_flash_fwd.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-.carry/flash_fwd}
SEQ=${SEQ:-4096}
TILEC=${TILEC:-build/bin/tilec}
rm -rf "$OUT" && mkdir -p "$OUT"
SIG=$(/usr/bin/python3 -c "
import sys; sys.argv = ['x', '--no-gpu-compile']; sys.path.insert(0, 'bench')
import probe_generality_cpu as p; print(p.SIG_FA)" | tail -1)
for causal in False True; do
  common=(bench/kernels/probe_generality.tile -k _fwd_kernel -D BIAS_TYPE=none
          -D IS_CAUSAL=$causal -D BLOCK_HEADDIM=64 -D BLOCK_M=128 -D BLOCK_N=128
          --num-warps 4 --num-stages 1 --arg seqlen_q=$SEQ --arg seqlen_k=$SEQ
          --arg headdim=64)
  "$TILEC" "${common[@]}" -o "$OUT/flash_fwd_causal$causal.ptx"
  "$TILEC" "${common[@]}" --signature "$SIG" -o "$OUT/flash_fwd_causal${causal}_jit.ptx"
done
for f in "$OUT"/*.ptx; do
  printf '%s: ' "$(basename "$f")"
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$f" -o /dev/null 2>&1 |
    grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | tr '\n' ' '
  echo
done
