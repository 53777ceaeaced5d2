#!/usr/bin/env bash
# Compile SGLang's prefill attention (_fwd_kernel of
# bench/kernels/probe_serving.tile, body as published) at SGLang's launch
# settings: BLOCK 128, 4 warps at head dim 64 and 8 at 128, one stage;
# causal and not; with the facts the JIT would give bench/prefill_bench.py's
# arguments and as written (guarded fast path beside the general one).
# Runs here; outputs to .carry/prefill (OUT=...).
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/prefill}
rm -rf "$OUT" && mkdir -p "$OUT"
SIG="Q=*fp16:16,K=*fp16:16,V=*fp16:16,B_Start_Loc=*i32:16,B_Seqlen=*i32:16,Out=*fp16:16"
for p in qbs qh kbs kh vbs vh obs oh; do SIG="$SIG,stride_$p=i32:16"; done
for d in 64 128; do
  warps=$([ $d -le 64 ] && echo 4 || echo 8)
  for causal in True False; do
    name=prefill_d${d}_$([ $causal = True ] && echo causal || echo full)
    common=(bench/kernels/probe_serving.tile -k _fwd_kernel -D kv_group_num=1
      -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_DMODEL=$d -D Lk=$d
      -D IS_CAUSAL=$causal --num-warps $warps --num-stages 1)
    $TILEC "${common[@]}" --signature "$SIG" -o "$OUT/${name}_jit.ptx"
    $TILEC "${common[@]}" -o "$OUT/$name.ptx"
  done
done
for f in "$OUT"/*.ptx; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$f" -o /dev/null 2>&1 |
    grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | tr '\n' ' ' |
    sed "s|^|$(basename "$f"): |"
  echo
done
