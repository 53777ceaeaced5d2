"""Launch every example once at a small shape, for compute-sanitizer
(memcheck, racecheck, synccheck): bench/sanitize.sh runs this script under
each tool on the device machine with the kernels bench/build_kernels.sh and
bench/build_correctness.sh compiled. Small shapes keep the instrumented
runs short; the guarded fast path (aligned arguments), the unit-stride copy
(odd row strides) and the general path (a transposed operand: no unit
stride) are all launched, and the outputs of the general paths are checked
against float64 here too.

usage: python3 bench/sanitize_examples.py KERNELS_DIR CORRECTNESS_DIR
"""
import json
import sys

import torch

import sanitize_mma8
from tilelaunch import Kernel, descriptor_parts

KDIR, CDIR = sys.argv[1], sys.argv[2]
torch.manual_seed(0)

for n_cols, stride in [(1000, 1000), (1024, 1024), (1000, 1001)]:
    x = torch.randn(64, stride, device="cuda")
    y = torch.empty_like(x)
    Kernel(KDIR, "softmax_1024")(y, x, stride, stride, 64, n_cols)
    xh = x.half()
    w = torch.rand(stride, device="cuda", dtype=torch.float16)
    b = torch.randn(stride, device="cuda", dtype=torch.float16)
    yh = torch.empty_like(xh)
    mean = torch.empty(64, device="cuda")
    rstd = torch.empty(64, device="cuda")
    Kernel(KDIR, "layernorm_1024")(xh, yh, w, b, mean, rstd, stride, 64,
                                   n_cols, 1e-5)
    # Layer norm backward: its GROUP_SIZE_M (64) locks, one program each
    # here (atomic_cas spin lock, debug_barrier before the release), fast
    # and general paths; then 4 programs per lock.
    group = 64
    parts = [torch.zeros(group, stride, device="cuda", dtype=torch.float16)
             for _ in range(2)]
    lock = torch.zeros(2 * group, device="cuda", dtype=torch.int32)
    Kernel(CDIR, "layernorm_bwd", 0)(
        torch.empty_like(xh), xh, *parts, xh, w, mean, rstd, lock, stride,
        n_cols, 64)
    Kernel(CDIR, "layernorm_bwd", 1)(
        *parts, torch.empty(stride, device="cuda", dtype=torch.float16),
        torch.empty(stride, device="cuda", dtype=torch.float16), group, n_cols)
    x4, m4, r4 = xh.repeat(4, 1), mean.repeat(4), rstd.repeat(4)
    Kernel(CDIR, "layernorm_bwd", 0)(
        torch.empty_like(x4), x4, *parts, x4, w, m4, r4, lock, stride,
        n_cols, 256)
    assert lock[:group].abs().sum().item() == 0, "a lock was not released"
x = torch.randn(32, 128, device="cuda")
Kernel(CDIR, "reductions", 0)(
    x, torch.empty(32, device="cuda"), torch.empty(128, device="cuda"),
    torch.empty(32, device="cuda", dtype=torch.int32),
    torch.empty(128, device="cuda", dtype=torch.int32))
a = torch.randn(128, 32, device="cuda", dtype=torch.float16)
bm = torch.randn(32, 64, device="cuda", dtype=torch.float16)
Kernel(CDIR, "reductions", 1)(a, bm, torch.empty(128, device="cuda"),
                              torch.empty(64, device="cuda"),
                              torch.empty(1, device="cuda"))
for D in [64, 128]:
    for stage in [1, 3]:
        for index in range(3):
            q, k, v = (torch.randn(1, 2, 256, D, device="cuda",
                                   dtype=torch.float16) for _ in range(3))
            o = torch.empty_like(q)
            m = torch.empty(2, 256, device="cuda")
            Kernel(KDIR, f"attention_d{D}_s{stage}", index)(
                q, k, v, D ** -0.5, m, o, *q.stride(), *k.stride(),
                *v.stride(), *o.stride(), 1, 2, 256)
