#!/usr/bin/env python3
"""Checks the reference shims against hand-computed NumPy results."""
import numpy as np

import pyasc
import te
import te_op
from pyasc import Tensor, float16, float32, nn

cce = te.lang.cce


@te_op.register("custom_relu")
def custom_relu(input_tensor):
    return cce.vmax(input_tensor, 0)


def func(a: Tensor[float32]) -> Tensor[float32]:
    return a * 2


x16 = np.array([-1.5, 0.0, 2.0, -0.25], dtype=np.float16)
x32 = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)

assert repr(Tensor[float32, 256, 256]) == "Tensor[float32, 256, 256]"
assert Tensor[float32, "N", 4].matches(x32) and not Tensor[float16].matches(x32)
assert func.__annotations__["a"] == Tensor[float32]
assert func(x32).dtype == np.float32
assert pyasc.pragma("parallelize", factor=4) is None

assert custom_relu(x16).tolist() == [0.0, 0.0, 2.0, 0.0] and custom_relu(x16).dtype == np.float16
assert te_op.registered() == ["custom_relu"] and te_op.lookup("custom_relu") is custom_relu
assert cce.vadds(x16, 1).dtype == np.float16
assert cce.vaxpy(x32, x32, 2.0).tolist() == (x32 * 3).tolist()
assert cce.vmadd(x32, x32, x32).tolist() == (x32 * x32 + x32).tolist()
assert cce.vcmp(x32, 0, "gt").dtype == np.bool_
assert cce.vsel(x32 > 0, x32, 0).tolist() == np.where(x32 > 0, x32, 0).tolist()
assert cce.floor(x32).dtype == np.int32 and cce.round(np.array([0.5, 1.5])).tolist() == [0, 2]
assert cce.sum(x32, axis=[0, 1]).item() == np.float32(x32.sum())
assert cce.broadcast(x32[0], (3, 4)).shape == (3, 4)
assert cce.matmul(x16.reshape(1, 4), x16.reshape(4, 1), dst_dtype="float32").dtype == np.float32
assert cce.concat([x32, x32], 0).shape == (6, 4)
assert cce.clip(x32, 1.0, -1.0).max() == 1.0

s = nn.softmax(x32)
assert s.dtype == np.float32 and np.allclose(s.sum(axis=-1), 1)
assert np.allclose(nn.log_softmax(x32), np.log(s), atol=1e-6)
ln = nn.layer_norm(x32, np.ones(4, np.float32), np.zeros(4, np.float32))
assert np.allclose(ln.mean(axis=-1), 0, atol=1e-6)
bn = nn.batch_norm(x32, np.zeros(4), np.ones(4), np.ones(4), np.zeros(4), axis=1, eps=0.0)
assert np.allclose(bn, x32)
assert nn.relu(x16).tolist() == [0.0, 0.0, 2.0, 0.0]
assert nn.leaky_relu(x32, 0.5).min() == np.float32(-1.0)
assert np.allclose(nn.sigmoid(np.zeros(2, np.float32)), 0.5)
assert abs(float(nn.gelu(np.array([1.0], np.float32))[0]) - 0.8411920) < 1e-6
assert nn.tanh(x16).dtype == np.float16
print("shims ok")
