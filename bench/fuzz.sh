#!/usr/bin/env bash
# Fuzz the whole compiler (source -> PTX, in process) with libFuzzer.
#
#   usage: bench/fuzz.sh SECONDS [LIBFUZZER_FLAG...]
#          bench/fuzz.sh --merge          (refresh test/fuzz/corpus)
#
# Builds tools/tile-fuzz in build-fuzz (clang-22, -DTILE_FUZZ=ON: ASan, UBSan
# and coverage on the project's code; only the tile-fuzz target) and runs it
# for SECONDS on 2 workers (-jobs=2 -workers=2; each job stops at its first
# finding). Inputs at most 4096 bytes, 10 s per input, 4 GB of memory.
#
# Seeds: examples/*.tile, test/Frontend/errors/*.tile and the committed
# corpus test/fuzz/corpus. Under build-fuzz/fuzz/:
#   corpus/     new interesting inputs (kept across runs)
#   artifacts/  crash-*, timeout-*, oom-*, leak-* inputs that failed
#   fuzz-N.log  each job's output
# A finding reproduces with `build-fuzz/bin/tile-fuzz ARTIFACT`.
#
# Environment: FUZZ_BUILD (default build-fuzz), FUZZ_WORKERS (default 2),
# FUZZ_KEEP_GOING=1 runs libFuzzer's fork mode instead, which records a
# finding and goes on (-fork=N -ignore_crashes -ignore_timeouts
# -ignore_ooms).
#
# --merge minimizes the seeds and build-fuzz/fuzz/corpus (libFuzzer's
# -merge=1) and stores in test/fuzz/corpus the inputs that cover something
# the seeds do not.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${FUZZ_BUILD:-build-fuzz}
WORKERS=${FUZZ_WORKERS:-2}

if [ $# -lt 1 ]; then
  echo "usage: bench/fuzz.sh SECONDS [LIBFUZZER_FLAG...] | --merge" >&2
  exit 2
fi

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTILE_FUZZ=ON -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_USE_LINKER=lld
fi
cmake --build "$BUILD" -j2 --target tile-fuzz
FUZZER=$ROOT/$BUILD/bin/tile-fuzz

OUT=$ROOT/$BUILD/fuzz
mkdir -p "$OUT/corpus" "$OUT/artifacts"
rm -rf "$OUT/seeds"
mkdir -p "$OUT/seeds"
cp examples/*.tile test/Frontend/errors/*.tile "$OUT/seeds/"
mkdir -p test/fuzz/corpus

# Libraries and the leak checker: the instrumented code is the project's;
# LLVM's and MLIR's (not instrumented) may still allocate on its behalf.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:print_stacktrace=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

if [ "$1" = "--merge" ]; then
  # Merge into a copy of the seeds, then keep what the merge added.
  work=$(mktemp -d)
  cp "$OUT/seeds/"* "$work/"
  before=$(ls "$work" | sort)
  "$FUZZER" -set_cover_merge=1 -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
    "$work" test/fuzz/corpus "$OUT/corpus" 2>"$OUT/merge.log" || {
    tail -20 "$OUT/merge.log"
    exit 1
  }
  rm -f test/fuzz/corpus/*
  comm -13 <(echo "$before") <(ls "$work" | sort) | while read -r f; do
    cp "$work/$f" test/fuzz/corpus/
  done
  rm -rf "$work"
  grep -E "MERGE-OUTER: [0-9]+ new files" "$OUT/merge.log" || true
  echo "test/fuzz/corpus: $(ls test/fuzz/corpus | wc -l) files," \
    "$(du -sk test/fuzz/corpus | cut -f1) KB"
  exit 0
fi

SECS=$1
shift
cd "$OUT"
rm -f fuzz-*.log
common=(-max_total_time="$SECS" -max_len=4096 -timeout=10 -rss_limit_mb=4096
        -dict="$ROOT/tools/tile-fuzz/tile.dict" -artifact_prefix="$OUT/artifacts/"
        -print_final_stats=1)
dirs=("$OUT/corpus" "$OUT/seeds" "$ROOT/test/fuzz/corpus")
start=$(date +%s)
status=0
if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
  "$FUZZER" -fork="$WORKERS" -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 "${common[@]}" "$@" "${dirs[@]}" > fuzz-0.log 2>&1 ||
    status=$?
else
  "$FUZZER" -jobs="$WORKERS" -workers="$WORKERS" "${common[@]}" "$@" \
    "${dirs[@]}" || status=$?
fi
end=$(date +%s)

# Summary: executions and the last coverage line of each job.
echo "== tile-fuzz: $((end - start)) s, $WORKERS workers, exit status $status"
total=0
for log in fuzz-*.log; do
  [ -f "$log" ] || continue
  runs=$(grep -Eo "stat::number_of_executed_units: [0-9]+" "$log" |
         awk '{s += $2} END {print s + 0}' || true)
  if [ "$runs" = 0 ]; then
    # fork mode, or a job that ended on a finding: the last status line.
    runs=$(grep -Eo "^#[0-9]+" "$log" | tail -1 | tr -d '#' || true)
    runs=${runs:-0}
  fi
  total=$((total + runs))
  echo "$log: $runs runs; $(grep -E '^#[0-9]+' "$log" | tail -1 || true)"
  grep -E "^(==[0-9]+==ERROR|SUMMARY|tile-fuzz: )|ALARM: working on the last Unit for|Test unit written to" "$log" | head -5 || true
done
echo "total: $total executions"
echo "corpus: $(ls "$OUT/corpus" | wc -l) inputs; artifacts: $(ls "$OUT/artifacts" | wc -l)"
exit "$status"