# K = 257: A's rows misaligned (its operand copy keeps B's cp.async); B's
# rows 257 long: B's copy.
for K, transposed, pad_b in [(256, False, 0), (257, False, 0), (256, True, 0),
                             (256, False, 1)]:
    a = torch.randn(256, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, 256 + pad_b, device="cuda", dtype=torch.float16)[:, :256]
    if transposed:
        b = b.t().contiguous().t()
    ref = a.double() @ b.double()
    # The 4096^3 config, then every config (the 4-warp 128x128 tile's ring
    # is refilled after the dot's wait, for two programs per SM).
    for name, index in [("matmul_nohints", None)] + [
            ("matmul_nohints_all", i) for i in range(4)]:
        c = torch.empty(256, 256, device="cuda", dtype=torch.float16)
        Kernel(KDIR, name, index)(a, b, c, 256, 256, K, *a.stride(),
                                  *b.stride(), *c.stride())
        err = ((c.double() - ref).norm() / ref.norm()).item()
        assert err < 2e-3, (name, index, K, transposed, pad_b, err)
# Attention's general path: K given as a transposed view (stride_kk != 1).
for D in [64, 128]:
    q, v = (torch.randn(1, 2, 256, D, device="cuda", dtype=torch.float16)
            for _ in range(2))
    k = torch.randn(1, 2, D, 256, device="cuda",
                    dtype=torch.float16).transpose(2, 3)
    o = torch.empty_like(q)
    m = torch.empty(2, 256, device="cuda")
    Kernel(KDIR, f"attention_d{D}_s3", 2)(
        q, k, v, D ** -0.5, m, o, *q.stride(), *k.stride(), *v.stride(),
        *o.stride(), 1, 2, 256)
    ref = torch.nn.functional.scaled_dot_product_attention(
        q.double(), k.double(), v.double(), is_causal=True, scale=D ** -0.5)
    err = ((o.double() - ref).norm() / ref.norm()).item()
    assert err < 5e-3, ("attention general path", D, err)
# This session's language features: random numbers and dropout (odd
# size), libdevice math, reduce with combine functions and xor_sum, join /
# split / interleave and the split of a wgmma accumulator.
n = 1001
Kernel(CDIR, "random")(*(torch.empty(s, device="cuda", dtype=t) for s, t in
                         [(n, torch.int32), (4 * n, torch.int32),
                          (n, torch.float32), (n, torch.float32)]), n, 5)
x = torch.randn(n, device="cuda")
Kernel(CDIR, "dropout")(x, torch.empty_like(x), n, 0.5, 5)
Kernel(CDIR, "math_functions")(x, torch.empty(21 * n, device="cuda"), n)
Kernel(CDIR, "custom_reduce")(
    torch.randn(32, 64, device="cuda"),
    torch.randint(0, 1000, (32, 64), device="cuda", dtype=torch.int32),
    torch.empty(32, device="cuda"), torch.empty(32, device="cuda"),
    torch.empty(32, device="cuda", dtype=torch.int32),
    torch.empty(32, device="cuda", dtype=torch.int32),
    torch.empty(1, device="cuda", dtype=torch.int32))
Kernel(CDIR, "scan", 1)(
    torch.randn(32, 32, device="cuda", dtype=torch.float16),
    torch.randn(32, 32, device="cuda", dtype=torch.float16),
    torch.empty(32, 32, device="cuda"))
Kernel(CDIR, "cuda_helpers")(
    torch.empty(8, device="cuda", dtype=torch.int64),
    torch.empty(4, device="cuda", dtype=torch.int32),
    torch.empty(2, device="cuda", dtype=torch.int32))
Kernel(CDIR, "inline_asm")(
    torch.randn(256, device="cuda"), torch.randn(256, device="cuda"),
    torch.randint(0, 100, (256,), device="cuda", dtype=torch.int8),
    *(torch.empty(256, device="cuda") for _ in range(3)),
    torch.empty(256, device="cuda", dtype=torch.int8))
