"""Device half of the generality probe's compile table: the same kernels
(bench/kernels/probe_generality*.tile turned back into Python: `kernel` ->
`def`, the annotations dropped) compiled by Triton for the same launch
settings and the same JIT facts as bench/probe_generality_cpu.py's GPU_BUILDS
(pointers 16-byte aligned, integers multiples of 16 or 1), with Triton's
register and spill counts and the SASS counts of probe_generality_cpu's
table, to tell where a number is the kernel's and where it is tilec's.

usage (on the device, with triton): python3 bench/probe_generality_triton.py
"""
import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import torch
import triton
from triton.runtime.jit import JITFunction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_generality_cpu as pg  # noqa: E402

TYPES = r"\*?(?:fp16|bf16|fp32|fp64|i1|i8|i16|i32|i64|u8)(?::\d+)?"


def as_python(tile_path, out_dir):
    """The .tile file as a Python module of @triton.jit functions."""
    src = open(tile_path).read()

    def header(m):
        return "def " + re.sub(r"\b(\w+)\s*:\s*" + TYPES + r"(?=\s*[,)#\n])",
                               r"\1", m.group(1))
    src = re.sub(r"^kernel (\w+\((?:.|\n)*?\):)$", header, src, flags=re.M)
    path = os.path.join(out_dir, os.path.basename(tile_path)[:-5] + ".py")
    open(path, "w").write(src)
    spec = importlib.util.spec_from_file_location(
        os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def arg_for(annot):
    """A value Triton specializes as the --signature entry says."""
    if annot.startswith("*"):
        dt = {"fp16": torch.float16, "fp32": torch.float32,
              "i32": torch.int32, "i64": torch.int64}[annot[1:].split(":")[0]]
        return torch.empty(64, dtype=dt, device="cuda")  # 256-byte aligned
    if annot == "i32:1":
        return 1
    if annot == "i32:16":
        return 64
    return 17


def cuobjdump():
    import triton.backends.nvidia as nv
    found = glob.glob(os.path.join(os.path.dirname(nv.__file__), "bin",
                                   "cuobjdump"))
    return found[0] if found else "cuobjdump"


def build_inputs(module, kernel, defs, sig):
    """The JITFunction of `kernel` in `module` (under any @autotune), the
    --signature facts as a dict and the -D bindings as constexprs."""
    jit = getattr(module, kernel)
    while not isinstance(jit, JITFunction):  # under @autotune
        jit = jit.fn
    facts = dict(kv.split("=", 1) for kv in sig.split(","))
    consts = {}
    for d in defs.split():
        k, v = d.split("=", 1)
        consts[k] = {"True": True, "False": False}.get(
            v, int(v) if v.lstrip("-").isdigit() else v)
    return jit, facts, consts


def main():
    tmp = tempfile.mkdtemp()
    mods = {pg.TILE: as_python(pg.TILE, tmp),
            pg.TILE_IND: as_python(pg.TILE_IND, tmp)}
    print(f"Triton {triton.__version__}, {torch.cuda.get_device_name()}: "
          "the GPU_BUILDS with the JIT facts")
    for label, tile, kernel, defs, warps, stages, sig in pg.GPU_BUILDS:
        jit, facts, consts = build_inputs(mods[tile], kernel, defs, sig)
        args = []
        for name in jit.arg_names:
            if name in consts:
                continue
            if name in facts:
                args.append(arg_for(facts[name]))
            elif name == "softmax_scale":
                args.append(0.125)
            else:
                args.append(17)
        try:
            k = jit.warmup(*args, grid=(1,), num_warps=warps,
                           num_stages=stages, **consts)
            k._init_handles()
            with open(os.path.join(tmp, "k.cubin"), "wb") as f:
                f.write(k.asm["cubin"])
            sass = subprocess.run([cuobjdump(), "--dump-sass",
                                   os.path.join(tmp, "k.cubin")],
                                  capture_output=True, text=True).stdout
            c = pg.sass_counts(sass)
            ld = " ".join(f"{a}={b}" for a, b in sorted(c.items())
                          if a.startswith("LDG"))
            st = " ".join(f"{a}={b}" for a, b in sorted(c.items())
                          if a.startswith("STG"))
            other = " ".join(f"{a}={c[a]}" for a in pg.SASS_OPS)
            print(f"  {label} [Triton]: regs={k.n_regs} spills={k.n_spills} "
                  f"shared={k.metadata.shared} | {ld} | {st} | {other}",
                  flush=True)
        except Exception as e:  # report and go on
            print(f"  {label} [Triton]: FAILED {type(e).__name__}: "
                  f"{str(e)[:400]}", flush=True)


if __name__ == "__main__":
    main()
