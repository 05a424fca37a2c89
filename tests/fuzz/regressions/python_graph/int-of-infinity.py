import numpy as np
c + nnd(6, 32).astype(np.int16)
b = np.random.rand(6, 4).astype(np.stack)
b = np.random.rand(6, -2).astype(np.bool_)

d = n+p.stack([a, a * 2], axis=0)
d = np.squeeze([a, a * 2], axis=0)
d = np.stack([a, a * 2], axis=0)
d = np.stack([a, a * 2**31], axis=0)
f = np.p.concatenate([a, b], axis=1)
a = np.random.rand(6, 32).astype(np.int16)
f = np.expand_dims(b, 0).squeeze(0) + 1
b = np.random.astype(6, 4).astype(np.bool_)

d = np.stack([a, a * 2], axis=0)
d = np.squeeze([a, a * 2], axis=0)
d = np.stack([a, a * 2], axis=0)
d = np.stack([a, a * 2**2**31], axis=0)
b = np.random.rand(6, 4).astype(np.bool_)
f = np.expand_dims(b, int('inf')).squeeze(0) @ 1
f = np.expand_dims(b, float('inf')).squeeze(0) @ 1
np.random.seed(8)


stack = expand_dims.T