Kernel(CDIR, "gather")(
    torch.randn(32, 64, device="cuda"),
    torch.randint(0, 64, (32, 16), device="cuda", dtype=torch.int32),
    torch.randint(0, 32, (16, 64), device="cuda", dtype=torch.int64),
    torch.randperm(1024, device="cuda").to(torch.int16),
    torch.randn(1024, device="cuda"), torch.empty(32, 16, device="cuda"),
    torch.empty(16, 64, device="cuda"), torch.empty(1024, device="cuda"))
groups = [torch.randn(256, device="cuda") for _ in range(4)]
Kernel(CDIR, "pointer_casts", 0)(
    torch.tensor([t.data_ptr() for t in groups], device="cuda",
                 dtype=torch.int64), torch.empty(1024, device="cuda"))
Kernel(CDIR, "pointer_casts", 1)(
    torch.randn(256, device="cuda"), torch.empty(256, device="cuda"),
    torch.empty(256, device="cuda", dtype=torch.int32))
Kernel(CDIR, "sort")(
    torch.randn(4, 256, device="cuda"),
    torch.randint(-30000, 30000, (64,), device="cuda", dtype=torch.int16),
    torch.randn(2048, device="cuda"),
    *(torch.empty(s, device="cuda") for s in [(4, 256), (4, 256), (4, 16)]),
    torch.empty(64, device="cuda", dtype=torch.int16),
    torch.empty(2048, device="cuda"))
Kernel(CDIR, "histogram")(
    torch.randint(-8, 72, (4096,), device="cuda", dtype=torch.int32),
    torch.randint(0, 256, (4096,), device="cuda", dtype=torch.uint8),
    torch.randint(0, 20, (64,), device="cuda", dtype=torch.int32), 3000,
    *(torch.empty(s, device="cuda", dtype=torch.int32) for s in [64, 256, 16]))
Kernel(CDIR, "scan", 0)(
    torch.randn(32, 64, device="cuda"),
    torch.randint(-128, 128, (32, 64), device="cuda", dtype=torch.int8),
    torch.randn(4096, device="cuda"),
    *(torch.empty(32, 64, device="cuda") for _ in range(3)),
    *(torch.empty(32, 64, device="cuda", dtype=torch.int32) for _ in range(2)),
    torch.empty(4096, device="cuda"), torch.empty(4096, device="cuda"))
Kernel(CDIR, "join_split", 0)(
    torch.randn(64, device="cuda"), torch.randn(64, device="cuda"),
    *(torch.empty(s, device="cuda") for s in [128, 128, 64, 64]),
    torch.randn(64, 32, device="cuda", dtype=torch.float16),
    torch.randn(32, 64, device="cuda", dtype=torch.float16),
    torch.empty(64 * 64, device="cuda"))
Kernel(CDIR, "join_split", 1)(torch.randn(16, 4, device="cuda"),
                              torch.randn(16, 4, device="cuda"),
                              torch.empty(128, device="cuda"))
Kernel(CDIR, "join_split", 2)(torch.randn(16, 8, device="cuda"),
                              *(torch.empty(128, device="cuda") for _ in range(3)))
Kernel(CDIR, "library_builtins")(
    torch.randn(64, device="cuda"), torch.empty(64, device="cuda"),
    torch.empty(64, device="cuda"),
    *(torch.empty(64, device="cuda", dtype=torch.int32) for _ in range(2)))
# Tensor descriptors: blocks across every edge, a persistent descriptor
# matmul (more tiles than programs: 192 tiles of 128x128 over 132 programs,
# both epilogues), and dot(a, b.T) on mma.sync and wgmma.
x = torch.randn(50, 72, device="cuda")
Kernel(CDIR, "descriptor", 0)(
    x, torch.empty(53, 80, device="cuda", dtype=torch.float16), 50, 70, 72, 80)
Kernel(CDIR, "descriptor", 1)(x, torch.empty(50, device="cuda"), 50, 70, 72)
Kernel(CDIR, "descriptor", 2)(torch.randn(3, 5, 12, device="cuda"),
                              torch.empty(2, 4, 8, device="cuda"),
                              torch.empty(15, 12, device="cuda"), 3, 5, 12)
