#!/usr/bin/env bash
# On the device machine, after `ONLY=matmul_host bash bench/build_jit.sh`
# here (.carry/jit carried): the JIT's host example
# (examples/host/matmul_host.cpp: examples/matmul.tile compiled, autotuned
# and launched through the JIT, checked against cuBLAS, then both timed
# with CUDA events) run ROUNDS times per size, the sizes interleaved; the
# ratio per size is the median of the per-process ratios cuBLAS/tilec.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(mktemp -d)
xz -d -c .carry/jit/matmul_host.xz > "$BIN/matmul_host"
chmod +x "$BIN/matmul_host"
# One cache for all rounds: the first process compiles and tunes.
export TILE_CACHE_DIR=$(mktemp -d)
for d in /usr/local/cuda/lib64 $(python3 -c 'import nvidia, os; print(" ".join(os.path.join(p, s, "lib") for p in nvidia.__path__ for s in ("cublas", "cuda_runtime", "cu13")))' 2>/dev/null); do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done
LOG=${OUT:-/tmp}/jit_host.log
: > "$LOG"
for round in $(seq "${ROUNDS:-7}"); do
  for size in ${SIZES:-4096 8192 1000}; do
    "$BIN/matmul_host" "$size" "$size" "$size" examples/matmul.tile | tee -a "$LOG"
  done
done
python3 - "$LOG" <<'PY'
import re, statistics, sys
runs = {}
size = None
for line in open(sys.argv[1]):
    if m := re.match(r"matmul (\d+)x\d+x\d+ fp16: .* \((\w+)\)", line):
        size, ok = m.group(1), m.group(2)
        if ok != "ok":
            print(f"{size}: WRONG result")
        runs.setdefault(size, []).append({})
    elif m := re.search(r"tilec JIT: ([\d.]+) ms, ([\d.]+) TFLOP/s", line):
        runs[size][-1]["tilec"] = (float(m.group(1)), float(m.group(2)))
    elif m := re.search(r"cuBLAS: +([\d.]+) ms, ([\d.]+) TFLOP/s", line):
        runs[size][-1]["cublas"] = (float(m.group(1)), float(m.group(2)))
for size, rs in runs.items():
    ratio = statistics.median(r["cublas"][0] / r["tilec"][0] for r in rs)
    t = statistics.median(r["tilec"][1] for r in rs)
    c = statistics.median(r["cublas"][1] for r in rs)
    print(f"{size}^3: tilec JIT {t:.0f} TFLOP/s, cuBLAS {c:.0f}; "
          f"tilec/cuBLAS {ratio:.3f}x (median of {len(rs)} processes)")
PY
