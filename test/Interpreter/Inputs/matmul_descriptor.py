import sys
from harness import *

# examples/matmul_descriptor.tile (C = A @ B.T through tensor descriptors,
# persistent over tiles) in the CPU mode: both epilogues, sizes that are not
# multiples of the blocks, and more tiles than programs (NUM_SMS=2).
examples = sys.argv[1]
r = rng(5)
for M, N, K, subtile in [(40, 72, 48, "False"), (100, 56, 40, "True"),
                         (8, 8, 8, "True")]:
    a = r.standard_normal((M, K)).astype(np.float16)
    b = r.standard_normal((N, K)).astype(np.float16)
    c = np.full((M, N), np.nan, np.float16)
    out = run(f"{examples}/matmul_descriptor.tile",
              {"a_ptr": a, "b_ptr": b, "c_ptr": c, "M": M, "N": N, "K": K},
              defines=["BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=16",
                       "GROUP_SIZE_M=2", f"EPILOGUE_SUBTILE={subtile}",
                       "NUM_SMS=2"])
    check(f"descriptor matmul {M}x{N}x{K} subtile={subtile}", out["c_ptr"],
          a.astype(np.float64) @ b.astype(np.float64).T, 2e-3)
finish()