for i in range(2):
    a = torch.randn(2048, 136, device="cuda", dtype=torch.float16)
    b = torch.randn(1536, 136, device="cuda", dtype=torch.float16)
    Kernel(CDIR, "matmul_descriptor", i)(
        a, b, torch.empty(2048, 1536, device="cuda", dtype=torch.float16),
        2048, 1536, 136)
    # fp32: tf32 on wgmma, tiles by TMA.
    Kernel(CDIR, "matmul_descriptor_fp32", i)(
        a.float(), b.float(), torch.empty(2048, 1536, device="cuda"),
        2048, 1536, 136)
for bm in [32, 64]:
    a = torch.randn(100, 96, device="cuda", dtype=torch.float16)
    b = torch.randn(72, 96, device="cuda", dtype=torch.float16)
    Kernel(CDIR, f"dot_transposed_{bm}")(
        a, b, torch.empty(100, 72, device="cuda"), 100, 72, 96)
# Tutorial 08's grouped GEMM (K = 100: partial cp.async copies) and
# tutorial 06's attention (causal, descriptors, K transposed).
sizes, lds = [(200, 136, 100), (64, 64, 8)], [(104, 104, 136), (8, 8, 64)]
A = [torch.randn(m, l[0], device="cuda", dtype=torch.float16) for (m, n, k), l in zip(sizes, lds)]
B = [torch.randn(n, l[1], device="cuda", dtype=torch.float16) for (m, n, k), l in zip(sizes, lds)]
C = [torch.empty(m, l[2], device="cuda", dtype=torch.float16) for (m, n, k), l in zip(sizes, lds)]
for i in range(2):
    Kernel(CDIR, "grouped_matmul_tma", i)(
        *(torch.tensor([t.data_ptr() for t in ts], device="cuda") for ts in (A, B, C)),
        torch.tensor(sizes, device="cuda", dtype=torch.int32),
        torch.tensor(lds, device="cuda", dtype=torch.int32), len(sizes))
# Tutorial 08's pointer kernel without its hints: per problem the fast
# copy (aligned, leading dimensions multiples of 8) or the general path
# (odd leading dimensions; an A 2-byte aligned), every config.
sizes = [(256, 128, 128), (128, 256, 64), (128, 128, 128)]
lds = [(136, 136, 136), (65, 257, 257), (136, 136, 128)]
A = [torch.randn(m, l[0], device="cuda", dtype=torch.float16) for (m, n, k), l in zip(sizes, lds)]
A[2] = A[2][:, 1:]
B = [torch.randn(k, l[1], device="cuda", dtype=torch.float16) for (m, n, k), l in zip(sizes, lds)]
for i in range(6):
    C = [torch.empty(m, l[2], device="cuda", dtype=torch.float16) for (m, n, k), l in zip(sizes, lds)]
    Kernel(CDIR, "grouped_matmul_tutorial08_nohints", i)(
        *(torch.tensor([t.data_ptr() for t in ts], device="cuda") for ts in (A, B, C)),
        torch.tensor(sizes, device="cuda", dtype=torch.int32),
        torch.tensor(lds, device="cuda", dtype=torch.int32), len(sizes))
    torch.cuda.synchronize()
    for (m, n, k), a, b, c in zip(sizes, A, B, C):
        ref = a[:, :k].double() @ b[:, :n].double()
        err = ((c[:, :n].double() - ref).norm() / ref.norm()).item()
        assert err < 2e-3, ("grouped_matmul_tutorial08_nohints", i, err)
q, k, v = (torch.randn(1, 2, 256, 64, device="cuda", dtype=torch.float16) for _ in range(3))
Kernel(CDIR, "attention_tutorial06")(
    0.125, torch.empty(2, 256, device="cuda"), 1, 2, q, k, v, torch.empty_like(q), 256)
