"""Run .tile kernels on the CPU through tile-run and compare with NumPy.

Tests call run() with NumPy arrays for the pointer parameters and Python
numbers for the scalars; the arrays go to tile-run as .npy files, every
buffer is dumped after the run and returned. References are computed here,
independently of the interpreter, in float64.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

TILE_RUN = os.environ.get("TILE_RUN", "tile-run")


def run(tile_file, args, kernel=None, defines=(), grid=None, extra=()):
    """Run `kernel` of `tile_file`; return {name: array after the run}."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [TILE_RUN, tile_file]
        if kernel:
            cmd += ["-k", kernel]
        for d in defines:
            cmd += ["-D", d]
        if grid:
            cmd += ["--grid", ",".join(str(g) for g in grid)]
        buffers = {}
        for name, value in args.items():
            if isinstance(value, np.ndarray):
                path = os.path.join(tmp, name + ".npy")
                np.save(path, np.ascontiguousarray(value))
                cmd += ["--arg", f"{name}=file:{path}"]
                buffers[name] = os.path.join(tmp, name + ".out.npy")
                cmd += ["--dump", f"{name}={buffers[name]}"]
            else:
                cmd += ["--arg", f"{name}={value}"]
        cmd += list(extra)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"tile-run failed ({proc.returncode}): "
                               f"{' '.join(cmd)}\n{proc.stderr}")
        return {name: np.load(path) for name, path in buffers.items()}


def run_expecting_error(tile_file, args, **kw):
    """Run and return tile-run's error text (the run must fail)."""
    try:
        run(tile_file, args, **kw)
    except RuntimeError as e:
        return str(e)
    raise AssertionError("the run was expected to fail")


def rel_error(out, ref):
    out = np.asarray(out, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if np.isnan(out).any() != np.isnan(ref).any():
        return float("inf")
    denom = np.linalg.norm(ref)
    return float(np.linalg.norm(out - ref) / (denom if denom else 1.0))


_failures = []


def check(name, out, ref, tol):
    err = rel_error(out, ref)
    ok = err <= tol
    print(f"{'PASS' if ok else 'FAIL'} {name}: rel_err={err:.3e} tol={tol:.0e}")
    if not ok:
        _failures.append(name)


def check_true(name, cond, detail=""):
    print(f"{'PASS' if cond else 'FAIL'} {name} {detail}")
    if not cond:
        _failures.append(name)


def finish():
    if _failures:
        print(f"FAILED: {', '.join(_failures)}")
        sys.exit(1)
    print("ALL PASSED")


def pack_addresses(buffer_index, mats):
    """For kernels that load addresses (tutorial 08's grouped GEMMs): an
    int64 array holding the matrices' CPU-mode addresses (byte o of pointer
    argument b is ((b + 1) << 40) + o, docs/interpreter.md), then their
    data. Returns the array and the byte offset of the first matrix."""
    head = 8 * len(mats)
    data, addrs, offset = [], [], head
    for m in mats:
        addrs.append(((buffer_index + 1) << 40) + offset)
        data.append(m.ravel().view(np.uint8))
        offset += m.nbytes
    raw = np.concatenate([np.array(addrs, np.int64).view(np.uint8)] + data)
    raw = np.concatenate([raw, np.zeros(-len(raw) % 8, np.uint8)])
    return raw.view(np.int64), head


def unpack_matrices(packed, head, like):
    """The matrices of a pack_addresses array after a run, shaped as
    `like`."""
    raw = packed.view(np.uint8)[head:]
    results, offset = [], 0
    for m in like:
        results.append(raw[offset:offset + m.nbytes].view(m.dtype)
                       .reshape(m.shape))
        offset += m.nbytes
    return results


def rng(seed=0):
    return np.random.default_rng(seed)


def attention_reference(q, k, v, scale, causal):
    """softmax(q k^T * scale) v in float64 over (Z, H, N, D) arrays, and each
    row's log-sum-exp in base 2 (what attention kernels store in M)."""
    s = np.einsum("zhmd,zhnd->zhmn", q.astype(np.float64),
                  k.astype(np.float64)) * scale
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    p = np.exp(s - m)
    out = np.einsum("zhmn,zhnd->zhmd", p / p.sum(axis=-1, keepdims=True),
                    v.astype(np.float64))
    lse = (m[..., 0] + np.log(p.sum(axis=-1))) / np.log(2)
    return out, lse
