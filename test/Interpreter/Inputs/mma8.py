import sys
from harness import *
from fp8codec import decode, encode

# test/Interpreter/Inputs/mma8.tile against NumPy: int8 products exactly
# (the chain's intermediate truncated to int8 as Triton's .to(tl.int8)
# wraps), e4m3 in float64 of the decoded values.
tile = sys.argv[1]
r = rng(33)


def i8(*shape):
    return r.integers(-128, 128, shape).astype(np.int8)


def exact(name, got, want):
    bad = int((got.astype(np.int64) != want).sum())
    check_true(name, bad == 0, f"({bad} of {got.size} differ)")


a, b, d = i8(32, 32), i8(32, 32), i8(32, 32)
out = run(tile, {"a_ptr": a, "b_ptr": b, "d_ptr": d,
                 "c_ptr": np.zeros((32, 32), np.int32)}, kernel="chained",
          extra=["--num-warps", "1"])
x = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32).astype(np.int8)
exact("int8 chain", out["c_ptr"], x.astype(np.int64) @ d.astype(np.int64))

a, b = i8(16, 32), i8(32, 8)
out = run(tile, {"a_ptr": a, "b_ptr": b, "c_ptr": np.zeros((16, 8), np.int32)},
          kernel="tiny", extra=["--num-warps", "1"])
exact("int8 16x8x32", out["c_ptr"], a.astype(np.int64) @ b.astype(np.int64))

a, b = i8(16, 16), i8(16, 16)
out = run(tile, {"a_ptr": a, "b_ptr": b, "c_ptr": np.zeros((16, 16), np.int32)},
          kernel="k16", extra=["--num-warps", "1"])
exact("int8 K=16", out["c_ptr"], a.astype(np.int64) @ b.astype(np.int64))

qa = encode(r.standard_normal((16, 64)), "e4m3")
qb = encode(r.standard_normal((16, 64)), "e4m3")
out = run(tile, {"a_ptr": qa, "b_ptr": qb,
                 "c_ptr": np.full((16, 16), np.nan, np.float32)},
          kernel="fp8_bt", extra=["--num-warps", "1"])
check("e4m3 A @ B^T", out["c_ptr"],
      decode(qa, "e4m3").astype(np.float64) @ decode(qb, "e4m3").astype(np.float64).T,
      1e-6)
finish()
