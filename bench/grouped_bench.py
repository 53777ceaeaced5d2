"""Tutorial 08's grouped GEMM with tensor descriptors
(examples/grouped_matmul_tma.tile) compiled by tilec, against the same
source under Triton 3.6 (TMA) and torch.matmul per GEMM (cuBLAS): groups
of 4 GEMMs, the tutorial's square sizes and 8192-wide ones, fp16. Every
tilec config checked against float64 first; the fastest config, Triton
(autotuned over the same configs) and cuBLAS timed in 5 interleaved rounds
(CUDA graphs), medians of per-round ratios.

With --baseline DIR2 (another build of the example), its fastest config
is checked and timed in the same rounds, and the ratio of the builds
reported.

usage: bash bench/build_correctness.sh (here; it compiles the example), then
       python3 bench/grouped_bench.py .carry/correctness [LOG] [--baseline DIR2]
"""
import argparse
import statistics

import torch
import triton
import triton.language as tl

from tilelaunch import Kernel, graph_ms, rel_error, logger

NUM_SM = torch.cuda.get_device_properties("cuda").multi_processor_count



CONFIGS = [
    triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64},
                  num_stages=3, num_warps=8),
    triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64},
                  num_stages=4, num_warps=4),
]


@triton.autotune(configs=CONFIGS, key=['group_size'])
@triton.jit
def grouped_matmul_tma_kernel(
    # device tensor of matrices pointers
    group_a_ptrs,
    group_b_ptrs,
    group_c_ptrs,
    # device tensor of gemm sizes. its shape is [group_size, 3]
    # dim 0 is group_size, dim 1 is the values of <M, N, K> of each gemm
    group_gemm_sizes,
    # device tensor of leading dimension sizes. its shape is [group_size, 3]
    # dim 0 is group_size, dim 1 is the values of <lda, ldb, ldc> of each gemm
    g_lds,
    # number of gemms
    group_size,
    # number of virtual SM
    NUM_SM: tl.constexpr,
    # tile sizes
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    # is the output FP8 or FP16
    FP8: tl.constexpr,
):
    dtype = tl.float8e4nv if FP8 else tl.float16
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        # get the gemm size of the current problem
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_SIZE_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_SIZE_N)
        num_tiles = num_m_tiles * num_n_tiles
        if tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            # pick up a tile from the current gemm problem
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)

            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(dtype))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(dtype))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(dtype))

            a_desc = tl.make_tensor_descriptor(
                a_ptr,
                shape=[gm, gk],
                strides=[lda, 1],
                block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K],
            )

            b_desc = tl.make_tensor_descriptor(
                b_ptr,
                shape=[gn, gk],
                strides=[ldb, 1],
                block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K],
            )
            c_desc = tl.make_tensor_descriptor(
                c_ptr,
                shape=[gm, gn],
                strides=[ldc, 1],
                block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N],
            )

            # iterate through the tiles in the current gemm problem
            while (tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles):
                k = gk
                # figure out tile coordinates
                tile_idx_in_gemm = tile_idx - last_problem_end
                tile_m_idx = tile_idx_in_gemm // num_n_tiles
                tile_n_idx = tile_idx_in_gemm % num_n_tiles

                # do regular gemm here
                offs_am = tile_m_idx * BLOCK_SIZE_M
                offs_bn = tile_n_idx * BLOCK_SIZE_N

                accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K)):
                    a = a_desc.load([offs_am, kk * BLOCK_SIZE_K])
                    b = b_desc.load([offs_bn, kk * BLOCK_SIZE_K])
                    accumulator += tl.dot(a, b.T)

                offs_cm = tile_m_idx * BLOCK_SIZE_M
                offs_cn = tile_n_idx * BLOCK_SIZE_N

                c = accumulator.to(dtype)
                c_desc.store([offs_cm, offs_cn], c)

                # go to the next tile by advancing NUM_SM
                tile_idx += NUM_SM

        # get ready to go to the next gemm problem
        last_problem_end = last_problem_end + num_tiles


