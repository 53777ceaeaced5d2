#!/usr/bin/env bash
# Builds for bench/attention_timeline_run.sh (2026-11-29, stop 49): the
# timeline probe bench/kernels/attention_timeline.tile (head dim 128,
# non-causal, every config, the JIT's facts) into ${OUT:-.carry/tl}, and
# entry_d128_s1.ptx, a copy whose kernels also store the time at their
# first instruction and their SM after the 4 words a program (by launch
# index: %ctaid.y * %nctaid.x + %ctaid.x), for attention_timeline.py
# --entry.
set -euo pipefail
cd "$(dirname "$0")/.."
TILEC=${TILEC:-build/bin/tilec}
OUT=${OUT:-.carry/tl}
rm -rf "$OUT" && mkdir -p "$OUT"
SIG="Q=*fp16:16,K=*fp16:16,V=*fp16:16,M=*fp32:16,Out=*fp16:16,stride_qz=i32:16,stride_qh=i32:16,stride_qm=i32:16,stride_qk=i32:1,stride_kz=i32:16,stride_kh=i32:16,stride_kn=i32:16,stride_kk=i32:1,stride_vz=i32:16,stride_vh=i32:16,stride_vk=i32:16,stride_vn=i32:1,stride_oz=i32:16,stride_oh=i32:16,stride_om=i32:16,stride_on=i32:1,N_CTX=i32:16"
"$TILEC" bench/kernels/attention_timeline.tile --all-configs -D HEAD_DIM=128 \
  -D STAGE=1 --signature "$SIG" -o "$OUT/timeline_d128_s1.ptx"
python3 - "$OUT" <<'PY'
import sys
out = sys.argv[1]
lines = open(f"{out}/timeline_d128_s1.ptx").read().split("\n")
patched, kernel = [], None
for line in lines:
    patched.append(line)
    if line.startswith(".visible .entry attn_fwd_"):
        kernel = line.split("attn_fwd_")[1].split("(")[0]
    if kernel is not None and line == "{":
        # T is parameter 25; its programs' 4 words come first.
        patched.append(f"""\t{{
\t.reg .u64 %tle<5>;
\t.reg .u32 %tlr<6>;
\tmov.u64 %tle0, %globaltimer;
\tld.param.u64 %tle1, [attn_fwd_{kernel}_param_25];
\tcvta.to.global.u64 %tle1, %tle1;
\tmov.u32 %tlr0, %ctaid.x;
\tmov.u32 %tlr1, %ctaid.y;
\tmov.u32 %tlr2, %nctaid.x;
\tmov.u32 %tlr3, %nctaid.y;
\tmad.lo.u32 %tlr4, %tlr1, %tlr2, %tlr0;
\tmul.lo.u32 %tlr5, %tlr2, %tlr3;
\tmul.wide.u32 %tle2, %tlr5, 32;
\tadd.u64 %tle1, %tle1, %tle2;
\tmul.wide.u32 %tle3, %tlr4, 16;
\tadd.u64 %tle1, %tle1, %tle3;
\tmov.u32 %tlr0, %smid;
\tcvt.u64.u32 %tle4, %tlr0;
\tst.global.u64 [%tle1], %tle0;
\tst.global.u64 [%tle1+8], %tle4;
\t}}""")
        kernel = None
open(f"{out}/entry_d128_s1.ptx", "w").write("\n".join(patched))
PY
cp "$OUT/timeline_d128_s1.json" "$OUT/entry_d128_s1.json"
for f in timeline entry; do
  /usr/local/cuda/bin/ptxas -arch=sm_90a "$OUT/${f}_d128_s1.ptx" -o /dev/null
done
ls "$OUT"
