import sys
from harness import *

# bench/kernels/fp8.tile in the CPU mode against the fp8 codec of
# fp8codec.py.
from fp8codec import decode, encode


def same_codes(name, got, want, kind):
    """Equal codes, or both NaN."""
    nan = np.isnan(decode(got, kind)) & np.isnan(decode(want, kind))
    bad = int(((got != want) & ~nan).sum())
    check_true(name, bad == 0, f"({bad} of {got.size} codes differ)")


kernels = sys.argv[1]
r = rng(8)
n = 1000
special = [0.0, -0.0, np.inf, -np.inf, np.nan, 448.0, 464.0, 480.0, 1e6,
           -1e6, 57344.0, 61440.0, 2.0**-9, 2.0**-10, 3 * 2.0**-10,
           2.0**-16, 3 * 2.0**-17, 2.0**-18, -2.0**-20, 0.1, 1.0625, 1.1875]
x = (r.standard_normal(n) * np.exp2(r.integers(-12, 12, n))).astype(np.float32)
x[: len(special)] = special
h = (r.standard_normal(n) * 64).astype(np.float16)
# Small magnitudes too, where q * 0.5 is subnormal and rounds.
q = encode(r.standard_normal(n) * np.exp2(r.integers(-8, 6, n)), "e4m3")
z8 = np.zeros(n, np.uint8)
out = run(f"{kernels}/fp8.tile",
          {"x_ptr": x, "h_ptr": h, "q_ptr": q, "e4_ptr": z8, "e5_ptr": z8,
           "e4h_ptr": z8, "e5h_ptr": z8, "up_ptr": np.zeros(n, np.float32),
           "sum_ptr": z8, "cross_ptr": z8, "n": n}, kernel="fp8_convert")
same_codes("fp32 -> e4m3", out["e4_ptr"], encode(x, "e4m3"), "e4m3")
same_codes("fp32 -> e5m2", out["e5_ptr"], encode(x, "e5m2"), "e5m2")
same_codes("fp16 -> e4m3", out["e4h_ptr"], encode(h, "e4m3"), "e4m3")
same_codes("fp16 -> e5m2", out["e5h_ptr"], encode(h, "e5m2"), "e5m2")
check("e4m3 -> fp32", out["up_ptr"], decode(q, "e4m3"), 0)
qv = decode(q, "e4m3")
# Each operation's result is an fp8 value: q * 0.5 rounds, then the sum.
half = decode(encode(qv * 0.5, "e4m3"), "e4m3")
same_codes("e4m3 arithmetic", out["sum_ptr"], encode(qv + half, "e4m3"),
           "e4m3")
same_codes("e4m3 -> e5m2", out["cross_ptr"], encode(qv, "e5m2"), "e5m2")

M, N = 4, 128
q = encode(r.standard_normal((M, N)) * 100, "e4m3")
out = run(f"{kernels}/fp8.tile",
          {"q_ptr": q, "max_ptr": np.zeros(M, np.float32),
           "sum_ptr": np.zeros(M, np.float32), "M": M}, kernel="fp8_rows")
qv = decode(q, "e4m3")
check("max |e4m3| per row", out["max_ptr"], np.abs(qv).max(1), 0)
check("sum of e4m3 per row", out["sum_ptr"], qv.sum(1), 1e-6)
# Tutorial 03's fp8 run (bench/kernels/matmul_fp8.tile): e4m3 A times e5m2
# B (K-major, as b.T), fp32 accumulation, fp16 C; K not a multiple of
# BLOCK_K.
M, N, K = 48, 40, 72
a = encode(r.standard_normal((M, K)), "e4m3")
bt = encode(r.standard_normal((N, K)), "e5m2")  # B = bt.T
c = np.full((M, N), np.nan, np.float16)
out = run(f"{kernels}/matmul_fp8.tile",
          {"a_ptr": a, "b_ptr": bt, "c_ptr": c, "M": M, "N": N, "K": K,
           "stride_am": K, "stride_ak": 1, "stride_bk": 1, "stride_bn": K,
           "stride_cm": N, "stride_cn": 1},
          defines=["BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32",
                   "GROUP_SIZE_M=2"],
          extra=["--signature", "a_ptr=*fp8e4nv,b_ptr=*fp8e5,c_ptr=*fp16," +
                 ",".join(f"{p}=i32" for p in [
                     "M", "N", "K", "stride_am", "stride_ak", "stride_bk",
                     "stride_bn", "stride_cm", "stride_cn"])])
ref = decode(a, "e4m3") @ decode(bt, "e5m2").T
check("e4m3 x e5m2 matmul", out["c_ptr"], ref, 1e-3)
finish()
