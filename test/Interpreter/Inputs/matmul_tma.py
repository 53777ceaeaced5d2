import sys
from harness import *

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
finish()
