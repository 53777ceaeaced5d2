#!/usr/bin/env bash
# Compile SGLang's decode attention, first stage (_fwd_kernel_stage1 of
# bench/kernels/probe_serving.tile, body as published) at SGLang's settings
# for head dim 128 (BLOCK_N 64, 4 warps, 2 stages, MHA), with the facts the
# JIT would give bench/decode_bench.py's arguments and as written. Runs
# here; outputs to .carry/decode (OUT=...).
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/decode}
rm -rf "$OUT" && mkdir -p "$OUT"
SIG="Q=*fp16:16,K_Buffer=*fp16:16,V_Buffer=*fp16:16,kv_indptr=*i32:16"
SIG="$SIG,kv_indices=*i32:16,Att_Out=*fp32:16,Att_Lse=*fp32:16"
SIG="$SIG,num_kv_splits=*i32:16"
for p in qbs qh buf_kbs buf_kh buf_vbs buf_vh mid_ob mid_oh mid_os; do
  SIG="$SIG,stride_$p=i32:16"
done
common=(bench/kernels/probe_serving.tile -k _fwd_kernel_stage1
  -D kv_group_num=1 -D BLOCK_DMODEL=128 -D BLOCK_DV=128 -D BLOCK_N=64
  -D MIN_BLOCK_KV=32 -D logit_cap=0.0 -D Lk=128 -D Lv=128
  -D xai_temperature_len=-1 --num-warps 4 --num-stages 2)
$TILEC "${common[@]}" --signature "$SIG" -o "$OUT/decode_jit.ptx"
$TILEC "${common[@]}" -o "$OUT/decode.ptx"