triton.set_allocator(lambda size, alignment, stream:
                     torch.empty(size, device="cuda", dtype=torch.int8))


def checked_builds(directories, args, A, B, C, label, log):
    """The fastest config of each build, every config checked first."""
    best = []
    for d in directories:
        kernels = [Kernel(d, "grouped_matmul_tma", i) for i in range(2)]
        for i, kern in enumerate(kernels):
            for c in C:
                c.fill_(float("nan"))
            kern(*args)
            torch.cuda.synchronize()
            err = max(rel_error(c, a.double() @ b.double().T)
                      for a, b, c in zip(A, B, C))
            log(f"  check {label} {d} cfg{i}: rel_err={err:.2e}")
            assert err <= 2e-3, "wrong result"
        times = [graph_ms(kern.bind(*args)) for kern in kernels]
        log(f"  tune {label} {d}: " + ", ".join(
            f"cfg{i} {t * 1e3:.1f} us" for i, t in enumerate(times)))
        best.append(kernels[times.index(min(times))])
    return best


def main():
    rows = []
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("log", nargs="?")
    parser.add_argument("--baseline")
    cli = parser.parse_args()
    log = logger(cli.log)
    directories = [cli.dir] + ([cli.baseline] if cli.baseline else [])
    for label, shapes in [("4 x 1024^3", [(1024, 1024, 1024)] * 4),
                          ("4 x 2048^3", [(2048, 2048, 2048)] * 4),
                          ("4 x 1024x8192x8192", [(1024, 8192, 8192)] * 4),
                          ("mixed", [(1000, 520, 104), (256, 1024, 4104),
                                     (2048, 2048, 2048), (77, 136, 64)])]:
        torch.manual_seed(len(rows))
        A = [torch.randn(m, k, device="cuda", dtype=torch.float16) for m, n, k in shapes]
        B = [torch.randn(n, k, device="cuda", dtype=torch.float16) for m, n, k in shapes]
        C = [torch.empty(m, n, device="cuda", dtype=torch.float16) for m, n, k in shapes]
        sizes = torch.tensor(shapes, device="cuda", dtype=torch.int32)
        lds = torch.tensor([[k, k, n] for m, n, k in shapes], device="cuda",
                           dtype=torch.int32)
        ptrs = [torch.tensor([t.data_ptr() for t in ts], device="cuda")
                for ts in (A, B, C)]
        args = (*ptrs, sizes, lds, len(shapes))
        best = checked_builds(directories, args, A, B, C, label, log)
        flops = sum(2 * m * n * k for m, n, k in shapes)
        fns = {"tilec": best[0].bind(*args),
               "triton": lambda: grouped_matmul_tma_kernel[(NUM_SM,)](
                   *args, NUM_SM=NUM_SM, FP8=False),
               "cublas": lambda: [torch.matmul(a, b.T, out=c)
                                  for a, b, c in zip(A, B, C)]}
        if cli.baseline:
            fns["baseline"] = best[1].bind(*args)
        fns["triton"]()
        torch.cuda.synchronize()
        times = {n: [] for n in fns}
        for _ in range(5):
            for n, fn in fns.items():
                times[n].append(graph_ms(fn))
        med = {n: statistics.median(t) for n, t in times.items()}
        vs_c = statistics.median(c / t for t, c in zip(times["tilec"], times["cublas"]))
        vs_t = statistics.median(c / t for t, c in zip(times["tilec"], times["triton"]))
        log(f"{label}: tilec {flops / med['tilec'] / 1e9:.0f} TFLOP/s, triton "
            f"{flops / med['triton'] / 1e9:.0f}, cublas {flops / med['cublas'] / 1e9:.0f}; "
            f"{vs_c:.2f}x cuBLAS, {vs_t:.2f}x Triton")
        if cli.baseline:
            vs_b = statistics.median(
                b / t for t, b in zip(times["tilec"], times["baseline"]))
            log(f"{label}: {vs_b:.3f}x the baseline build "
                f"({flops / med['baseline'] / 1e9:.0f} TFLOP/s)")


if __name__ == "__main__":
    main()
