"""Tutorial 08's pointer grouped GEMM (grouped_matmul_kernel, as published:
addresses and leading dimensions loaded from device arrays, whole tiles)
compiled by tilec (bench/kernels/grouped_matmul_tutorial08.tile, every
config), against the same source under Triton 3.6 (autotuned over the same
configs) and torch.matmul per GEMM (cuBLAS), fp16, C = A @ B with B given
K x N. With --variant LABEL=DIR:NAME (repeatable), also other builds or
kernels of the same signature (another compiler's build; the kernel
without its hints, grouped_matmul_tutorial08_nohints). Every tilec config
is checked against float64 first; then the fastest config of each build,
Triton and cuBLAS are timed in 5 interleaved rounds (CUDA graphs), ratios
are medians of per-round ratios.

usage: python3 bench/grouped_pointer_bench.py DIR [LOG] [--variant L=D:N]
       (DIR holds grouped_matmul_tutorial08.{ptx,json}, e.g. from
       bench/build_correctness.sh)
"""
import argparse
import statistics

import torch
import triton
import triton.language as tl

from tilelaunch import Kernel, graph_ms, logger, rel_error

NUM_SM = torch.cuda.get_device_properties("cuda").multi_processor_count
NAME = "grouped_matmul_tutorial08"


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128,
                       'BLOCK_SIZE_K': 32, 'NUM_SM': 84}),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128,
                       'BLOCK_SIZE_K': 32, 'NUM_SM': 128}),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64,
                       'BLOCK_SIZE_K': 32, 'NUM_SM': 84}),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64,
                       'BLOCK_SIZE_K': 32, 'NUM_SM': 128}),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128,
                       'BLOCK_SIZE_K': 64, 'NUM_SM': NUM_SM}),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128,
                       'BLOCK_SIZE_K': 64, 'NUM_SM': NUM_SM}),
    ],
    key=['group_size'],
)
@triton.jit
def grouped_matmul_kernel(
    group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds,
    group_size, NUM_SM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
):
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_SIZE_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_SIZE_N)
        num_tiles = num_m_tiles * num_n_tiles
        while (tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles):
            k = gk
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            tile_idx_in_gemm = tile_idx - last_problem_end
            tile_m_idx = tile_idx_in_gemm // num_n_tiles
            tile_n_idx = tile_idx_in_gemm % num_n_tiles
            offs_am = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_bn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            offs_k = tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + offs_am[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_bn[None, :]
            accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K)):
                tl.multiple_of(a_ptrs, [16, 16])
                tl.multiple_of(b_ptrs, [16, 16])
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                accumulator += tl.dot(a, b)
                a_ptrs += BLOCK_SIZE_K
                b_ptrs += BLOCK_SIZE_K * ldb
            c = accumulator.to(tl.float16)
            offs_cm = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_cn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            c_ptrs = c_ptr + ldc * offs_cm[:, None] + offs_cn[None, :]
            tl.store(c_ptrs, c)
            tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("log", nargs="?")
    parser.add_argument("--variant", action="append", default=[])
    args = parser.parse_args()
    log = logger(args.log)
    builds = {"tilec": (args.dir, NAME)}
    for spec in args.variant:
        label, rest = spec.split("=", 1)
        directory, name = rest.rsplit(":", 1)
        builds[label] = (directory, name)
    # Whole tiles of every config (the kernel has no masks).
    groups = [("4 x 1024^3", [(1024, 1024, 1024)] * 4),
              ("4 x 2048^3", [(2048, 2048, 2048)] * 4),
              ("4 x 1024x4096x4096", [(1024, 4096, 4096)] * 4),
              ("mixed", [(1024, 512, 128), (256, 1024, 4096),
                         (2048, 2048, 2048), (128, 128, 64)])]
    for label, shapes in groups:
        torch.manual_seed(len(label))
        A = [torch.randn(m, k, device="cuda", dtype=torch.float16)
             for m, n, k in shapes]
        B = [torch.randn(k, n, device="cuda", dtype=torch.float16)
             for m, n, k in shapes]
        C = [torch.empty(m, n, device="cuda", dtype=torch.float16)
             for m, n, k in shapes]
        refs = [a.double() @ b.double() for a, b in zip(A, B)]
        sizes = torch.tensor(shapes, device="cuda", dtype=torch.int32)
        lds = torch.tensor([[k, n, n] for m, n, k in shapes], device="cuda",
                           dtype=torch.int32)
        ptrs = [torch.tensor([t.data_ptr() for t in ts], device="cuda")
                for ts in (A, B, C)]
        call = (*ptrs, sizes, lds, len(shapes))
        fns = {}
        for build, (directory, name) in builds.items():
            kernels = [Kernel(directory, name, i) for i in range(6)]
            for i, kern in enumerate(kernels):
                for c in C:
                    c.fill_(float("nan"))
                kern(*call)
                torch.cuda.synchronize()
                err = max(rel_error(c, r) for c, r in zip(C, refs))
                log(f"  check {label} {build} cfg{i}: rel_err={err:.2e}")
                assert err <= 2e-3, "wrong result"
            fns[build] = min((k.bind(*call) for k in kernels), key=graph_ms)
        for c in C:
            c.fill_(float("nan"))
        grouped_matmul_kernel[lambda meta: (meta["NUM_SM"],)](*call)
        torch.cuda.synchronize()
        err = max(rel_error(c, r) for c, r in zip(C, refs))
        log(f"  check {label} triton: rel_err={err:.2e}")
        fns["triton"] = lambda: grouped_matmul_kernel[
            lambda meta: (meta["NUM_SM"],)](*call)
        fns["cublas"] = lambda: [torch.matmul(a, b, out=c)
                                 for a, b, c in zip(A, B, C)]
        times = {n: [] for n in fns}
        for _ in range(5):
            for n, fn in fns.items():
                times[n].append(graph_ms(fn))
        flops = sum(2 * m * n * k for m, n, k in shapes)
        line = f"{label}:"
        for n, t in times.items():
            line += f" {n} {flops / statistics.median(t) / 1e9:.0f}"
        line += " TFLOP/s;"
        for other in [n for n in fns if n != "tilec"]:
            ratio = statistics.median(
                o / t for t, o in zip(times["tilec"], times[other]))
            line += f" {ratio:.2f}x {other}"
        log(line)


if __name__ == "__main__":
    main()
