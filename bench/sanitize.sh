#!/usr/bin/env bash
# On the device machine: every example under compute-sanitizer's memcheck,
# racecheck and synccheck (bench/sanitize_examples.py). Needs .carry/kernels
# and .carry/correctness (bench/build_kernels.sh, build_correctness.sh),
# and for racecheck the same built with --warpgroup-turns=false into
# .carry/kernels_noturns and .carry/correctness_noturns: racecheck reports
# hazards that are not there once warpgroups have taken turns through
# bar.arrive (bench/turns_racecheck.cu shows it on a minimal kernel), and
# the turns touch no memory, so those builds have the same accesses.
# RACECHECK_SUFFIX= (empty) runs racecheck on the default builds instead.
set -uo pipefail
cd "$(dirname "$0")"
CS=${CS:-compute-sanitizer}
command -v "$CS" >/dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
for tool in memcheck racecheck synccheck; do
  suffix=""
  [ $tool = racecheck ] && suffix=${RACECHECK_SUFFIX-_noturns}
  "$CS" --tool $tool --error-exitcode 3 python3 sanitize_examples.py \
    ../.carry/kernels$suffix ../.carry/correctness$suffix \
    > "${OUT:-/tmp}/sanitize_$tool.log" 2>&1
  echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|all launches' "${OUT:-/tmp}/sanitize_$tool.log" | tr '\n' ' ')"
done
