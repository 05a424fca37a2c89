# np.random.uniform, normal and standard_normal draw from NumPy's legacy stream, interleaved with
# rand: after np.random.seed, the same values in the same order as NumPy.
import numpy as np
np.random.seed(42)
a = np.random.uniform(-2.0, 3.0, size=(4, 5))
b = np.random.normal(1.5, 0.25, 7)
c = np.random.standard_normal((2, 3))
d = np.random.rand(3)
e = np.random.uniform(size=6)
