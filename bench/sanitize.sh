#!/usr/bin/env bash
# On the device machine: every example under compute-sanitizer's memcheck,
# racecheck and synccheck (bench/sanitize_examples.py). Needs .carry/kernels
# and .carry/correctness (bench/build_kernels.sh, build_correctness.sh).
set -uo pipefail
cd "$(dirname "$0")"
CS=${CS:-compute-sanitizer}
command -v "$CS" >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  "$CS" --tool $tool --error-exitcode 3 python3 sanitize_examples.py \
    ../.carry/kernels ../.carry/correctness > "${OUT:-/tmp}/sanitize_$tool.log" 2>&1
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|all launches' "${OUT:-/tmp}/sanitize_$tool.log" | tr '\n' ' ')"
done
