#!/usr/bin/env bash
# Builds (here) and runs (on the device machine) the sanitizer checks of
# tutorial 09's persistent kernels on TMA (bench/sanitize_persistent_tma.py).
# usage: bash bench/sanitize_persistent_tma.sh build
#        OUT=dir bash bench/sanitize_persistent_tma.sh run   (device)
# racecheck runs on the build without warpgroup turns (see bench/sanitize.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
SIG="M=i32:16,N=i32:16,K=i32:16,stride_am=i32:16,stride_bk=i32:16,stride_cm=i32:16,stride_ak=i32:1,stride_bn=i32:1,stride_cn=i32:1"
if [ "$1" = build ]; then
  set -e
  for flags in "" "--warpgroup-turns=false"; do
    dir=.carry/sanitize_tma${flags:+_noturns}
    rm -rf "$dir" && mkdir -p "$dir"
    build/bin/tilec examples/matmul_persistent.tile --all-configs $flags \
      -o "$dir/matmul_persistent.ptx"
    build/bin/tilec examples/matmul_persistent.tile --all-configs $flags \
      --signature "$SIG" -o "$dir/matmul_div16.ptx"
    build/bin/tilec examples/matmul_descriptor.tile --all-configs $flags \
      -o "$dir/matmul_descriptor.ptx"
  done
  exit 0
fi
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  dir=.carry/sanitize_tma
  [ $tool = racecheck ] && dir=.carry/sanitize_tma_noturns
  "$CS" --tool $tool --error-exitcode 3 python3 bench/sanitize_persistent_tma.py \
    "$dir" > "${OUT:-/tmp}/sanitize_tma_$tool.log" 2>&1
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|all launches' "${OUT:-/tmp}/sanitize_tma_$tool.log" | tr '\n' ' ')"
done
