#!/usr/bin/env bash
# On the device machine, one call (2026-11-29, stop 53): tutorial 06's
# attention without its causal split (head dim 128) and tutorial 09's
# one-tile descriptor matmul (examples/matmul_tma.tile), made persistent by
# tile-persistent-programs, against the same compiler with
# --persistent-programs=false, in the same interleaved rounds (float64
# checks first). MODE=check runs the GPU correctness suite, every example
# under memcheck, racecheck and synccheck, and the attention builds for 2
# SMs (each program walks several tiles) under the three tools instead.
# Needs .carry/bundle.tar.xz holding correctness, kernels, their _noturns
# builds, attention06 (bench/build_attention06.sh), attention06_off
# (TILEC: tilec --persistent-programs=false), attention06_sms2 and
# attention06_sms2_noturns (tilec --num-sms 2 [--warpgroup-turns=false])
# and matmul_tma_off (examples/matmul_tma.tile --all-configs with
# --persistent-programs=false).
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
LOG=${OUT:-/tmp}
CS=${CS:-compute-sanitizer}
command -v "$CS" >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
tar xJf .carry/bundle.tar.xz -C .carry
if [ "${MODE:-bench}" = check ]; then
  python3 bench/gpu_correctness.py .carry/correctness "$LOG/correctness.log" | tail -1
  grep -E "^FAIL" "$LOG/correctness.log" | head -20
  for tool in memcheck racecheck synccheck; do
    suffix=""
    [ $tool = racecheck ] && suffix=_noturns
    "$CS" --tool $tool --error-exitcode 3 python3 bench/attention06_sanitize.py \
      .carry/attention06_sms2$suffix 'attn_d128_s1_*' > "$LOG/attention_sms2_$tool.log" 2>&1
    echo "attention (2 SMs) $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOG/attention_sms2_$tool.log" | tr '\n' ' ')"
  done
  bash bench/sanitize.sh
else
  python3 bench/attention06_bench.py .carry/attention06 "$LOG/attention06.log" \
    --baseline .carry/attention06_off --head-dim 128 | grep -E "^D=|FAIL"
  python3 bench/matmul_tma_bench.py .carry/correctness --baseline .carry/matmul_tma_off \
    --sizes 1024,2048,3072,4096,8192 --log "$LOG/matmul_tma.log" | grep -E "RESULT"
fi
