#!/usr/bin/env bash
# Compile vLLM's fused MoE kernel (fused_moe_kernel of
# bench/kernels/probe_serving.tile, body as published) for fp16 at two
# configs: vLLM's default for M > E (64x64x32, GROUP_SIZE_M 8, 4 warps, 3
# stages) and a tuned H100 one (64x128x64, GROUP_SIZE_M 1, 4 warps, 4
# stages); with the facts the JIT would give bench/moe_bench.py's arguments
# (weights [E, N, K], K contiguous; EM, the padded slot count, has no
# fact) and as written. Runs here; outputs to
# .carry/moe (OUT=...).
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/moe}
rm -rf "$OUT" && mkdir -p "$OUT"
SIG="a_ptr=*fp16:16,b_ptr=*fp16:16,c_ptr=*fp16:16,a_scale_ptr=*fp32:16"
SIG="$SIG,b_scale_ptr=*fp32:16,topk_weights_ptr=*fp32:16"
SIG="$SIG,sorted_token_ids_ptr=*i32:16,expert_ids_ptr=*i32:16"
SIG="$SIG,num_tokens_post_padded_ptr=*i32:16,N=i32:16,K=i32:16,EM=i32"
SIG="$SIG,num_valid_tokens=i32:16,stride_am=i32:16,stride_ak=i32:1"
SIG="$SIG,stride_be=i32:16,stride_bk=i32:1,stride_bn=i32:16,stride_cm=i32:16"
SIG="$SIG,stride_cn=i32:1,stride_asm=i32:16,stride_ask=i32:16"
SIG="$SIG,stride_bse=i32:16,stride_bsk=i32:16,stride_bsn=i32:16"
for cfg in "64 64 32 8 4 3" "64 128 64 1 4 4"; do
  set -- $cfg
  name=moe_$1x$2x$3
  common=(bench/kernels/probe_serving.tile -k fused_moe_kernel -D group_n=0
    -D group_k=0 -D BLOCK_SIZE_M=$1 -D BLOCK_SIZE_N=$2 -D BLOCK_SIZE_K=$3
    -D GROUP_SIZE_M=$4 -D MUL_ROUTED_WEIGHT=True -D top_k=2
    -D compute_type=fp16 -D use_fp8_w8a8=False -D use_int8_w8a8=False
    -D use_int8_w8a16=False -D per_channel_quant=False --num-warps $5
    --num-stages $6)
  $TILEC "${common[@]}" --signature "$SIG" -o "$OUT/${name}_jit.ptx"
  $TILEC "${common[@]}" -o "$OUT/$name.ptx"
done
for f in "$OUT"/*.ptx; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$f" -o /dev/null 2>&1 |
    grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | tr '\n' ' ' |
    sed "s|^|$(basename "$f"): |"
  echo
done
