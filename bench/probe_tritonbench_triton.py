"""Device half of the tritonbench probe's compile table: the kernels of
bench/kernels/probe_tritonbench.tile turned back into Python (as
bench/probe_generality_triton.py does) and compiled by Triton at the same
launch settings and JIT facts as bench/probe_tritonbench_cpu.py's GPU
builds, with Triton's register, spill and shared-memory counts.

usage (on the device, with triton):
    python3 bench/probe_tritonbench_triton.py [LABEL_PART ...] [-LABEL_PART ...]
(builds whose label contains a LABEL_PART; -LABEL_PART leaves them out)
"""
import os
import subprocess
import sys
import tempfile
import types

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probe_generality_cpu as pg  # noqa: E402
import probe_generality_triton as pgt  # noqa: E402
import probe_tritonbench_cpu as pt  # noqa: E402

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16,
          "fp32": torch.float32, "i8": torch.int8, "i16": torch.int16,
          "i32": torch.int32, "i64": torch.int64}


# The .tile imports tritonbench's host helpers as published; the device has
# no tritonbench, so the import gets their two functions (this is CUDA).
_env_utils = types.ModuleType("tritonbench.utils.env_utils")
_env_utils.is_cuda = lambda: True
_env_utils.is_hip = lambda: False
for _name in ("tritonbench", "tritonbench.utils"):
    sys.modules.setdefault(_name, types.ModuleType(_name))
sys.modules["tritonbench.utils.env_utils"] = _env_utils


def arg_for(annot):
    if annot.startswith("*"):
        return torch.empty(64, dtype=DTYPES[annot[1:].split(":")[0]],
                           device="cuda")  # 256-byte aligned
    return pgt.arg_for(annot)


def main():
    only = [a for a in sys.argv[1:] if not a.startswith("-")]
    skip = [a[1:] for a in sys.argv[1:] if a.startswith("-")]
    tmp = tempfile.mkdtemp()
    mod = pgt.as_python(pt.TILE, tmp)
    print(f"Triton {triton.__version__}, {torch.cuda.get_device_name()}: "
          "the GPU builds with the JIT facts")
    builds = pt.GPU_BUILDS + [b for _, b in pt.GPU_BUILDS_TYPED]
    for label, _, kernel, defs, warps, stages, sig in builds:
        if (only and not any(o in label for o in only)) or \
                any(s in label for s in skip):
            continue
        jit, facts, consts = pgt.build_inputs(mod, kernel, defs, sig)
        args = {name: arg_for(facts.get(name, "i32"))
                for name in jit.arg_names if name not in consts}
        try:
            k = jit.warmup(grid=(1,), num_warps=warps, num_stages=stages,
                           **args, **consts)
            k._init_handles()
            with open(os.path.join(tmp, "k.cubin"), "wb") as f:
                f.write(k.asm["cubin"])
            sass = subprocess.run([pgt.cuobjdump(), "--dump-sass",
                                   os.path.join(tmp, "k.cubin")],
                                  capture_output=True, text=True).stdout
            c = pg.sass_counts(sass)
            other = " ".join(f"{a}={c[a]}" for a in pg.SASS_OPS)
            print(f"  {label} [Triton]: regs={k.n_regs} spills={k.n_spills} "
                  f"shared={k.metadata.shared} | {other}", flush=True)
        except Exception as e:  # report and go on
            print(f"  {label} [Triton]: FAILED {type(e).__name__}: "
                  f"{str(e)[:400]}", flush=True)


if __name__ == "__main__":
    main()
