"""Where a probe case's GPU outputs differ from the CPU mode's: for one
case directory written by a probe's PROBE_EXPORT (or a copy holding one
case), launch it and print, per output, how many elements differ (NaN on
one side only, or beyond 4e-3 of the largest value) and, per axis, the
indices where they do.

usage (on the device): python3 bench/probe_case_diff.py DIR...
"""
import json
import sys

import cupy as cp
import numpy as np

from cupy_case import case_args, launch, load

for directory in sys.argv[1:]:
    for case in json.load(open(f"{directory}/manifest.json")):
        name = case["name"]
        fn, md = load(f"{directory}/{name}.ptx", f"{directory}/{name}.json")
        args, arrays = case_args(directory, case, md)
        launch(fn, md, case["grid"], args)
        for out in case["outputs"]:
            gpu = cp.asnumpy(arrays[out]).astype(np.float64)
            cpu = np.load(f"{directory}/{name}.{out}.cpu.npy").astype(np.float64)
            scale = max(np.nanmax(np.abs(cpu)), 1e-30)
            bad = (np.isnan(gpu) != np.isnan(cpu)) | \
                (np.abs(np.nan_to_num(gpu) - np.nan_to_num(cpu)) > 4e-3 * scale)
            print(f"{directory} {name} {out} shape={cpu.shape}: {int(bad.sum())} "
                  f"differ (gpu NaN {int(np.isnan(gpu).sum())}, cpu NaN "
                  f"{int(np.isnan(cpu).sum())})", flush=True)
            if bad.any():
                for axis, idx in enumerate(np.nonzero(bad)):
                    u = np.unique(idx)
                    print(f"  axis {axis}: {len(u)} values {u[:12].tolist()}"
                          f"{' ...' if len(u) > 12 else ''} "
                          f"{u[-3:].tolist() if len(u) > 12 else ''}")
