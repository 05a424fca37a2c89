# dot, tensordot and einsum forms that map onto the cube unit.
import numpy as np

np.random.seed(13)
a = np.random.rand(20, 30).astype(np.float32)
b = np.random.rand(30, 12).astype(np.float32)
x = np.random.rand(30).astype(np.float32)
c = np.dot(a, b)
y = a @ x
t = np.tensordot(a, b, axes=1)
e = np.einsum("ij,jk->ik", a, b)
