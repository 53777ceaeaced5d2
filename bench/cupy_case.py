"""Load and launch one PTX kernel that tilec compiled, with CuPy and the
metadata JSON beside it (bench/gpu_cpu_compare.py, probe_serving_gpu.py)."""
import json

import cupy as cp
import numpy as np


def load(ptx_path, json_path):
    """The kernel's function and its metadata (dynamic shared memory past
    48 KiB allowed)."""
    md = json.load(open(json_path))
    fn = cp.RawModule(path=ptx_path).get_function(md["kernel"])
    if md["shared_bytes"] > 48 * 1024:
        fn.max_dynamic_shared_size_bytes = md["shared_bytes"]
    return fn, md


def launch(fn, md, grid, args):
    """One launch with the metadata's block and shared memory, waited for."""
    grid = tuple(grid) + (1,) * (3 - len(grid))
    fn(grid, (md["threads_per_block"], 1, 1), tuple(args),
       shared_mem=md["shared_bytes"])
    cp.cuda.Device().synchronize()


def case_args(directory, case, md):
    """A probe case's launch arguments in the kernel's parameter order
    (bench/probe_serving_cpu.py's PROBE_EXPORT manifest entry `case`):
    buffers as device arrays (also returned by name), None as a null
    pointer, scalars at their parameter's width."""
    given = {a["name"]: a for a in case["args"]}
    args, arrays = [], {}
    for p in md["params"]:
        a = given[p["name"]]
        if "npy" in a:
            arrays[a["name"]] = cp.asarray(np.load(f"{directory}/{a['npy']}"))
            args.append(arrays[a["name"]])
        elif a["value"] is None:  # Triton's None: a null pointer
            args.append(np.uint64(0))
        elif p["type"] == "fp32":
            args.append(np.float32(a["value"]))
        elif p["type"] == "i64":
            args.append(np.int64(a["value"]))
        else:
            args.append(np.int32(a["value"]))
    return args, arrays
