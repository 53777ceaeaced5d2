"""The attention example's other paths on odd strides (float64 checks).

tile-pointer-tensor-maps copies K and V with TMA in the fast version of
examples/attention_fwd.tile, whose guard now also asks for positive row
strides; warp specialization runs the other versions in the consumer
warps only. This runs every config of the kernels as written (AOT, the
guarded versions) and of the JIT's facts on inputs that take each path:
contiguous (the fast version, TMA), K and V rows padded by 16 elements
(aligned, the fast version with another stride), rows padded by 4 (not a
multiple of 16 bytes: the general path), and K and V broadcast along the
sequence (row stride 0: the general path through the new sign test; as
written only, the JIT's facts would not hold).

usage: python3 bench/attention_strides_check.py DIR
"""
import sys

import torch

from tilelaunch import Kernel, rel_error

folder = sys.argv[1]
Z, H, N = 2, 4, 1024
failures = []


def inputs(kind, D):
    q = torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16)
    if kind == "contiguous":
        k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16)
                for _ in range(2))
    elif kind.startswith("padded"):
        pad = int(kind[len("padded"):])
        k, v = (torch.randn(Z, H, N, D + pad, device="cuda",
                            dtype=torch.float16)[..., :D] for _ in range(2))
    else:  # broadcast rows: stride 0 along the sequence
        k, v = (torch.randn(Z, H, 1, D, device="cuda",
                            dtype=torch.float16).expand(Z, H, N, D)
                for _ in range(2))
    return q, k, v


for D in [64, 128]:
    for stage in [1, 3]:
        for kind in ["contiguous", "padded16", "padded4", "broadcast"]:
            q, k, v = inputs(kind, D)
            scale = D ** -0.5
            ref = torch.nn.functional.scaled_dot_product_attention(
                q.double(), k.double(), v.double(), is_causal=stage == 3,
                scale=scale)
            for suffix in ["", "_jit"]:
                if suffix and kind not in ("contiguous", "padded16"):
                    continue  # the JIT's facts would not hold
                name = f"attention_d{D}_s{stage}{suffix}"
                for index in range(3):
                    o = torch.full_like(q, float("nan"))
                    m = torch.full((Z * H, N), float("nan"), device="cuda")
                    Kernel(folder, name, index).bind(
                        q, k, v, scale, m, o, *q.stride(), *k.stride(),
                        *v.stride(), *o.stride(), Z, H, N)()
                    torch.cuda.synchronize()
                    err = rel_error(o, ref)
                    ok = err == err and err <= 5e-3
                    print(f"{'PASS' if ok else 'FAIL'} {name} config {index} "
                          f"{kind} strides k={tuple(k.stride())} "
                          f"rel_err={err:.2e}")
                    if not ok:
                        failures.append((name, index, kind))
print(f"failures: {len(failures)} {failures}")
