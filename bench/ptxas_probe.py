"""Does the ptxas version explain a gap to Triton? (bench/NOTES.md,
layernorm 16384.) Times tilec's layernorm PTX assembled three ways -- the
cubin carried from the build machine (CUDA 13's ptxas), the same PTX
assembled on the device with the ptxas Triton bundles, and the driver's own
JIT of the PTX, and with `.maxnreg` at the most registers that keep the
first assembly's programs per SM -- interleaved with Triton's kernel of the same source,
medians of 5 rounds of graph-timed launches. Every variant is checked
against the carried cubin's output first.

usage: python3 bench/ptxas_probe.py KERNEL_DIR [N ...]
"""
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

kdir, sizes = sys.argv[1], [int(n) for n in sys.argv[2:]] or [4096, 16384]
sys.argv = [sys.argv[0], kdir, "--only", ""]
import kernels_bench as kb  # noqa: E402  (the Triton kernel and helpers)
import torch  # noqa: E402
import triton  # noqa: E402
from tilelaunch import Kernel, graph_ms  # noqa: E402

triton_ptxas = (glob.glob(os.path.join(os.path.dirname(triton.__file__),
                                       "backends/nvidia/bin/ptxas"))
                or [shutil.which("ptxas")])[0]
print("triton's ptxas:", triton_ptxas,
      subprocess.run([triton_ptxas, "--version"], capture_output=True,
                     text=True).stdout.strip().splitlines()[-1])


def variant(name, how):
    """A directory holding the kernel as `how` assembles it."""
    d = tempfile.mkdtemp()
    for ext in ("ptx", "json"):
        shutil.copy(f"{kdir}/{name}.{ext}", d)
    if how == "carried":
        shutil.copy(f"{kdir}/{name}.cubin", d)
    elif how == "occupancy-budget":
        # ptxas once for its register count R, then again with .maxnreg set
        # to the most registers that keep R's programs per SM.
        ptx = f"{d}/{name}.ptx"
        r = subprocess.run([triton_ptxas, "-arch=sm_90a", "-v", ptx, "-o",
                            f"{d}/{name}.cubin"], capture_output=True,
                           text=True, check=True)
        regs = int(re.search(r"Used (\d+) registers", r.stderr).group(1))
        threads = json.load(open(f"{d}/{name}.json"))["threads_per_block"]
        per_thread = -(-regs // 8) * 8
        programs = min(65536 // (per_thread * threads), 2048 // threads)
        budget = min(255, 65536 // (programs * threads) // 8 * 8)
        text = open(ptx).read()
        text = re.sub(r"(\.maxntid [^\n]*\n)", f"\\1.maxnreg {budget}\n",
                      text, count=1)
        open(ptx, "w").write(text)
        r = subprocess.run([triton_ptxas, "-arch=sm_90a", "-v", ptx, "-o",
                            f"{d}/{name}.cubin"], capture_output=True,
                           text=True, check=True)
        print(f"  occupancy-budget: {regs} -> .maxnreg {budget}:",
              [l for l in r.stderr.splitlines() if "registers" in l])
    elif how == "triton-ptxas":
        r = subprocess.run([triton_ptxas, "-arch=sm_90a", "-v",
                            f"{d}/{name}.ptx", "-o", f"{d}/{name}.cubin"],
                           capture_output=True, text=True, check=True)
        print("  triton-ptxas:", [l for l in r.stderr.splitlines()
                                  if "registers" in l])
    return d


M = 4096
for N in sizes:
    block = min(65536 // 2, triton.next_power_of_2(N))
    warps = min(max(block // 256, 1), 8)
    name = f"layernorm_{block}"
    x = torch.randn(M, N, device="cuda", dtype=torch.float16)
    w = torch.rand(N, device="cuda", dtype=torch.float16) + 0.5
    b = torch.randn(N, device="cuda", dtype=torch.float16)
    runs, outs = {}, {}
    for how in ["carried", "occupancy-budget"]:
        k = Kernel(variant(name, how), name)
        y = torch.full_like(x, float("nan"))
        mean = torch.empty(M, device="cuda")
        rstd = torch.empty(M, device="cuda")
        runs[how] = k.bind(x, y, w, b, mean, rstd, x.stride(0), M, N, 1e-5)
        runs[how]()
        outs[how] = y
    yt = torch.empty_like(x)
    mt = torch.empty(M, device="cuda")
    rt = torch.empty(M, device="cuda")

    def run_triton():
        kb.layer_norm_fwd[(M,)](x, yt, w, b, mt, rt, x.stride(0), N, 1e-5,
                                BLOCK_SIZE=block, num_warps=warps)
    runs["triton"] = run_triton
    run_triton()
    torch.cuda.synchronize()
    for how, y in outs.items():
        assert torch.equal(y, outs["carried"]), how
    assert (yt.float() - outs["carried"].float()).abs().max() < 1e-2
    times = {n: [] for n in runs}
    for _ in range(5):
        for n, fn in runs.items():
            times[n].append(graph_ms(fn, reps=10))
    print(f"layernorm {M}x{N}")
    for n, t in times.items():
        tbs = 2 * M * N * 2 / (statistics.median(t) * 1e-3) / 1e12
        vs = statistics.median(a / b for a, b in zip(times["triton"], t))
        print(f"  {n:16s} {tbs:5.2f} TB/s  {vs:5.2f}x triton")
