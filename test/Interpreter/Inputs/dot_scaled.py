import sys
from harness import *
from fp8codec import decode as decode_fp8, encode as encode_fp8

# bench/kernels/dot_scaled.tile in the CPU mode against references built
# here from the microscaling definitions: e2m1 codes (sign, two exponent
# bits with bias 1, one mantissa bit), two per byte with the first in the
# low bits; e8m0 scales 2^(s - 127), one per 32 elements along K.
kernels = sys.argv[1]
r = rng(10)
E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6] * 2) * np.repeat([1, -1], 8)


def fp4_pack(codes, axis):
    """Codes (0..15) packed in pairs along `axis`, the first in the low bits."""
    lo = np.take(codes, range(0, codes.shape[axis], 2), axis=axis)
    hi = np.take(codes, range(1, codes.shape[axis], 2), axis=axis)
    return (lo | (hi << 4)).astype(np.uint8)


def scales(rows, k):
    return r.integers(120, 134, (rows, k // 32)).astype(np.uint8)


def scaled(values, s, k_axis):
    f = np.exp2(s.astype(np.float64) - 127).repeat(32, axis=1)
    return values * (f if k_axis == 1 else f.T)


M, N, K = 80, 72, 128
ca = r.integers(0, 16, (M, K))
cb = r.integers(0, 16, (K, N))
sa, sb = scales(M, K), scales(N, K)
c = np.full((M, N), np.nan, np.float32)
out = run(f"{kernels}/dot_scaled.tile",
          {"a_ptr": fp4_pack(ca, 1), "b_ptr": fp4_pack(cb, 0), "sa_ptr": sa,
           "sb_ptr": sb, "c_ptr": c, "M": M, "N": N, "K": K}, kernel="mxfp4")
ref = scaled(E2M1[ca], sa, 1) @ scaled(E2M1[cb], sb, 0)
check("mxfp4 x mxfp4", out["c_ptr"], ref, 1e-6)

B = 64
a8 = encode_fp8(r.standard_normal((B, B)) * 4, "e4m3")
cb = r.integers(0, 16, (B, B))
sa, sb = scales(B, B), scales(B, B)
h = r.standard_normal((B, B)).astype(np.float32)
h_bits = (h.view(np.uint32) >> 16).astype(np.uint16)  # bf16 by truncation
h_vals = (h_bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
e5 = encode_fp8(r.standard_normal((B, B)), "e5m2")
out = run(f"{kernels}/dot_scaled.tile",
          {"a_ptr": a8, "b_ptr": fp4_pack(cb, 1), "sa_ptr": sa, "sb_ptr": sb,
           "h_ptr": h_bits, "e_ptr": e5, "c_ptr": np.zeros((B, B), np.float32),
           "d_ptr": np.zeros((B, B), np.float32)}, kernel="mixed")
ref = scaled(decode_fp8(a8, "e4m3"), sa, 1) @ scaled(E2M1[cb], sb, 0)
check("mxfp8 x fp4 packed along N", out["c_ptr"], ref, 1e-6)
ref = h_vals @ scaled(decode_fp8(e5, "e5m2"), sb, 0)
check("bf16 x scaled e5m2", out["d_ptr"], ref, 1e-6)
# nvfp4: e4m3 scales (fp8 values, not powers of two) per 16 along K.
ca, cb = r.integers(0, 16, (B, B)), r.integers(0, 16, (B, B))
sa = encode_fp8(r.uniform(0.5, 4, (B, B // 16)), "e4m3")
sb = encode_fp8(r.uniform(0.5, 4, (B, B // 16)), "e4m3")
out = run(f"{kernels}/dot_scaled.tile",
          {"a_ptr": fp4_pack(ca, 1), "b_ptr": fp4_pack(cb, 0), "sa_ptr": sa,
           "sb_ptr": sb, "c_ptr": np.zeros((B, B), np.float32)},
          kernel="nvfp4")
fa = decode_fp8(sa, "e4m3").repeat(16, axis=1)
fb = decode_fp8(sb, "e4m3").repeat(16, axis=1)
check("nvfp4 x nvfp4", out["c_ptr"], (E2M1[ca] * fa) @ (E2M1[cb] * fb.T), 1e-6)
finish()
