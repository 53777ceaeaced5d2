import sys
from harness import *
from fp8codec import decode as decode_fp8, encode as encode_fp8

# Tutorial 10's block_scaled_matmul_kernel (bench/kernels/block_scaled_matmul.tile)
# in the CPU mode, mxfp4 (fp4 codes packed two per byte along K, e8m0
# scales in the tutorial's 5-D layout [M // 128, K // 32 // 4, 32, 4, 4]):
# the reference unshuffles the scales as the tutorial's does
# (permute(0, 3, 2, 1, 4)) and computes in float64.
kernels = sys.argv[1]
r = rng(11)
E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6] * 2) * np.repeat([1, -1], 8)
M, N, K, VEC, BM, BN, BK = 256, 256, 256, 32, 128, 128, 128


def scales(rows):
    return r.integers(122, 132, (rows // 128, K // VEC // 4, 32, 4, 4)).astype(np.uint8)


def unshuffle(s):
    return s.transpose(0, 3, 2, 1, 4).reshape(s.shape[0] * 128, s.shape[1] * 4)


def parts(name, x):
    return {f"{name}_base": x, f"{name}_shape0": x.shape[0],
            f"{name}_shape1": x.shape[1], f"{name}_stride0": x.shape[1]}


ca, cb = r.integers(0, 16, (M, K)), r.integers(0, 16, (N, K))
a = (ca[:, 0::2] | (ca[:, 1::2] << 4)).astype(np.uint8)
b = (cb[:, 0::2] | (cb[:, 1::2] << 4)).astype(np.uint8)
sa, sb = scales(M), scales(N)
c = np.full((M, N), np.nan, np.float16)
defines = [f"M={M}", f"N={N}", f"K={K}", f"stride_sk={sa.strides[0]}",
           f"stride_sb={sa.strides[1]}", f"stride_sc={sa.strides[2]}",
           f"stride_sd={sa.strides[3]}", "output_type=1", "ELEM_PER_BYTE_A=2",
           "ELEM_PER_BYTE_B=2", f"VEC_SIZE={VEC}", f"BLOCK_M={BM}",
           f"BLOCK_N={BN}", f"BLOCK_K={BK}", "NUM_STAGES=1",
           "USE_2D_SCALE_LOAD=True"]
out = run(f"{kernels}/block_scaled_matmul.tile",
          {**parts("a_desc", a), "a_scale": sa, **parts("b_desc", b),
           "b_scale": sb, **parts("c_desc", c)}, defines=defines,
          extra=["--num-warps", "8"])
fa = np.exp2(unshuffle(sa).astype(np.float64) - 127).repeat(VEC, axis=1)
fb = np.exp2(unshuffle(sb).astype(np.float64) - 127).repeat(VEC, axis=1)
ref = (E2M1[ca] * fa) @ (E2M1[cb] * fb).T
check("tutorial 10 mxfp4", out["c_desc_base"], ref, 2e-3)
finish()
