"""Tensor-descriptor matmul (Triton's tutorial 09 descriptor persistent
kernel) compiled by tilec, against the same source compiled by Triton 3.6
(TMA descriptors made on the device) and cuBLAS (torch.matmul(a, b.T)).

Runs on the device machine with the PTX bench/build_descriptor.sh built
(examples/matmul_descriptor.tile, every config). For each size: fresh
random fp16 inputs, every tilec config and both baselines checked against
float64 first, then the fastest tilec config and Triton's autotuned choice
timed in at least 5 interleaved rounds (CUDA graphs of 20 launches,
bench/tilelaunch.graph_ms); ratios are medians of per-round ratios.

With --baseline DIR2 (another build, e.g. --warp-specialize=false), its
fastest config is checked and timed in the same rounds too, and the
ratio of the two builds reported.

usage: python3 bench/descriptor_bench.py DIR [LOG] [--sizes 4096x4096x4096,...]
       [--baseline DIR2]
"""
import argparse
import json
import statistics

import torch
import triton
import triton.language as tl

from tilelaunch import Kernel, graph_ms, rel_error, logger

parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("log", nargs="?")
parser.add_argument("--sizes", default="4096x4096x4096,8192x8192x8192,"
                    "2048x3072x768,1000x1000x1000,4096x4096x4104")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--baseline")
args = parser.parse_args()
log = logger(args.log)
NUM_SMS = torch.cuda.get_device_properties("cuda").multi_processor_count



