import sys
from harness import *
from fp8codec import decode, encode

# examples/matmul_tma.tile (tutorial 09's kernels on host-made tensor
# descriptors, C = A @ B.T) in the CPU mode: each descriptor passed as its
# parts (base, shape, strides but the last), sizes that are not multiples of
# the blocks, both epilogues of the persistent kernel with more tiles than
# programs (NUM_SMS=2).
examples = sys.argv[1]
r = rng(9)


def parts(name, x):
    """A descriptor argument: its base, shape and leading strides."""
    args = {f"{name}_base": x}
    for d, n in enumerate(x.shape):
        args[f"{name}_shape{d}"] = n
    for d in range(x.ndim - 1):
        args[f"{name}_stride{d}"] = x.shape[d + 1]  # contiguous rows
    return args


BLOCKS = ["BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=16",
          "GROUP_SIZE_M=2"]
for kernel, extra in [("matmul_kernel_tma", []),
                      ("matmul_kernel_tma_persistent",
                       ["EPILOGUE_SUBTILE=False", "NUM_SMS=2"]),
                      ("matmul_kernel_tma_persistent",
                       ["EPILOGUE_SUBTILE=True", "NUM_SMS=2"])]:
    for M, N, K in [(40, 72, 48), (100, 56, 40)]:
        a = r.standard_normal((M, K)).astype(np.float16)
        b = r.standard_normal((N, K)).astype(np.float16)
        c = np.full((M, N), np.nan, np.float16)
        out = run(f"{examples}/matmul_tma.tile",
                  {**parts("a_desc", a), **parts("b_desc", b),
                   **parts("c_desc", c), "M": M, "N": N, "K": K},
                  kernel=kernel, defines=BLOCKS + extra)
        check(f"{kernel} {' '.join(extra)} {M}x{N}x{K}", out["c_desc_base"],
              a.astype(np.float64) @ b.astype(np.float64).T, 2e-3)
# The tutorial's fp8 run (FP8_OUTPUT: e4m3 in and out; the file's fp16
# descriptors retyped as fp8e4nv), against the product rounded to e4m3.
fp8_file = sys.argv[2] + "/matmul_tma_fp8.tile"
with open(f"{examples}/matmul_tma.tile") as f:
    open(fp8_file, "w").write(f.read().replace("tensordesc<fp16[",
                                                "tensordesc<fp8e4nv["))
M, N, K = 100, 56, 64
a = encode(r.standard_normal((M, K)), "e4m3")
b = encode(r.standard_normal((N, K)), "e4m3")
out = run(fp8_file, {**parts("a_desc", a), **parts("b_desc", b),
                     **parts("c_desc", np.zeros((M, N), np.uint8)),
                     "M": M, "N": N, "K": K},
          kernel="matmul_kernel_tma", defines=BLOCKS + ["FP8_OUTPUT=True"])
ref = decode(a, "e4m3") @ decode(b, "e4m3").T
check("matmul_kernel_tma fp8 (e4m3 out)", decode(out["c_desc_base"], "e4m3"),
      decode(encode(ref, "e4m3"), "e4m3"), 1e-2)
finish()