# Not causal, head dim 128: warp specialized (a TMA producer warpgroup).
q, k, v = (torch.randn(1, 2, 256, 128, device="cuda", dtype=torch.float16) for _ in range(3))
Kernel(CDIR, "attention_tutorial06_full")(
    128 ** -0.5, torch.empty(2, 256, device="cuda"), 1, 2, q, k, v, torch.empty_like(q), 256)
# fp8: conversions, and the fp8 matmul on wgmma's fp8 form (B K-major) and
# on fp16 widenings (B N-major); tutorial 09's kernels on host-made
# descriptors (passed as base, shape and leading strides).
x = torch.randn(1000, device="cuda")
q = x.to(torch.float8_e4m3fn)
Kernel(CDIR, "fp8", 0)(
    x, x.half(), q, *(torch.empty(1000, device="cuda", dtype=t) for t in (
        torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e4m3fn,
        torch.float8_e5m2)),
    torch.empty(1000, device="cuda"), torch.empty_like(q),
    torch.empty(1000, device="cuda", dtype=torch.float8_e5m2), 1000)
a8 = torch.randn(192, 160, device="cuda").to(torch.float8_e4m3fn)
b8 = torch.randn(160, 136, device="cuda").to(torch.float8_e4m3fn)
for name, b in [("matmul_fp8e4nv_kmajor", b8.t().contiguous().t()),
                ("matmul_fp8e4nv", b8)]:
    for i in range(2):
        c8 = torch.empty(192, 136, device="cuda", dtype=torch.float16)
        Kernel(CDIR, name, i)(a8, b, c8, 192, 136, 160, *a8.stride(),
                              *b.stride(), *c8.stride())
        torch.cuda.synchronize()
        assert (c8.double() - a8.double() @ b.double()).abs().max() < 0.1, name
# tf32 on wgmma (fp32 A and B): every config, odd sizes, B K-major, A
# M-major too (read into registers), and B row-major (as written, aligned:
# the fast path computes the transposed product, B^T read into registers).
bK32 = torch.randn(264, 136, device="cuda").t()
for name, a32, b32 in [
        ("matmul_fp32_tf32_kmajor", torch.randn(200, 136, device="cuda"), bK32),
        ("matmul_fp32_tf32_mmajor", torch.randn(136, 200, device="cuda").t(),
         bK32),
        ("matmul_fp32_tf32", torch.randn(200, 136, device="cuda"),
         torch.randn(136, 264, device="cuda")),
        # Rows of 137 elements (not 16-byte aligned): the general paths,
        # mma.sync's tf32 and tf32x3, operands read from shared memory by
        # per-thread bases plus immediates.
        ("matmul_fp32_tf32", torch.randn(200, 137, device="cuda")[:, :136],
         torch.randn(136, 264, device="cuda")),
        ("matmul_fp32_tf32x3", torch.randn(200, 137, device="cuda")[:, :136],
         torch.randn(136, 264, device="cuda"))]:
    for i in range(4):
        c32 = torch.empty(200, 264, device="cuda")
        Kernel(CDIR, name, i)(a32, b32, c32, 200, 264, 136, *a32.stride(),
                              *b32.stride(), *c32.stride())
        torch.cuda.synchronize()
        assert (c32.double() - a32.double() @ b32.double()).abs().max() < 0.1
a = torch.randn(200, 136, device="cuda", dtype=torch.float16)
b = torch.randn(264, 136, device="cuda", dtype=torch.float16)
# Also built for 2 SMs (matmul_tma_sms2): the one-tile kernels made
# persistent then walk 2-3 tiles a program (ring and epilogue reused from
# one tile to the next).
for name in ["matmul_tma", "matmul_tma_sms2"]:
    for i in range(4):
        c = torch.empty(200, 264, device="cuda", dtype=torch.float16)
        Kernel(CDIR, name, i)(*(p for t in (a, b, c)
                                for p in descriptor_parts(t)),
                              200, 264, 136)
        torch.cuda.synchronize()
        assert (c.double() - a.double() @ b.double().T).abs().max() < 0.1, (name, i)
