#!/usr/bin/env bash
# Build the JIT's programs self-contained for the GPU machine (which has no
# LLVM/MLIR): static LLVM/MLIR (the archives of llvm-22-dev/libmlir-22-dev),
# static libstdc++, dynamic libc/libz/libzstd, the CUDA driver opened at run
# time; the host example links the CUDA runtime and cuBLAS dynamically (the
# GPU machine has them). Stripped, unused sections dropped, xz-compressed
# into .carry/jit; bench/jit_bench.sh unpacks and runs them there.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target tile-run TileRuntime TileJIT > /dev/null
OUT=.carry/jit
rm -rf "$OUT" && mkdir -p "$OUT"
TMP=$(mktemp -d)
CUDA=${CUDA_HOME:-/usr/local/cuda}
LLVM_LIBS=$(ls /usr/lib/llvm-22/lib/libLLVM*.a |
            grep -v -E 'libLLVM(LTO|Extensions|LineEditor|Debuginfod)\.a')
MLIR_LIBS=$(ls /usr/lib/llvm-22/lib/libMLIR*.a)
link() { # OUTPUT OBJECT... -- EXTRA LINK FLAGS...
  local out=$1; shift
  c++ -fuse-ld=lld -Wl,--gc-sections -Wl,--icf=all -s -o "$out" "$@" \
    -Wl,--start-group build/lib/libTile*.a $MLIR_LIBS $LLVM_LIBS \
    -Wl,--end-group -lz -lzstd -ldl -lpthread -static-libstdc++ -static-libgcc
}
# ONLY=tile-run: just the command-line runner (bench/gpu_harness_tests.sh).
if [ "${ONLY:-}" = tile-run ]; then
  link "$TMP/tile-run" build/tools/tile-run/CMakeFiles/tile-run.dir/tile-run.cpp.o
  xz -9 -T2 -c "$TMP/tile-run" > "$OUT/tile-run.xz"
  rm -rf "$TMP"
  ls -la "$OUT"
  exit 0
fi
# ONLY=matmul_host: just the host example (bench/jit_host_run.sh).
if [ "${ONLY:-}" = matmul_host ]; then
  c++ -std=c++17 -O2 -Iinclude -I"$CUDA/include" \
    -DMATMUL_TILE='"examples/matmul.tile"' \
    -c examples/host/matmul_host.cpp -o "$TMP/matmul_host.o"
  link "$TMP/matmul_host" "$TMP/matmul_host.o" -L"$CUDA/lib64" -lcudart -lcublas \
    -Wl,-rpath,/usr/local/cuda/lib64
  xz -9 -T2 -c "$TMP/matmul_host" > "$OUT/matmul_host.xz"
  rm -rf "$TMP"
  ls -la "$OUT"
  exit 0
fi
c++ -std=c++17 -O2 -Iinclude -c bench/jit_bench.cpp -o "$TMP/jit_bench.o"
c++ -std=c++17 -O2 -Iinclude -I"$CUDA/include" \
  -DMATMUL_TILE='"examples/matmul.tile"' \
  -c examples/host/matmul_host.cpp -o "$TMP/matmul_host.o"
link "$TMP/tile-run" build/tools/tile-run/CMakeFiles/tile-run.dir/tile-run.cpp.o
link "$TMP/jit_bench" "$TMP/jit_bench.o"
link "$TMP/matmul_host" "$TMP/matmul_host.o" -L"$CUDA/lib64" -lcudart -lcublas \
  -Wl,-rpath,/usr/local/cuda/lib64
for f in tile-run jit_bench matmul_host; do
  xz -9 -T2 -c "$TMP/$f" > "$OUT/$f.xz"
done
rm -rf "$TMP"
ls -la "$OUT"
