"""Triton tutorial 02's persistent softmax, as the tutorial launches it,
against torch.softmax and the same source under Triton 3.6 (issue 11's
softmax, in the form the tutorial has had since Triton 3.0).

Each program walks rows program_id, program_id + num_programs, ...; the
host sizes the grid as the tutorial does: NUM_SM times the programs per SM
that the kernel's registers and shared memory allow. fp32, M=4096 rows,
N in {256, 1024, 4096, 16384}; every variant checked against float64
first; times are medians of CUDA-graph replays (no host launch cost),
ratios medians of 5 interleaved rounds.

usage: python3 bench/softmax_persistent_bench.py DIR [LOG] [--baseline OLD]
       (DIR from bench/build_softmax_persistent.sh; OLD the same from
       another build, timed in the same rounds)
"""
import argparse
import statistics

import torch
import triton
import triton.language as tl
from triton.runtime import driver

from tilelaunch import Kernel, graph_ms, logger, rel_error


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


parser = argparse.ArgumentParser()
parser.add_argument("dir")
parser.add_argument("log", nargs="?")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--baseline", default="")
args = parser.parse_args()
log = logger(args.log)

props = driver.active.utils.get_device_properties(torch.cuda.current_device())
NUM_SM, NUM_REGS = props["multiprocessor_count"], props["max_num_regs"]
SIZE_SMEM, WARP_SIZE = props["max_shared_mem"], props["warpSize"]
num_warps, num_stages = 8, 4 if SIZE_SMEM > 200000 else 2


def programs(n_regs, shared, n_rows):
    """The tutorial's grid: programs per SM by registers and shared memory."""
    occupancy = NUM_REGS // (n_regs * WARP_SIZE * num_warps)
    if shared:
        occupancy = min(occupancy, SIZE_SMEM // shared)
    return min(NUM_SM * max(occupancy, 1), n_rows)


M = 4096
for N in [256, 1024, 4096, 16384]:
    x = torch.randn(M, N, device="cuda")
    ref = torch.softmax(x.double(), dim=1)
    runs = {"torch": lambda: torch.softmax(x, dim=1)}
    BLOCK = triton.next_power_of_2(N)
    y_tr = torch.full_like(x, float("nan"))
    kern = softmax_kernel.warmup(y_tr, x, x.stride(0), y_tr.stride(0), M, N,
                                 BLOCK_SIZE=BLOCK, num_stages=num_stages,
                                 num_warps=num_warps, grid=(1,))
    kern._init_handles()
    grid_tr = programs(kern.n_regs, kern.metadata.shared, M)
    runs["triton"] = lambda: kern[(grid_tr, 1, 1)](
        y_tr, x, x.stride(0), y_tr.stride(0), M, N, BLOCK, num_stages)
    outs = {"triton": y_tr}
    grids = {"triton": grid_tr}
    builds = [("tilec", args.dir)] + (
        [("old", args.baseline)] if args.baseline else [])
    for (tag, folder), variant in ((b, v) for b in builds
                                   for v in ["written", "jit"]):
        k = Kernel(folder, f"softmax_{variant}_{N}")
        y = torch.full_like(x, float("nan"))
        g = programs(k.fn.num_regs, k.md["shared_bytes"], M)
        runs[f"{tag} {variant}"] = k.bind(y, x, x.stride(0), y.stride(0), M, N,
                                          grid=(g, 1, 1))
        outs[f"{tag} {variant}"] = y
        grids[f"{tag} {variant}"] = g
    for name, run in runs.items():
        out = run()
        torch.cuda.synchronize()
        err = rel_error(out if name == "torch" else outs[name], ref)
        assert err < 1e-5, (N, name, err)
    times = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            times[name].append(graph_ms(run))
    gbytes = 2 * M * N * 4 / 1e9
    line = f"softmax persistent 4096x{N}:"
    for name, t in times.items():
        line += f" {name} {gbytes / statistics.median(t):.2f} TB/s"
        if name in grids:
            line += f" ({grids[name]} programs)"
        line += ";"
    for name in ["tilec written", "tilec jit"]:
        bases = ["torch", "triton"] + (
            ["old " + name.split()[1]] if args.baseline else [])
        for base in bases:
            r = statistics.median(b / a for a, b in zip(times[name], times[base]))
            line += f" {name}/{base} {r:.2f}x"
    log(line)
