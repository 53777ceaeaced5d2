"""Load and launch one PTX kernel that tilec compiled, with CuPy and the
metadata JSON beside it (bench/gpu_cpu_compare.py, probe_serving_gpu.py)."""
import json

import cupy as cp


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
