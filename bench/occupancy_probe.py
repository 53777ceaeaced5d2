"""Is a memory-bound kernel's speed set by its occupancy? (bench/NOTES.md,
layernorm after tilegpu-interleave-general-path.) Times tilec's layernorm
as written at its natural occupancy and with dynamic shared memory padded
so that at most C programs fit on an SM, interleaved with Triton's kernel
of the same source (whose register count it prints), medians of 5 rounds
of graph-timed launches. Correctness is kernels_bench.py's job; this only
checks the padded launches still match the natural one.

usage: python3 bench/occupancy_probe.py KERNEL_DIR [N ...]
"""
import statistics
import sys

kdir, sizes = sys.argv[1], [int(n) for n in sys.argv[2:]] or [4096, 16384]
sys.argv = [sys.argv[0], kdir, "--only", ""]
import kernels_bench as kb  # noqa: E402  (the Triton kernel and helpers)
import torch  # noqa: E402
import triton  # noqa: E402
from tilelaunch import Kernel, graph_ms  # noqa: E402

SMEM_PER_SM = 228 * 1024
RESERVED_PER_CTA = 1024
M = 4096
for N in sizes:
    block = min(65536 // 2, triton.next_power_of_2(N))
    warps = min(max(block // 256, 1), 8)
    x = torch.randn(M, N, device="cuda", dtype=torch.float16)
    w = torch.rand(N, device="cuda", dtype=torch.float16) + 0.5
    b = torch.randn(N, device="cuda", dtype=torch.float16)
    runs, outs = {}, {}
    for cap in [None, 8, 4, 3, 2]:
        k = Kernel(kdir, f"layernorm_{block}")
        if cap:
            pad = SMEM_PER_SM // cap - RESERVED_PER_CTA - 64
            k.md["shared_bytes"] = max(k.md["shared_bytes"], pad)
            k.fn.max_dynamic_shared_size_bytes = k.md["shared_bytes"]
        y = torch.full_like(x, float("nan"))
        mean = torch.empty(M, device="cuda")
        rstd = torch.empty(M, device="cuda")
        name = f"tilec cap {cap}" if cap else "tilec"
        runs[name] = k.bind(x, y, w, b, mean, rstd, x.stride(0), M, N, 1e-5)
        outs[name] = y
    yt = torch.empty_like(x)
    mt = torch.empty(M, device="cuda")
    rt = torch.empty(M, device="cuda")
    compiled = kb.layer_norm_fwd[(M,)](x, yt, w, b, mt, rt, x.stride(0), N,
                                       1e-5, BLOCK_SIZE=block, num_warps=warps)
    runs["triton"] = lambda: kb.layer_norm_fwd[(M,)](
        x, yt, w, b, mt, rt, x.stride(0), N, 1e-5, BLOCK_SIZE=block,
        num_warps=warps)
    for fn in runs.values():
        fn()
    torch.cuda.synchronize()
    for name, y in outs.items():
        assert torch.equal(y, outs["tilec"]), name
    times = {name: [] for name in runs}
    for _ in range(5):
        for name, fn in runs.items():
            times[name].append(graph_ms(fn, reps=10))
    print(f"layernorm {M}x{N}: triton {compiled.n_regs} registers, "
          f"{compiled.metadata.shared} B shared")
    for name, t in times.items():
        tbs = 2 * M * N * 2 / (statistics.median(t) * 1e-3) / 1e12
        vs = statistics.median(a / b for a, b in zip(times["triton"], t))
        print(f"  {name:16s} {tbs:5.2f} TB/s  {vs:5.2f}x triton")
    if len(sys.argv) > 0 and __import__("os").environ.get("DUMP_TRITON"):
        out = __import__("os").environ["DUMP_TRITON"]
        open(f"{out}/triton_layernorm_{N}.ptx", "w").write(compiled.asm["ptx"])
        open(f"{out}/triton_layernorm_{N}.sass", "w").write(compiled.asm.get("sass", ""))
