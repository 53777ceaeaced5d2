import re
import sys
from harness import *

examples = sys.argv[1]
tmpdir = sys.argv[2]
r = rng(2)
SMALL = ["-D", "BLOCK_M=32", "-D", "BLOCK_N=32", "-D", "BLOCK_K=16"]


def tf32(x):
    """x rounded to tf32 as cvt.rna.tf32.f32 does (nearest, ties away)."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    return ((bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)


def case(tile, name, M, N, K, dtype=np.float16, lda_pad=0, b_transposed=False,
         activation=None, tol=2e-3, defines=(), operands=lambda x: x):
    a_full = r.standard_normal((M, K + lda_pad)).astype(dtype)
    a = a_full[:, :K]
    if b_transposed:
        b_storage = r.standard_normal((N, K)).astype(dtype)  # b = storage.T
        b = b_storage.T
        stride_bk, stride_bn = 1, K
    else:
        b_storage = r.standard_normal((K, N)).astype(dtype)
        b = b_storage
        stride_bk, stride_bn = N, 1
    c = np.full((M, N), np.nan, dtype=dtype)
    args = {"a_ptr": a_full, "b_ptr": b_storage, "c_ptr": c, "M": M, "N": N,
            "K": K, "stride_am": K + lda_pad, "stride_ak": 1,
            "stride_bk": stride_bk, "stride_bn": stride_bn, "stride_cm": N,
            "stride_cn": 1}
    d = list(defines)
    if activation:
        d.append(f"ACTIVATION={activation}")
    out = run(tile, args, defines=d)["c_ptr"]
    ref = operands(a).astype(np.float64) @ operands(b).astype(np.float64)
    if activation == "leaky_relu":
        ref = np.where(ref >= 0, ref, 0.01 * ref)
    check(f"{name} {M}x{N}x{K}", out, ref, tol)


tile = f"{examples}/matmul.tile"
blocks = ["BLOCK_M=32", "BLOCK_N=32", "BLOCK_K=16"]
for (M, N, K) in [(1, 1, 1), (37, 19, 70), (64, 64, 64), (100, 70, 33)]:
    case(tile, "matmul fp16", M, N, K, defines=blocks)
case(tile, "matmul fp16 lda=K+5", 45, 40, 50, lda_pad=5, defines=blocks)
case(tile, "matmul fp16 B transposed", 40, 56, 24, b_transposed=True,
     defines=blocks)
case(tile, "matmul fp16 leaky_relu", 50, 60, 40, activation="leaky_relu",
     defines=blocks)
case(tile, "matmul fp16 first autotune config", 130, 260, 70)

# Tutorial 03 as published (bench/kernels/matmul_tutorial03.tile): its own
# config function, tl.assume, the leaky_relu epilogue.
t03 = f"{examples}/../bench/kernels/matmul_tutorial03.tile"
t03_blocks = ["BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=16",
              "GROUP_SIZE_M=8"]
case(t03, "tutorial 03", 37, 19, 70, defines=t03_blocks)
case(t03, "tutorial 03 leaky_relu", 50, 60, 40, activation="leaky_relu",
     defines=t03_blocks)
case(t03, "tutorial 03 first config", 130, 260, 70)

# The same kernel with fp32 pointers (fp32 accumulation, fp32 output). The
# default precision rounds the operands to tf32 first, so the reference does
# too (and fails at this tolerance if the interpreter does not); "ieee"
# keeps full fp32 operands.
source = open(tile).read().replace("*fp16:16", "*fp32:16").replace(
    "tl.float16", "c_ptr.dtype.element_ty")
fp32 = f"{tmpdir}/matmul_fp32.tile"
open(fp32, "w").write(source)
ieee = f"{tmpdir}/matmul_fp32_ieee.tile"
open(ieee, "w").write(source.replace(
    "tl.dot(a, b, accumulator)",
    'tl.dot(a, b, accumulator, input_precision="ieee")'))
for (M, N, K) in [(1, 1, 1), (37, 19, 70), (100, 70, 33)]:
    case(fp32, "matmul fp32 (tf32)", M, N, K, dtype=np.float32, tol=1e-6,
         defines=blocks, operands=tf32)
    case(ieee, "matmul fp32 (ieee)", M, N, K, dtype=np.float32, tol=1e-6,
         defines=blocks)

# The naive 2-D grid version (the CPU runs the @grid as written).
tile = f"{examples}/matmul_2d.tile"
for (M, N, K) in [(37, 19, 70), (100, 70, 33)]:
    case(tile, "matmul_2d fp16", M, N, K, defines=blocks)

tile = f"{examples}/matmul_block_ptr.tile"
for (M, N, K) in [(1, 1, 1), (37, 19, 70), (64, 64, 64), (100, 70, 33)]:
    case(tile, "block_ptr fp16", M, N, K, defines=blocks)
case(tile, "block_ptr fp16 lda=K+3", 33, 17, 20, lda_pad=3, defines=blocks)
case(tile, "block_ptr fp16 B transposed", 40, 56, 24, b_transposed=True,
     defines=blocks)
finish()
