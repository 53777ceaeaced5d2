"""Launch tilec-compiled kernels from Python (CuPy) on the device machine.

A Kernel reads the PTX (or a cubin beside it) and the JSON metadata tilec
wrote, evaluates the
launch grid from the metadata's `grid` expressions, passes the dynamic
shared memory it names, and checks that the arguments satisfy the
specialization the kernel was compiled for (divisibility, value 1), so a
mismatched launch fails loudly instead of computing garbage.
"""
import json
import os
import statistics

import cupy as cp
import numpy as np
import torch


def cdiv(a, b):
    return -(-a // b)


class Kernel:
    def __init__(self, directory, name, index=None):
        self.name = name
        md = json.load(open(f"{directory}/{name}.json"))
        self.md = md if isinstance(md, dict) else md[index]
        # A cubin next to the PTX (assembled with chosen ptxas options)
        # takes precedence over the driver's JIT of the PTX.
        cubin = f"{directory}/{name}.cubin"
        self.module = cp.RawModule(
            path=cubin if os.path.exists(cubin) else f"{directory}/{name}.ptx")
        self.fn = self.module.get_function(self.md["kernel"])
        shared = self.md["shared_bytes"]
        if shared > 48 * 1024:
            self.fn.max_dynamic_shared_size_bytes = shared

    def grid(self, args):
        env = {"cdiv": cdiv, "min": min, "max": max}
        for p, a in zip(self.md["params"], args):
            env[p["name"]] = a
        return tuple(int(eval(g, env)) for g in self.md["grid"])

    def accepts(self, *args):
        """Whether the arguments satisfy the kernel's specialization."""
        for p, a in zip(self.md["params"], args):
            value = a.data_ptr() if torch.is_tensor(a) else a
            if "value" in p and value != p["value"]:
                return False
            if "divisibility" in p and value % p["divisibility"]:
                return False
        return True

    def __call__(self, *args):
        self.bind(*args)()

    def bind(self, *args, grid=None):
        """A launcher for these arguments with the host work done once; it
        launches on PyTorch's current stream (so CUDA graphs capture it).
        `grid` overrides the metadata's (a kernel without @grid, whose host
        picks the grid: a persistent kernel)."""
        if not self.accepts(*args):
            raise ValueError(f"{self.md['kernel']}: arguments break the "
                             f"specialization {self.md['params']}")
        converted = []
        for p, a in zip(self.md["params"], args):
            t = p["type"]
            if t.startswith("*"):
                # CuPy has no fp8 dtype: one-byte floats pass as bytes.
                fp8 = a.is_floating_point() and a.element_size() == 1
                converted.append(cp.from_dlpack(a.view(torch.uint8) if fp8
                                                else a))
            elif t == "i32":
                converted.append(np.int32(a))
            elif t == "i64":
                converted.append(np.int64(a))
            elif t == "fp32":
                converted.append(np.float32(a))
            else:
                raise ValueError(t)
        assert len(converted) == len(self.md["params"])
        grid = tuple(grid) if grid else self.grid(args)
        block = (self.md["threads_per_block"], 1, 1)
        converted, shared = tuple(converted), self.md["shared_bytes"]

        def launch():
            stream = cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)
            self.fn(grid, block, converted, shared_mem=shared, stream=stream)
        return launch


def descriptor_parts(x):
    """A tensor descriptor argument (a `tensordesc<...>` parameter) for
    tensor `x`: its base, shape and strides but the last (which is 1)."""
    assert x.stride()[-1] == 1, "a descriptor's last dimension is contiguous"
    return (x, *x.shape, *x.stride()[:-1])


