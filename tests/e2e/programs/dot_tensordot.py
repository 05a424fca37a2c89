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
# N-d np.dot: over the first operand's last axis and the second's second to last
p = np.random.rand(2, 3, 4, 5).astype(np.float32)
q = np.random.rand(2, 5, 7).astype(np.float32)
v = np.random.rand(5).astype(np.float32)
d4 = np.dot(p, q[0])
d5 = np.dot(p, q)
d1 = p.dot(v)
d0 = np.dot(v, q)
dl = np.dot([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.random.rand(2, 2, 2).astype(np.float32))
ds = np.dot(np.sum(a), b)
