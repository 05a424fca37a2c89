# source: PolyBench/C 4.2.1, kernel 'doitgen' (linear-algebra/kernels/doitgen, multiresolution analysis kernel, description in polybench.pdf), https://sourceforge.net/projects/polybench/
# Contract the last axis of a 3-D array with a square matrix, A[r,q,:] := A[r,q,:] @ C4.
import numpy as np

np.random.seed(9)
nr, nq, np_ = 10, 12, 16
A = np.random.rand(nr, nq, np_)
C4 = np.random.rand(np_, np_) / np_

A = np.einsum('rqs,sp->rqp', A, C4)
