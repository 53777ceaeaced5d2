#!/usr/bin/env bash
# On the GPU machine (after bench/build_jit.sh here, with .carry carried):
# unpack the self-contained JIT programs and measure them next to Triton.
#   1. tile-run --device gpu against --device cpu on the same inputs;
#   2. examples/host (matmul through the JIT, checked against cuBLAS);
#   3. cold compile, warm launch overhead and autotune time (jit_bench), and
#      Triton's (bench/jit_triton.py).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(mktemp -d)
for f in .carry/jit/*.xz; do
  name=$(basename "$f" .xz)
  xz -d -c "$f" > "$BIN/$name" && chmod +x "$BIN/$name"
done
export TILE_CACHE_DIR=$(mktemp -d)
# Cold means cold: no driver-side cache of assembled PTX either.
export CUDA_CACHE_DISABLE=1
# cuBLAS/cudart of the machine's toolkit or of PyTorch's wheels.
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; print(" ".join(os.path.join(p, s, "lib") for p in nvidia.__path__ for s in ("cublas", "cuda_runtime", "cu13")))' 2>/dev/null); do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done

echo "== tile-run --device gpu vs cpu"
common=(examples/matmul.tile -D BLOCK_M=64 -D BLOCK_N=64 -D BLOCK_K=32
        --arg a_ptr=rand:fp16:300x200 --arg b_ptr=rand:fp16:200x170
        --arg c_ptr=zeros:fp16:300x170 --arg M=300 --arg N=170 --arg K=200
        --arg stride_am=200 --arg stride_ak=1 --arg stride_bk=170
        --arg stride_bn=1 --arg stride_cm=170 --arg stride_cn=1 --seed 3)
"$BIN/tile-run" "${common[@]}" --device gpu --dump c_ptr="$BIN/gpu.npy" -v
"$BIN/tile-run" "${common[@]}" --device cpu --dump c_ptr="$BIN/cpu.npy" -v
python3 - "$BIN" <<'PY'
import sys, numpy as np
g = np.load(sys.argv[1] + "/gpu.npy").astype(np.float64)
c = np.load(sys.argv[1] + "/cpu.npy").astype(np.float64)
rel = np.linalg.norm(g - c) / np.linalg.norm(c)
same = np.mean(g == c) * 100
print(f"tile-run gpu vs cpu: rel diff {rel:.2e}, {same:.2f}% identical "
      f"({'ok' if rel < 2e-3 and not np.isnan(g).any() else 'FAIL'})")
PY
echo "== tile-run bad launch"
"$BIN/tile-run" examples/vector_add.tile --arg x_ptr=ones:fp32:16 \
  --arg y_ptr=ones:fp32:16 --arg z_ptr=zeros:fp32:16 --arg n=16 --grid 0 \
  --device gpu || true

echo "== examples/host"
"$BIN/matmul_host" 4096 4096 4096 examples/matmul.tile
"$BIN/matmul_host" 1000 1000 1000 examples/matmul.tile

echo "== JIT timings"
TILE_JIT_LOG=1 "$BIN/jit_bench" examples/matmul.tile
TILE_JIT_LOG=1 TILE_CACHE_DIR=$(mktemp -d) "$BIN/tile-run" "${common[@]}" --device gpu -v
echo "== Triton timings"
python3 bench/jit_triton.py