def median_ms(fn, reps=10, warmup=1):
    """Median of `reps` CUDA-event timings of fn() after `warmup` calls."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(True), torch.cuda.Event(True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def graph_ms(fn, launches=20, reps=10):
    """Median time of one fn() when `launches` calls replay as one CUDA
    graph (so host launch overhead, ours or the baselines', is not timed)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(launches):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(True), torch.cuda.Event(True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / launches)
    return sorted(times)[len(times) // 2]


def rel_error(out, ref):
    """Relative Frobenius error of out against a float64 reference."""
    out = out.double()
    if torch.isnan(out).any():
        return float("nan")
    denom = ref.norm().item()
    return (out - ref).norm().item() / (denom if denom else 1.0)


def bind_attention(kern, q, k, v, scale, ref, *extra):
    """A launcher of examples/attention_fwd.tile's kernel (or a variant
    with `extra` arguments after its own) on fp16 q, k, v of shape
    (Z, H, N, D), run once and checked against `ref`, the float64 result
    of the first batch's first two heads. Returns the launcher, its output
    and the error."""
    Z, H, N, _ = q.shape
    o = torch.full_like(q, float("nan"))
    m = torch.empty((Z * H, N), device="cuda")
    run = kern.bind(q, k, v, scale, m, o, *q.stride(), *k.stride(),
                    *v.stride(), *o.stride(), Z, H, N, *extra)
    run()
    torch.cuda.synchronize()
    err = rel_error(o[:1, :2], ref)
    assert err < 5e-3, (kern.name, err)
    return run, o, err


def logger(path=None):
    """A log(msg) that prints and, with a path, also appends to that file."""
    out = open(path, "w") if path else None

    def log(msg):
        print(msg, flush=True)
        if out:
            out.write(msg + "\n")
            out.flush()
    return log


class BandwidthComparison:
    """The contenders of memory-bound cases (tilec first, then the others:
    Triton, torch): each checked against float64 on fresh data, then timed
    in interleaved rounds (CUDA graphs); the speed ratios are medians of
    per-round ratios. Failed checks and one summary row per case are kept
    for the caller's report."""

    def __init__(self, log, rounds=5):
        self.log, self.rounds = log, rounds
        self.failures, self.summary = [], []

    def compare(self, label, fns, nbytes, check, tol=2e-3):
        """check(name) runs contender `name` on fresh data and returns its
        error against float64; `nbytes` is what the operation must read
        and write once."""
        for name in fns:
            err = check(name)
            ok = err == err and err <= tol
            self.log(f"  check {label} {name}: rel_err={err:.2e} "
                     f"{'ok' if ok else 'FAIL'}")
            if not ok:
                self.failures.append(f"{label} {name}")
        times = {n: [] for n in fns}
        for _ in range(self.rounds):
            for n, fn in fns.items():
                times[n].append(graph_ms(fn))
        med = {n: statistics.median(t) for n, t in times.items()}
        speed = {n: 1 / statistics.median(t / u for t, u in
                                          zip(times["tilec"], times[n]))
                 for n in fns if n != "tilec"}
        tbs = {n: nbytes / med[n] / 1e9 for n in fns}
        self.log(f"{label}: " + " ".join(f"{n} {tbs[n]:.2f} TB/s" for n in fns)
                 + "; " + ", ".join(f"tilec/{n} {r:.2f}x"
                                    for n, r in speed.items()))
        self.summary.append((label, med["tilec"], tbs, speed))


def triton_from_tile(path, first, end_marker="\n# ---"):
    """The kernels of a .tile port as a Triton module: the text from the line
    that starts `first` (a `kernel` or helper header) to `end_marker`, each
    `kernel NAME(` header back to `@triton.jit def NAME(` and each run-time
    parameter's annotation dropped; the bodies are untouched."""
    import importlib.util
    import re
    import tempfile
    text = open(path).read()
    start = text.index(first)
    start = text.rfind("\n", 0, start) + 1
    end = text.find(end_marker, start)
    end = len(text) if end < 0 else end  # the file's last kernel
    body = re.sub(r"^kernel (\w+)\(", r"@triton.jit\ndef \1(",
                  text[start:end], flags=re.M)
    body = body.replace("@triton.jit\n@triton.jit\n", "@triton.jit\n")
    # Run-time parameters' annotations (`x: *fp16`, `n: i32`), one or
    # several a line, inside each kernel's header only.
    body = re.sub(r"(def \w+\()(.*?)(\):)",
                  lambda h: h.group(1) + re.sub(
                      r"(\w+): \*?[a-z][a-z0-9]*(?=\s*[,)])", r"\1",
                      h.group(2)) + h.group(3), body, flags=re.S)
    src = "import triton\nimport triton.language as tl\n\n\n" + body
    name = os.path.splitext(os.path.basename(path))[0] + "_triton"
    module_path = os.path.join(tempfile.mkdtemp(), name + ".py")
    open(module_path, "w").write(src)
    spec = importlib.util.spec_from_file_location(name, module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tilec_builds(folder, baseline, name, kargs, grid):
    """Launchers of `name`'s two builds in `folder` (`NAME_jit`: the JIT's
    facts; `NAME`: as written), labelled "tilec JIT facts" and "tilec as
    written"; with a `baseline` folder the same, labelled "old tilec ...".
    """
    launchers = {}
    for tag, where in [("", folder)] + ([("old ", baseline)] if baseline
                                        else []):
        for suffix, label in (("_jit", "JIT facts"), ("", "as written")):
            launchers[f"{tag}tilec {label}"] = Kernel(
                where, name + suffix).bind(*kargs, grid=grid)
    return launchers


def interleaved_times(contenders, rounds):
    """Each contender's graph_ms in each of `rounds` rounds, the contenders
    interleaved within a round."""
    times = {label: [] for label in contenders}
    for _ in range(rounds):
        for label, fn in contenders.items():
            times[label].append(graph_ms(fn))
    return times


def speed_ratio(times, a, b):
    """a's speed over b's: the median of the per-round ratios."""
    return statistics.median(tb / ta for ta, tb in zip(times[a], times[b]))


def check_output(log, name, launch, out, ref, tol):
    """Runs `launch` into `out` (NaN first) and asserts it matches the
    float64 `ref` within `tol` (relative Frobenius error)."""
    out.fill_(float("nan"))
    launch()
    torch.cuda.synchronize()
    err = rel_error(out, ref)
    log(f"  check {name} rel_err={err:.2e}")
    assert err <= tol, f"{name} is wrong"


def check_and_time(log, label, contenders, ref, rounds, flops, tol=2e-3):
    """`contenders` maps a name to (fn, out): each fn() is checked against
    the float64 `ref` (its `out` filled with NaN first), then all are timed
    in `rounds` interleaved rounds. One RESULT line per contender: its
    TFLOP/s (median time) and its speed over each other one (the median of
    the per-round ratios)."""
    for name, (fn, out) in contenders.items():
        check_output(log, f"{label} {name}", fn, out, ref, tol)
    times = interleaved_times({n: fn for n, (fn, _) in contenders.items()},
                              rounds)
    for name in contenders:
        ms = statistics.median(times[name])
        log(f"RESULT {label} {name:12s} {flops / ms / 1e9:6.1f} TFLOP/s " +
            " ".join(f"{speed_ratio(times, name, other):.3f}x {other}"
                     for other in contenders if other != name))


def log_tilec_ratios(log, times, versus, baseline):
    """One line per tilec contender: its speed over each of `versus`
    (label: name) and, with a baseline, over its "old " counterpart."""
    for label in times:
        if not label.startswith("tilec"):
            continue
        parts = [f"{speed_ratio(times, label, other):.2f}x {shown}"
                 for other, shown in versus.items()]
        if baseline:
            parts.append(f"{speed_ratio(times, label, 'old ' + label):.3f}x old")
        log(f"    {label}: " + ", ".join(parts))
