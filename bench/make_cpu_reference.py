"""Run kernels on the CPU interpreter and save inputs and outputs, so that
bench/gpu_cpu_compare.py can run the same PTX on the same inputs on the GPU
and compare. Runs on the development machine (needs build/bin/tile-run and
NumPy); writes .carry/cpu_vs_gpu/ (manifest.json + .npy files).

usage: python3 bench/make_cpu_reference.py
"""
import json
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".carry", "cpu_vs_gpu")
TILE_RUN = os.path.join(ROOT, "build", "bin", "tile-run")
TILEC = os.path.join(ROOT, "build", "bin", "tilec")
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(7)
cases = []


def case(name, tile, defines, args, outputs, dot=None):
    """Compile `tile` to PTX, run it on the CPU, record the case. `dot`
    names the (a, b) inputs of an output that is a matrix product, which
    the comparison judges against an accumulation-error bound."""
    ptx = os.path.join(OUT, name + ".ptx")
    cmd = [TILEC, tile, "-o", ptx]
    for d in defines:
        cmd += ["-D", d]
    subprocess.run(cmd, check=True)
    run = [TILE_RUN, tile]
    for d in defines:
        run += ["-D", d]
    entry = {"name": name, "ptx": name + ".ptx", "json": name + ".json",
             "args": [], "outputs": outputs}
    if dot:
        entry["dot"] = dot
    for pname, value in args:
        if isinstance(value, np.ndarray):
            path = f"{name}.{pname}.in.npy"
            np.save(os.path.join(OUT, path), value)
            run += ["--arg", f"{pname}=file:{os.path.join(OUT, path)}"]
            entry["args"].append({"name": pname, "npy": path})
            if pname in outputs:
                cpu = f"{name}.{pname}.cpu.npy"
                run += ["--dump", f"{pname}={os.path.join(OUT, cpu)}"]
        else:
            run += ["--arg", f"{pname}={value}"]
            entry["args"].append({"name": pname, "value": value})
    subprocess.run(run, check=True)
    cases.append(entry)


ex = os.path.join(ROOT, "examples")
n = 100003
case("vector_add", f"{ex}/vector_add.tile", [],
     [("x_ptr", rng.standard_normal(n).astype(np.float32)),
      ("y_ptr", rng.standard_normal(n).astype(np.float32)),
      ("z_ptr", np.full(n, np.nan, np.float32)), ("n", n)], ["z_ptr"])
for (M, N, K) in [(256, 256, 256), (200, 136, 72)]:
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = np.full((M, N), np.nan, np.float16)
    case(f"matmul_{M}x{N}x{K}", f"{ex}/matmul.tile",
         ["BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=32"],
         [("a_ptr", a), ("b_ptr", b), ("c_ptr", c), ("M", M), ("N", N),
          ("K", K), ("stride_am", K), ("stride_ak", 1), ("stride_bk", N),
          ("stride_bn", 1), ("stride_cm", N), ("stride_cn", 1)], ["c_ptr"],
         dot={"a": "a_ptr", "b": "b_ptr"})
rows, cols = 37, 781
x = (rng.standard_normal((rows, cols)) * 3).astype(np.float32)
case("softmax", f"{ex}/softmax.tile", [],
     [("out_ptr", np.full((rows, cols), np.nan, np.float32)), ("in_ptr", x),
      ("in_row_stride", cols), ("out_row_stride", cols), ("n_rows", rows),
      ("n_cols", cols)], ["out_ptr"])
M, N = 5, 1151
case("layernorm", f"{ex}/layernorm.tile", [],
     [("x_ptr", rng.standard_normal((M, N)).astype(np.float16)),
      ("y_ptr", np.full((M, N), np.nan, np.float16)),
      ("w_ptr", (rng.random(N) + 0.5).astype(np.float16)),
      ("b_ptr", rng.standard_normal(N).astype(np.float16)),
      ("mean_ptr", np.full(M, np.nan, np.float32)),
      ("rstd_ptr", np.full(M, np.nan, np.float32)),
      ("stride", N), ("M", M), ("N", N), ("eps", 1e-5)],
     ["y_ptr", "mean_ptr", "rstd_ptr"])
json.dump(cases, open(os.path.join(OUT, "manifest.json"), "w"), indent=1)
print(f"{len(cases)} cases in {OUT}")
