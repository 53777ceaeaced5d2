"""Run the cases of bench/make_cpu_reference.py on the GPU and compare with
the CPU interpreter's outputs: element-wise bit equality, max |diff| in units
of the output type's ulp, and relative error.

Element-wise and reduction outputs must agree within 4 ulp. A matrix
product may differ more, because the two sides accumulate differently (the
CPU with round-to-nearest FMAs in k order, the GPU's tensor cores in their
own order and, as measured, truncating): each element must stay within
ulp(out) + K * 2^-22 * (|A| @ |B|), i.e. one output rounding plus an
accumulation error of up to 2^-23 of the magnitude per addition on each
side; the largest fraction of that bound used is reported.

usage (on the device): python3 bench/gpu_cpu_compare.py .carry/cpu_vs_gpu
"""
import json
import sys

import cupy as cp
import numpy as np

from cupy_case import launch, load

DIR = sys.argv[1]


def cdiv(a, b):
    return -(-a // b)


def ulps(gpu, cpu):
    """|gpu - cpu| in units of the last place of cpu's type."""
    g = gpu.astype(np.float64)
    c = cpu.astype(np.float64)
    spacing = np.abs(np.spacing(cpu.astype(cpu.dtype))).astype(np.float64)
    return np.abs(g - c) / spacing


failed = 0
for case in json.load(open(f"{DIR}/manifest.json")):
    fn, md = load(f"{DIR}/{case['ptx']}", f"{DIR}/{case['json']}")
    args, env, arrays = [], {"cdiv": cdiv, "min": min, "max": max}, {}
    for a, p in zip(case["args"], md["params"]):
        if "npy" in a:
            arrays[a["name"]] = cp.asarray(np.load(f"{DIR}/{a['npy']}"))
            args.append(arrays[a["name"]])
        else:
            v = a["value"]
            env[a["name"]] = v
            args.append(np.float32(v) if p["type"] == "fp32" else np.int32(v))
    launch(fn, md, [int(eval(g, env)) for g in md["grid"]], args)
    for out in case["outputs"]:
        gpu = cp.asnumpy(arrays[out])
        cpu = np.load(f"{DIR}/{case['name']}.{out}.cpu.npy")
        equal = np.sum(gpu.view(np.uint8).reshape(gpu.size, -1) ==
                       cpu.view(np.uint8).reshape(cpu.size, -1), axis=1)
        bitwise = float(np.mean(equal == gpu.itemsize))
        u = ulps(gpu, cpu)
        rel = np.linalg.norm(gpu.astype(np.float64) - cpu) / np.linalg.norm(
            cpu.astype(np.float64))
        if "dot" in case:
            a = cp.asnumpy(arrays[case["dot"]["a"]]).astype(np.float64)
            b = cp.asnumpy(arrays[case["dot"]["b"]]).astype(np.float64)
            K = a.shape[1]
            spacing = np.abs(np.spacing(cpu)).astype(np.float64)
            bound = spacing + K * 2.0 ** -22 * (np.abs(a) @ np.abs(b))
            used = (np.abs(gpu.astype(np.float64) - cpu) / bound).max()
            ok = not np.isnan(gpu).any() and used <= 1
            verdict = f"bound used {used * 100:5.1f}%"
        else:
            ok = not np.isnan(gpu).any() and u.max() <= 4
            verdict = "within 4 ulp" if ok else "beyond 4 ulp"
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} {case['name']:22s} {out:9s} "
              f"bitwise-equal {bitwise * 100:6.2f}%  max {u.max():.0f} ulp  "
              f"rel {rel:.2e}  {verdict}")
print(f"{'all agree' if not failed else f'{failed} disagree'}")
sys.exit(1 if failed else 0)
