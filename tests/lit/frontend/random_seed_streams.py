# np.random.seed starts a stream; rand/randn/random become random inputs with seed, stream and
# offset (values drawn before them) so the runtime regenerates NumPy's legacy MT19937 values.
# RUN: %asc-fe --emit=graph --no-locations %s | FileCheck %s
import numpy as np
np.random.seed(42)
a = np.random.rand(4, 8).astype(np.float32)
b = np.random.randn(8).astype(np.float32)
np.random.seed(7)
c = np.random.random((2, 2)).astype(np.float32)
d = np.random.random_sample(3).astype(np.float32)
out = a @ b + c.sum() + d.max()

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %rand : f32[4,8] random(rand, seed = 42, stream = 1, offset = 0)
# CHECK-NEXT:   input %rand_1 : f32[8] random(randn, seed = 42, stream = 1, offset = 32)
# CHECK-NEXT:   input %rand_2 : f32[2,2] random(rand, seed = 7, stream = 2, offset = 0)
# CHECK-NEXT:   input %rand_3 : f32[3] random(rand, seed = 7, stream = 2, offset = 4)
# CHECK-NEXT:   %matmul = MatMul(%rand, %rand_1) : f32[4]
# CHECK-NEXT:   %reducesum = ReduceSum(%rand_2) {keepdims = false} : f32[]
# CHECK-NEXT:   %add = Add(%matmul, %reducesum) : f32[4]
# CHECK-NEXT:   %reducemax = ReduceMax(%rand_3) {keepdims = false} : f32[]
# CHECK-NEXT:   %out = Add(%add, %reducemax) : f32[4]
# CHECK-NEXT:   output out = %out
# CHECK-NEXT: }
