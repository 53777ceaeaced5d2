import sys
from harness import *

# tl.randint / randint4x / rand / randn (bench/kernels/random.tile) and the
# dropout example against Philox4x32-10 written here in NumPy from its
# definition (Salmon et al.; Triton's key schedule and round constants):
# the integers bit for bit, rand exactly as Triton converts them, randn
# through Box-Muller within fp32 rounding.
examples = sys.argv[1]
M32 = np.uint64(0xFFFFFFFF)


def philox(seed, offsets, rounds=10):
    c0 = offsets.astype(np.uint64) & M32
    c1 = np.zeros_like(c0)
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    k0, k1 = np.uint64(seed & 0xFFFFFFFF), np.uint64(seed >> 32)
    for _ in range(rounds):
        _c0, _c2 = c0, c2
        c0 = (((np.uint64(0xCD9E8D57) * _c2) >> np.uint64(32)) ^ c1 ^ k0) & M32
        c2 = (((np.uint64(0xD2511F53) * _c0) >> np.uint64(32)) ^ c3 ^ k1) & M32
        c1 = (np.uint64(0xCD9E8D57) * _c2) & M32
        c3 = (np.uint64(0xD2511F53) * _c0) & M32
        k0 = (k0 + np.uint64(0x9E3779B9)) & M32
        k1 = (k1 + np.uint64(0xBB67AE85)) & M32
    return [c.astype(np.uint32) for c in (c0, c1, c2, c3)]


def uniform(x):
    i = x.view(np.int32).astype(np.int64)
    i = np.where(i < 0, -i - 1, i).astype(np.int32)
    return i.astype(np.float32) * np.float32(4.6566127342e-10)


for n, seed in [(1, 0), (300, 123), (1000, -7)]:
    ints, ints4 = np.zeros(n, np.uint32), np.zeros(4 * n, np.uint32)
    out = run(f"{examples}/../bench/kernels/random.tile",
              {"ints": ints, "ints4": ints4,
               "uniform": np.full(n, np.nan, np.float32),
               "normal": np.full(n, np.nan, np.float32), "n": n,
               "seed": seed})
    ref = philox(seed, np.arange(n))
    check(f"randint n={n} seed={seed}", out["ints"], ref[0], 0)
    check(f"randint4x n={n} seed={seed}", out["ints4"],
          np.stack(ref, axis=1).reshape(-1), 0)
    u = uniform(ref[0])
    check(f"rand n={n} seed={seed}", out["uniform"], u, 0)
    u1 = np.maximum(np.float64(1e-7), u.astype(np.float64))
    u2 = uniform(ref[1]).astype(np.float64)
    normal = np.sqrt(-2 * np.log(u1)) * np.cos(2 * np.pi * u2)
    check(f"randn n={n} seed={seed}", out["normal"], normal, 1e-5)

r = rng(5)
for n, p, seed in [(1000, 0.5, 42), (33, 0.1, 7)]:
    x = r.standard_normal(n).astype(np.float32)
    out = run(f"{examples}/dropout.tile",
              {"x_ptr": x, "output_ptr": np.full(n, np.nan, np.float32),
               "n_elements": n, "p": p, "seed": seed},
              defines=["BLOCK_SIZE=256"])
    keep = uniform(philox(seed, np.arange(n))[0]) > np.float32(p)
    ref = np.where(keep, x.astype(np.float64) / (1 - np.float32(p)), 0.0)
    check(f"dropout n={n} p={p}", out["output_ptr"], ref, 1e-6)
finish()
