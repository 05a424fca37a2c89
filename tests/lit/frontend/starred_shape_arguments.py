# A compile-time tuple spreads into positional arguments: np.random.randn(*a.shape), a.reshape(*dims).
# RUN: %asc-fe --emit=graph --no-locations %s | FileCheck %s
import numpy as np
a = np.ones((3, 4), dtype=np.float32)
np.random.seed(0)
noisy = a * np.random.randn(*a.shape).astype(np.float32)
dims = (4, 3)
flipped = noisy.reshape(*dims)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %rand : f32[3,4] random(randn, seed = 0, stream = 1, offset = 0)
# CHECK-NEXT:   %a = Fill() {shape = [3, 4], dtype = "float32", value = 1.0} : f32[3,4]
# CHECK-NEXT:   %noisy = Mul(%a, %rand) : f32[3,4]
# CHECK-NEXT:   %flipped = Reshape(%noisy) {shape = [4, 3]} : f32[4,3]
# CHECK-NEXT:   output flipped = %flipped
# CHECK-NEXT: }
