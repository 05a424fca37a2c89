# The reference guide's pragma example (§3.3), verbatim: the factor lands on the loop node.
# RUN: %asc-fe --emit=graph %s | FileCheck %s
import numpy as np
data = np.ones(1024, dtype=np.float32)

# pragma: parallelize factor=4
for i in range(1024):
    data[i] = data[i] * 2

# CHECK-LABEL: graph {
# CHECK-NEXT:   const %cst : f32[] = [2.0] loc("{{.*}}guide_parallelize_pragma.py":8:25)
# CHECK-NEXT:   %data = Fill() {shape = [1024], dtype = "float32", value = 1.0} : f32[1024] loc("{{.*}}guide_parallelize_pragma.py":4:8)
# CHECK-NEXT:   %data_3 = Loop(%data) {start = 0, stop = 1024, step = 1, parallel_factor = 4} : f32[1024] (%i : s32[], %data_1 : f32[1024]) {
# CHECK-NEXT:     %slice = Slice(%data_1, %i) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[1] loc("{{.*}}guide_parallelize_pragma.py":8:15)
# CHECK-NEXT:     %squeeze = Squeeze(%slice) {axes = [0]} : f32[] loc("{{.*}}guide_parallelize_pragma.py":8:15)
# CHECK-NEXT:     %mul = Mul(%squeeze, %cst) : f32[] loc("{{.*}}guide_parallelize_pragma.py":8:15)
# CHECK-NEXT:     %expanddims = ExpandDims(%mul) {axes = [0]} : f32[1] loc("{{.*}}guide_parallelize_pragma.py":8:5)
# CHECK-NEXT:     %data_2 = SliceUpdate(%data_1, %expanddims, %i) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[1024] loc("{{.*}}guide_parallelize_pragma.py":8:5)
# CHECK-NEXT:     yield %data_2
# CHECK-NEXT:   } loc("{{.*}}guide_parallelize_pragma.py":7:1)
# CHECK-NEXT:   output data = %data_3
# CHECK-NEXT: }
