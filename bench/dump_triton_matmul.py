"""Triton's tutorial matmul kernel (bench/triton_matmul.py) compiled at one
config for one problem, its TTGIR, PTX and SASS-relevant counts dumped to
OUT: what Triton does with a shape (K = 4097: rows of A 2-byte aligned).

usage: python3 bench/dump_triton_matmul.py OUT MxNxK BM BN BK warps stages
"""
import sys

import torch
import triton

from triton_matmul import matmul_args, matmul_kernel

out, size = sys.argv[1], sys.argv[2]
bm, bn, bk, warps, stages = (int(x) for x in sys.argv[3:8])
M, N, K = (int(x) for x in size.split("x"))
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
c = torch.empty(M, N, device="cuda", dtype=torch.float16)
grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
k = matmul_kernel[grid](*matmul_args(a, b, c), BLOCK_SIZE_M=bm,
                        BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8,
                        num_warps=warps, num_stages=stages)
torch.cuda.synchronize()
err = ((c.double() - a.double() @ b.double()).abs().max()
       / (a.double() @ b.double()).abs().max()).item()
print(f"rel err {err:.2e}")
for kind in ("ttgir", "ptx"):
    with open(f"{out}/triton_matmul.{kind}", "w") as f:
        f.write(k.asm[kind])
with open(f"{out}/triton_matmul.cubin", "wb") as f:
    f.write(k.asm["cubin"])
ms = triton.testing.do_bench(
    lambda: matmul_kernel[grid](*matmul_args(a, b, c), BLOCK_SIZE_M=bm,
                                BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                GROUP_SIZE_M=8, num_warps=warps,
                                num_stages=stages))
print(f"{size} {bm}x{bn}x{bk} w{warps} s{stages}: {ms:.3f} ms, "
      f"{2 * M * N * K / ms / 1e9:.1f} TFLOP/s")
