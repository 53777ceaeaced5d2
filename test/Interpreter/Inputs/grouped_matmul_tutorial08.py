import sys
from harness import *

# bench/kernels/grouped_matmul_tutorial08.tile (tutorial 08's pointer
# kernel) in the CPU mode: three GEMMs of different sizes in whole tiles
# (the tutorial's kernel has no masks), padded leading dimensions, fewer
# programs than tiles, every config's block shape at a small NUM_SM.
kernels = sys.argv[1]
r = rng(21)
for bm, bn, bk in [(16, 16, 16), (32, 16, 32)]:
    sizes = [(2 * bm, 3 * bn, 2 * bk), (bm, bn, 3 * bk), (3 * bm, 2 * bn, bk)]
    lds = [(k + 8, n + 8, n + 16) for m, n, k in sizes]
    A = [r.standard_normal((m, lda)).astype(np.float16)
         for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds)]
    B = [r.standard_normal((k, ldb)).astype(np.float16)
         for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds)]
    C = [np.full((m, ldc), np.nan, np.float16)
         for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds)]
    a_buf, _ = pack_addresses(0, A)
    b_buf, _ = pack_addresses(1, B)
    c_buf, c_head = pack_addresses(2, C)
    out = run(f"{kernels}/grouped_matmul_tutorial08.tile",
              {"group_a_ptrs": a_buf, "group_b_ptrs": b_buf,
               "group_c_ptrs": c_buf,
               "group_gemm_sizes": np.array(sizes, np.int32).ravel(),
               "g_lds": np.array(lds, np.int32).ravel(),
               "group_size": len(sizes)},
              defines=["NUM_SM=5", f"BLOCK_SIZE_M={bm}", f"BLOCK_SIZE_N={bn}",
                       f"BLOCK_SIZE_K={bk}"])
    got_c = unpack_matrices(out["group_c_ptrs"], c_head, C)
    for i, ((m, n, k), got) in enumerate(zip(sizes, got_c)):
        ref = A[i][:, :k].astype(np.float64) @ B[i][:, :n].astype(np.float64)
        check(f"tutorial 08 grouped GEMM {bm}x{bn}x{bk} #{i}: {m}x{n}x{k}",
              got[:, :n], ref, 2e-3)
        check_true(f"tutorial 08 grouped GEMM {bm}x{bn}x{bk} #{i}: padding "
                   "untouched", np.isnan(got[:, n:]).all())
finish()
