"""Checks cast_rtz.tile's output (see cast-rtz.test): fp16 and bf16
conversions rounded toward zero and to nearest even, from float64 math."""
import sys

import numpy as np


def toward_zero_f16(x):
    r = x.astype(np.float16)
    # One step toward zero where nearest rounding moved away from zero
    # (or overflowed to infinity).
    away = np.abs(r.astype(np.float64)) > np.abs(x.astype(np.float64))
    stepped = np.nextafter(r, np.float16(0))
    return np.where(away, stepped, r).astype(np.float32)


def bf16(x, toward_zero):
    bits = x.view(np.uint32).astype(np.uint64)
    if not toward_zero:
        bits = bits + 0x7FFF + ((bits >> 16) & 1)
    return ((bits >> 16) << 16).astype(np.uint32).view(np.float32)


x = np.load(sys.argv[1])
o = np.load(sys.argv[2]).reshape(4, -1)
want = [toward_zero_f16(x), x.astype(np.float16).astype(np.float32),
        bf16(x, True), bf16(x, False)]
for i, w in enumerate(want):
    np.testing.assert_array_equal(o[i], w, err_msg=f"row {i}")
assert o[0][0] == 65504.0 and o[0][1] == -65504.0, o[0][:2]
print("rtz ok")
