import sys
from harness import *

# examples/matmul_persistent.tile (tutorial 09's persistent matmul on
# pointers) in the CPU mode: more tiles than programs (NUM_SMS=3), sizes that
# are not multiples of the blocks, a transposed B (no unit stride); and the
# same kernel with its configs as published
# (bench/kernels/matmul_tutorial09_persistent.tile).
examples = sys.argv[1]
r = rng(12)
ported = [f"{examples}/matmul_persistent.tile",
          f"{examples}/../bench/kernels/matmul_tutorial09_persistent.tile"]
for M, N, K, b_transposed, tile in [(100, 72, 48, False, ported[0]),
                                    (64, 96, 40, True, ported[0]),
                                    (100, 72, 48, True, ported[1])]:
    a = r.standard_normal((M, K)).astype(np.float16)
    b_storage = r.standard_normal((N, K) if b_transposed else (K, N)).astype(np.float16)
    b = b_storage.T if b_transposed else b_storage
    sbk, sbn = (1, K) if b_transposed else (N, 1)
    c = np.full((M, N), np.nan, np.float16)
    out = run(tile,
              {"a_ptr": a, "b_ptr": b_storage, "c_ptr": c, "M": M, "N": N,
               "K": K, "stride_am": K, "stride_ak": 1, "stride_bk": sbk,
               "stride_bn": sbn, "stride_cm": N, "stride_cn": 1},
              defines=["BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=16",
                       "GROUP_SIZE_M=2", "NUM_SMS=3"])
    check(f"persistent matmul {M}x{N}x{K} b_transposed={b_transposed}",
          out["c_ptr"], a.astype(np.float64) @ b.astype(np.float64), 2e-3)
finish()
