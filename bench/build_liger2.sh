#!/usr/bin/env bash
# Compile bench/kernels/liger2.tile (ports of ten Liger-Kernel kernels) as
# Liger launches them: BLOCK_SIZE the next power of two of the row (KL
# divergence's at most 16384), warps from Liger's calculate_settings (4,
# 8 from 2048, 16 from 8192, 32 from 32768) where Liger passes them, else
# Triton's default 4 (RoPE, JSD, group norm); DyT's every autotune config.
# No --signature: the headers are typed and, as for a user, the compiler
# versions the kernels on alignment at run time. The layer norm backward
# takes rows_per_program = ceil(4096 rows / SMS) (132 SMs: H100 SXM, H200).
# Outputs to ${OUT:-.carry/liger2} for bench/liger2_bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/liger2}
SMS=${SMS:-132}
RPP=$(( (4096 + SMS - 1) / SMS ))
rm -rf "$OUT" && mkdir -p "$OUT"
SRC=bench/kernels/liger2.tile
$TILEC $SRC -k _layer_norm_forward_kernel -D BLOCK_SIZE=4096 --num-warps 8 -o "$OUT/layer_norm_fwd_4096.ptx"
$TILEC $SRC -k _layer_norm_forward_kernel -D BLOCK_SIZE=8192 --num-warps 16 -o "$OUT/layer_norm_fwd_8192.ptx"
$TILEC $SRC -k _layer_norm_backward_kernel -D BLOCK_SIZE=4096 -D rows_per_program=$RPP --num-warps 8 -o "$OUT/layer_norm_bwd_4096.ptx"
$TILEC $SRC -k _layer_norm_backward_kernel -D BLOCK_SIZE=8192 -D rows_per_program=$RPP --num-warps 16 -o "$OUT/layer_norm_bwd_8192.ptx"
$TILEC $SRC -k _geglu_tanh_forward_kernel -D BLOCK_SIZE=16384 -D n_cols=11008 --num-warps 16 -o "$OUT/geglu_fwd_11008.ptx"
$TILEC $SRC -k _geglu_tanh_backward_kernel -D BLOCK_SIZE=16384 -D n_cols=11008 --num-warps 16 -o "$OUT/geglu_bwd_11008.ptx"
# Liger launches it with num_stages=2 (there is no loop to pipeline).
$TILEC $SRC -k _fused_add_rms_norm_forward_kernel -D BLOCK_SIZE=4096 -D casting_mode=0 --num-warps 8 --num-stages 2 -o "$OUT/fused_add_rms_norm_4096.ptx"
$TILEC $SRC -k _fused_add_rms_norm_forward_kernel -D BLOCK_SIZE=8192 -D casting_mode=0 --num-warps 16 --num-stages 2 -o "$OUT/fused_add_rms_norm_8192.ptx"
# Llama-3-8B's attention: 32 query heads, 8 key/value heads of 128.
$TILEC $SRC -k _triton_rope -D bs=1 -D cos_bs=1 -D n_qh=32 -D n_kh=8 -D hd=128 -D pad_n_qh=32 -D pad_n_kh=8 -D pad_hd=128 -D BLOCK_SIZE=32 --num-warps 4 -o "$OUT/rope.ptx"
# All 18 configs in one module each; the bench runs the one Triton picks.
$TILEC $SRC -k _dyt_fwd_kernel -D HAVE_BETA=True -D N=4096 --all-configs -o "$OUT/dyt_4096.ptx"
$TILEC $SRC -k _dyt_fwd_kernel -D HAVE_BETA=True -D N=8192 --all-configs -o "$OUT/dyt_8192.ptx"
# The vocabulary is a run-time loop bound: one build for every V >= 16384.
$TILEC $SRC -k _kldiv_kernel_forward -D BLOCK_SIZE=16384 --num-warps 16 -o "$OUT/kl_div_16384.ptx"
$TILEC $SRC -k _jsd_kernel -D beta=0.5 -D ignore_index=-100 -D BLOCK_SIZE=32768 -D HAS_LABEL=False --num-warps 4 -o "$OUT/jsd_32768.ptx"
$TILEC $SRC -k _group_norm_forward_kernel -D BLOCK_SIZE=8192 --num-warps 4 -o "$OUT/group_norm_8192.ptx"
# The most any kernel of a file spills (the DyT files hold 18).
for f in "$OUT"/*.ptx; do
  echo "$(basename "$f"): $(/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$f" -o /dev/null 2>&1 | grep -oE '[0-9]+ bytes spill stores' | sort -n | tail -1)"
done
