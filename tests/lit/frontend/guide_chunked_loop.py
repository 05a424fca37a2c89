# The reference guide's chunked loop (§4.2), verbatim inside a program: kept as a loop whose slice
# offset is the induction variable; the helper's in-place update writes through the view.
# RUN: %asc-fe --emit=graph %s | FileCheck %s
import numpy as np

def process(chunk):
    chunk *= 2

data = np.random.rand(1000 * 2 + 48).astype(np.float32)
n = data.shape[0]
chunk_size = 128
for i in range(0, n, chunk_size):
    process(data[i:i+chunk_size])

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %rand : f32[2048] random(rand, unseeded, stream = 0, offset = 0) loc("{{.*}}guide_chunked_loop.py":9:8)
# CHECK-NEXT:   const %cst : f32[] = [2.0] loc("{{.*}}guide_chunked_loop.py":7:14)
# CHECK-NEXT:   %data_2 = Loop(%rand) {start = 0, stop = 2048, step = 128} : f32[2048] (%i : s32[], %data : f32[2048]) {
# CHECK-NEXT:     %slice = Slice(%data, %i) {axes = [0], begin = [0], end = [128], step = [1], dynamic_axes = [0]} : f32[128] loc("{{.*}}guide_chunked_loop.py":13:13)
# CHECK-NEXT:     %chunk = Mul(%slice, %cst) : f32[128] loc("{{.*}}guide_chunked_loop.py":7:5)
# CHECK-NEXT:     %data_1 = SliceUpdate(%data, %chunk, %i) {axes = [0], begin = [0], end = [128], step = [1], dynamic_axes = [0]} : f32[2048] loc("{{.*}}guide_chunked_loop.py":7:5)
# CHECK-NEXT:     yield %data_1
# CHECK-NEXT:   } loc("{{.*}}guide_chunked_loop.py":12:1)
# CHECK-NEXT:   output data = %data_2
# CHECK-NEXT: }