# --- Triton's tutorial 09 kernel, as published --------------------------
def triton_configs():
    return [triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": bn,
                           "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 8,
                           "EPILOGUE_SUBTILE": sub}, num_stages=s, num_warps=8)
            for bn in [128, 256] for bk in [64, 128] for s in [3, 4]
            for sub in [True, False]]


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M, NUM_SMS):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.autotune(configs=triton_configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel_descriptor_persistent(a_ptr, b_ptr, c_ptr, M, N, K,
                                        BLOCK_SIZE_M: tl.constexpr,
                                        BLOCK_SIZE_N: tl.constexpr,
                                        BLOCK_SIZE_K: tl.constexpr,
                                        GROUP_SIZE_M: tl.constexpr,
                                        EPILOGUE_SUBTILE: tl.constexpr,
                                        NUM_SMS: tl.constexpr):
    dtype = c_ptr.dtype.element_ty
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    c_desc = tl.make_tensor_descriptor(
        c_ptr, shape=[M, N], strides=[N, 1],
        block_shape=[BLOCK_SIZE_M,
                     BLOCK_SIZE_N if not EPILOGUE_SUBTILE else BLOCK_SIZE_N // 2])
    tile_id_c = start_pid - NUM_SMS
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m,
                                    GROUP_SIZE_M, NUM_SMS)
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            accumulator = tl.dot(a, b.T, accumulator)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m,
                                    GROUP_SIZE_M, NUM_SMS)
        offs_cm = pid_m * BLOCK_SIZE_M
        offs_cn = pid_n * BLOCK_SIZE_N
        if EPILOGUE_SUBTILE:
            acc = tl.reshape(accumulator, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2))
            acc = tl.permute(acc, (0, 2, 1))
            acc0, acc1 = tl.split(acc)
            c_desc.store([offs_cm, offs_cn], acc0.to(dtype))
            c_desc.store([offs_cm, offs_cn + BLOCK_SIZE_N // 2], acc1.to(dtype))
        else:
            c_desc.store([offs_cm, offs_cn], accumulator.to(dtype))


def triton_matmul(a, b, c):
    M, K = a.shape
    N = b.shape[0]
    grid = lambda META: (min(NUM_SMS, triton.cdiv(M, META["BLOCK_SIZE_M"]) *
                             triton.cdiv(N, META["BLOCK_SIZE_N"])),)
    matmul_kernel_descriptor_persistent[grid](a, b, c, M, N, K, NUM_SMS=NUM_SMS)


triton.set_allocator(lambda size, alignment, stream:
                     torch.empty(size, device="cuda", dtype=torch.int8))


def tflops(M, N, K, ms):
    return 2 * M * N * K / ms / 1e9


def load_build(directory, tag=""):
    md = json.load(open(f"{directory}/matmul_descriptor.json"))
    kernels = []
    for i in range(len(md)):
        k = Kernel(directory, "matmul_descriptor", i)
        c = k.md["constexprs"]
        k.label = (f"{tag}{c['BLOCK_SIZE_M']}x{c['BLOCK_SIZE_N']}x"
                   f"{c['BLOCK_SIZE_K']} w{k.md['num_warps']}"
                   f" s{k.md['num_stages']} sub={c['EPILOGUE_SUBTILE']}"
                   f" threads={k.md['threads_per_block']}")
        kernels.append(k)
    return kernels


def main():
    kernels = load_build(args.dir)
    baseline = load_build(args.baseline, "baseline ") if args.baseline else []
    summary = []
    for size in args.sizes.split(","):
        M, N, K = map(int, size.split("x"))
        torch.manual_seed(M + 3 * N + 7 * K)
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(N, K, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        ref = a.double() @ b.double().T
        ok = True
        for k in kernels + baseline:
            c.fill_(float("nan"))
            k(a, b, c, M, N, K)
            torch.cuda.synchronize()
            err = rel_error(c, ref)
            ok &= err <= 2e-3
            log(f"  check {size} tilec {k.label}: rel_err={err:.2e}")
        c_t = torch.full_like(c, float("nan"))
        triton_matmul(a, b, c_t)
        torch.cuda.synchronize()
        err_t = rel_error(c_t, ref)
        err_c = rel_error(a @ b.T, ref)
        log(f"  check {size} triton rel_err={err_t:.2e} cublas {err_c:.2e}")
        if not ok:
            log(f"FAIL {size}: a tilec config is wrong; not timed")
            summary.append((size, None))
            continue
        best = min(kernels, key=lambda k: graph_ms(k.bind(a, b, c, M, N, K)))
        fns = {"tilec": best.bind(a, b, c, M, N, K),
               "triton": lambda: triton_matmul(a, b, c_t),
               "cublas": lambda: torch.matmul(a, b.T, out=c)}
        if baseline:
            base = min(baseline,
                       key=lambda k: graph_ms(k.bind(a, b, c, M, N, K)))
            fns["baseline"] = base.bind(a, b, c, M, N, K)
        rounds = {name: [] for name in fns}
        for r in range(args.rounds):
            for name, fn in fns.items():
                rounds[name].append(graph_ms(fn))
        med = {n: statistics.median(t) for n, t in rounds.items()}
        vs_cublas = statistics.median(
            c / t for t, c in zip(rounds["tilec"], rounds["cublas"]))
        vs_triton = statistics.median(
            t2 / t for t, t2 in zip(rounds["tilec"], rounds["triton"]))
        log(f"{size}: tilec {tflops(M, N, K, med['tilec']):.0f} TFLOP/s "
            f"({best.label}), triton {tflops(M, N, K, med['triton']):.0f}, "
            f"cublas {tflops(M, N, K, med['cublas']):.0f}; tilec/cublas "
            f"{vs_cublas:.2f}x, tilec/triton {vs_triton:.2f}x")
        if baseline:
            vs_base = statistics.median(
                b2 / t for t, b2 in zip(rounds["tilec"], rounds["baseline"]))
            log(f"{size}: baseline {tflops(M, N, K, med['baseline']):.0f} "
                f"TFLOP/s ({base.label}); tilec/baseline {vs_base:.2f}x")
            summary.append((size, vs_cublas, vs_triton, vs_base))
        else:
            summary.append((size, vs_cublas, vs_triton))
    log("\nsize, tilec/cuBLAS, tilec/Triton[, tilec/baseline] (medians of "
        "per-round ratios)")
    for row in summary:
        log("  " + ", ".join(str(x) if not isinstance(x, float) else f"{x:.2f}"
                             for x in row))


main()
