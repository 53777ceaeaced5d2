import sys
from harness import *
from fp8codec import decode, encode

# examples/grouped_matmul_tma.tile (tutorial 08's descriptor kernel) in the
# CPU mode: three GEMMs of different sizes, K not a multiple of the block
# (nor of 8), padded leading dimensions, fewer programs than tiles. The
# kernel loads int64 addresses: in the CPU mode the address of byte o of
# the pointer argument numbered b is ((b + 1) << 40) + o (docs/interpreter.md),
# so each address array carries its matrices after the addresses.
examples = sys.argv[1]
r = rng(12)
sizes = [(40, 24, 20), (16, 56, 36), (33, 16, 8)]
lds = [(24, 40, 32), (40, 40, 56), (8, 8, 16)]


def run_groups(A, B, C, sizes, lds, defines):
    """Runs the kernel on the GEMMs; returns each C as it came back."""
    a_buf, _ = pack_addresses(0, A)
    b_buf, _ = pack_addresses(1, B)
    c_buf, c_head = pack_addresses(2, C)
    out = run(f"{examples}/grouped_matmul_tma.tile",
              {"group_a_ptrs": a_buf, "group_b_ptrs": b_buf,
               "group_c_ptrs": c_buf,
               "group_gemm_sizes": np.array(sizes, np.int32).ravel(),
               "g_lds": np.array(lds, np.int32).ravel(),
               "group_size": len(sizes)},
              defines=["NUM_SM=3", "BLOCK_SIZE_M=16", "BLOCK_SIZE_N=16"] +
              defines)
    return unpack_matrices(out["group_c_ptrs"], c_head, C)


A = [r.standard_normal((m, lda)).astype(np.float16)
     for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds)]
B = [r.standard_normal((n, ldb)).astype(np.float16)
     for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds)]
C = [np.full((m, ldc), np.nan, np.float16)
     for (m, n, k), (lda, ldb, ldc) in zip(sizes, lds)]
got_c = run_groups(A, B, C, sizes, lds, ["BLOCK_SIZE_K=16", "FP8=False"])
for i, ((m, n, k), got) in enumerate(zip(sizes, got_c)):
    ref = A[i][:, :k].astype(np.float64) @ B[i][:, :k].astype(np.float64).T
    check(f"grouped GEMM {i}: {m}x{n}x{k}", got[:, :n], ref, 2e-3)
    check_true(f"grouped GEMM {i}: padding untouched",
               np.isnan(got[:, n:]).all())

# The tutorial's fp8 run (FP8: e4m3 A, B and C; leading dimensions of 16
# bytes, as descriptors need), against the product rounded to e4m3.
sizes8 = [(40, 24, 20), (16, 56, 36)]
lds8 = [(32, 48, 32), (48, 48, 64)]
A8 = [encode(r.standard_normal((m, lda)), "e4m3")
      for (m, n, k), (lda, ldb, ldc) in zip(sizes8, lds8)]
B8 = [encode(r.standard_normal((n, ldb)), "e4m3")
      for (m, n, k), (lda, ldb, ldc) in zip(sizes8, lds8)]
C8 = [np.zeros((m, ldc), np.uint8)
      for (m, n, k), (lda, ldb, ldc) in zip(sizes8, lds8)]
got_c = run_groups(A8, B8, C8, sizes8, lds8, ["BLOCK_SIZE_K=32", "FP8=True"])
for i, ((m, n, k), got) in enumerate(zip(sizes8, got_c)):
    ref = decode(A8[i][:, :k], "e4m3") @ decode(B8[i][:, :k], "e4m3").T
    check(f"grouped GEMM fp8 {i}: {m}x{n}x{k}", decode(got[:, :n], "e4m3"),
          decode(encode(ref, "e4m3"), "e4m3"), 1e-2)
finish()