q, k, v = (torch.randn(1, 3, 256, 128, device="cuda", dtype=torch.float16)
           for _ in range(3))
o = torch.empty_like(q)
Kernel(CDIR, "attention_tutorial06_full_sms2")(
    128 ** -0.5, torch.empty(3, 256, device="cuda"), 1, 3, q, k, v, o, 256)
torch.cuda.synchronize()
ref = torch.softmax(q.double() @ k.double().transpose(-1, -2) * 128 ** -0.5,
                    -1) @ v.double()
assert ((o.double() - ref).norm() / ref.norm()).item() < 1e-2
codes = torch.randint(0, 256, (64, 32), device="cuda", dtype=torch.uint8)
sc = torch.full((64, 2), 127, device="cuda", dtype=torch.uint8)
Kernel(CDIR, "dot_scaled", 0)(codes, codes.t().contiguous(), sc, sc,
                              torch.empty(64, 64, device="cuda"), 64, 64, 64)
q, k, v = (torch.randn(1, 1, 256, 64, device="cuda", dtype=torch.float16)
           for _ in range(3))
Kernel(CDIR, "attention_tutorial06_hostdesc")(
    0.125, torch.empty(1, 256, device="cuda"), 1, 1,
    *(p for t in (q, k, v, torch.empty_like(q))
      for p in descriptor_parts(t.view(-1, 64))), 256)
q8, k8, v8 = (t.to(torch.float8_e5m2) for t in (q, k, v))
Kernel(CDIR, "attention_tutorial06_fp8")(
    0.125, torch.empty(1, 256, device="cuda"), 1, 1, q8, k8,
    v8.transpose(-1, -2).contiguous(), torch.empty_like(q8), 256)
# tl.map_elementwise: a branch per element, a broadcast column.
x = torch.randn(1000, device="cuda")
Kernel(CDIR, "map_elementwise", 0)(x, torch.empty_like(x), 1000, 1.5)
x = torch.randn(100, 72, device="cuda", dtype=torch.float16)
Kernel(CDIR, "map_elementwise", 1)(
    x, torch.rand(100, device="cuda").half(), torch.empty_like(x),
    torch.empty(100, 72, device="cuda", dtype=torch.int32), 100, 70, 72)
for index in (2, 3):  # pack=2, pack=4
    x = torch.randn(1001, device="cuda")
    Kernel(CDIR, "map_elementwise", index)(
        x, torch.randn_like(x), torch.empty_like(x),
        torch.empty(1001, device="cuda", dtype=torch.int32), 1001)
# Tutorial 06's backward: the preprocess, then _attn_bwd (grid given).
q, k, v, o, do = (torch.randn(1, 2, 256, 64, device="cuda", dtype=torch.float16)
                  for _ in range(5))
lse, delta = torch.randn(2, 256, device="cuda"), torch.empty(2, 256, device="cuda")
Kernel(CDIR, "attention_bwd_tutorial06", 0)(o, do, delta, 1, 2, 256)
Kernel(CDIR, "attention_bwd_tutorial06", 1).bind(
    q, k, v, 0.5, do, torch.empty_like(q), torch.empty_like(k),
    torch.empty_like(v), lse, delta, *q.stride(), 2, 256, grid=(2, 1, 2))()
sa = torch.full((2, 4, 32, 4, 4), 127, device="cuda", dtype=torch.uint8)
a4 = torch.randint(0, 256, (256, 256), device="cuda", dtype=torch.uint8)
Kernel(CDIR, "block_scaled_mxfp4")(
    *descriptor_parts(a4), sa, *descriptor_parts(a4), sa,
    *descriptor_parts(torch.empty(256, 256, device="cuda", dtype=torch.float16)))
