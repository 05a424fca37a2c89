# source: N. Rougier, From Python to NumPy (2017), §4.3 Temporal vectorization, Mandelbrot set (NumPy implementation), https://www.labri.fr/perso/nrougier/from-python-to-numpy/
# Escape-time iteration counts of the Mandelbrot map on a 48 x 48 grid of the complex plane, 24 iterations
import numpy as np

xmin, xmax, xn = -2.25, 0.75, 48
ymin, ymax, yn = -1.25, 1.25, 48
maxiter = 24
horizon = 2.0

X = np.linspace(xmin, xmax, xn, dtype=np.float32)
Y = np.linspace(ymin, ymax, yn, dtype=np.float32)
C = X + Y[:, None] * 1j
N = np.zeros(C.shape, dtype=int)
Z = np.zeros(C.shape, np.complex64)
for n in range(maxiter):
    I = np.less(abs(Z), horizon)
    N[I] = n
    Z[I] = Z[I] ** 2 + C[I]
N[N == maxiter - 1] = 0

counts = N
