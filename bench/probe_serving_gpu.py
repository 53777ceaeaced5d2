"""Device half of the serving probe: run the cases that
`PROBE_EXPORT=.carry/probe_serving /usr/bin/python3 bench/probe_serving_cpu.py
--no-gpu-compile` exported (PTX compiled here, no --signature, inputs and the
CPU mode's outputs) with cupy, and compare the GPU's outputs with the CPU
mode's (which the driver checked against float64): NaN-free and
max |gpu - cpu| / max |cpu| <= 4e-3 (fp16 output rounding level; 8e-3
for bf16 outputs, compared as values, not as their bit patterns).

usage (on the device): python3 bench/probe_serving_gpu.py .carry/probe_serving
"""
import json
import sys

import cupy as cp
import numpy as np

from cupy_case import case_args, launch, load

DIR = sys.argv[1]


def bf16_values(bits):
    """fp32 values of bf16 bit patterns (stored as uint16)."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


failed = 0
for case in json.load(open(f"{DIR}/manifest.json")):
    fn, md = load(f"{DIR}/{case['name']}.ptx", f"{DIR}/{case['name']}.json")
    args, arrays = case_args(DIR, case, md)
    launch(fn, md, case["grid"], args)
    types = {p["name"]: p["type"] for p in md["params"]}
    for out in case["outputs"]:
        gpu = cp.asnumpy(arrays[out])
        cpu = np.load(f"{DIR}/{case['name']}.{out}.cpu.npy")
        tol = 4e-3
        if types.get(out) == "*bf16":  # NumPy has no bf16: values, not bits
            gpu, cpu = (bf16_values(x) for x in (gpu, cpu))
            tol = 8e-3  # one bf16 step is 2^-8 of a value
        gpu, cpu = gpu.astype(np.float64), cpu.astype(np.float64)
        fin = ~np.isnan(cpu)  # buffers the kernel leaves unwritten (NaN-filled)
        nan_mismatch = bool((np.isnan(gpu) != np.isnan(cpu)).any())
        err = np.abs(gpu[fin] - cpu[fin]).max() / max(np.abs(cpu[fin]).max(), 1e-30)
        ok = not nan_mismatch and err <= tol
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']} {out}: "
              f"max|gpu-cpu|/max|cpu| = {err:.2e} nan_mismatch={nan_mismatch}"
              f"  [{case['label']}]", flush=True)
print("all agree" if not failed else f"{failed} disagree")
sys.exit(1 if failed else 0)