for i in range(2):
    a = torch.randn(200, 136, device="cuda", dtype=torch.float16)
    b = torch.randn(136, 264, device="cuda", dtype=torch.float16)
    c = torch.empty(200, 264, device="cuda", dtype=torch.float16)
    Kernel(CDIR, "matmul_persistent", i)(a, b, c, 200, 264, 136, *a.stride(),
                                         *b.stride(), *c.stride())
    torch.cuda.synchronize()
    assert (c.double() - a.double() @ b.double()).abs().max() < 0.1
    # Every stride 2: the general path (no access has contiguity).
    a2 = torch.randn(200, 272, device="cuda", dtype=torch.float16)[:, ::2]
    b2 = torch.randn(136, 528, device="cuda", dtype=torch.float16)[:, ::2]
    c2 = torch.empty(200, 528, device="cuda", dtype=torch.float16)[:, ::2]
    Kernel(CDIR, "matmul_persistent", i)(a2, b2, c2, 200, 264, 136,
                                         *a2.stride(), *b2.stride(),
                                         *c2.stride())
    torch.cuda.synchronize()
    assert (c2.double() - a2.double() @ b2.double()).abs().max() < 0.1
# splitk_general also with one operand's rows misaligned (its copies).
for name, pad_a, pad_b in [("splitk_aligned", 0, 0), ("splitk_general", 0, 0),
                           ("splitk_general", 1, 0), ("splitk_general", 0, 1)]:
    a = torch.randn(64, 512 + pad_a, device="cuda", dtype=torch.float16)[:, :512]
    b = torch.randn(512, 128 + pad_b, device="cuda", dtype=torch.float16)[:, :128]
    c = torch.zeros(64, 128, device="cuda")
    Kernel(CDIR, name).bind(a, b, c, 64, 128, 512, *a.stride(), *b.stride(),
                            *c.stride(), grid=(1, 2, 4))()
    torch.cuda.synchronize()
    assert (c.double() - a.double() @ b.double()).abs().max() < 1e-2, name
# Matmuls made persistent (tile-persistent-programs: 128x256 tiles, one
# program per SM): 144 tiles on 132 programs, so that some programs walk
# two; K = 137 sends A to its operand copy, B transposed to the general
# path.
for K, transposed in [(136, False), (137, False), (136, True)]:
    a = torch.randn(2304, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, 2048, device="cuda", dtype=torch.float16)
    if transposed:
        b = b.t().contiguous().t()
    ref = a.double() @ b.double()
    for directory, name in [(KDIR, "matmul_nohints_all"), (CDIR, "matmul_fp16")]:
        c = torch.empty(2304, 2048, device="cuda", dtype=torch.float16)
        Kernel(directory, name, 0)(a, b, c, 2304, 2048, K, *a.stride(),
                                   *b.stride(), *c.stride())
        err = ((c.double() - ref).norm() / ref.norm()).item()
        assert err < 2e-3, (name, K, transposed, err)
# Block-pointer and leaky-relu matmuls with one operand's rows misaligned:
# the per-operand copies of tile-version-arguments.
for name, count in [("matmul_block_ptr",
                     len(json.load(open(f"{CDIR}/matmul_block_ptr.json")))),
                    ("matmul_leaky", None)]:
    for pad_a, pad_b in [(1, 0), (0, 1)]:
        a = torch.randn(192, 320 + pad_a, device="cuda",
                        dtype=torch.float16)[:, :320]
        b = torch.randn(320, 256 + pad_b, device="cuda",
                        dtype=torch.float16)[:, :256]
        ref = a.double() @ b.double()
        if name == "matmul_leaky":
            ref = torch.where(ref >= 0, ref, 0.01 * ref)
        for index in range(count) if count else [None]:
            c = torch.empty(192, 256, device="cuda", dtype=torch.float16)
            Kernel(CDIR, name, index)(a, b, c, 192, 256, 320, *a.stride(),
                                      *b.stride(), *c.stride())
            err = ((c.double() - ref).norm() / ref.norm()).item()
            assert err < 2e-3, (name, index, pad_a, pad_b, err)
sanitize_mma8.run(CDIR)
torch.cuda.synchronize()
print("sanitize_examples: all launches done")
