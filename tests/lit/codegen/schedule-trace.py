# Every kernel's schedule is printed as the primitives that build it: the cube template tiles rows
# and columns, splits the contraction, caches operands in L1/L0A/L0B and the result in L0C and
# tensorizes on mmad; the elementwise template splits its flat axis into tiles, binds the tiles to
# cores and rotates buffer sets; the reduce template splits the kept rows.
# At O1 the ReLU is a kernel of its own; at O2 the matmul's epilogue applies it.
# RUN: %pyasc --target=ascend910b --opt-level=O1 --entry=f --input=x:float16[256,512] --input=w:float16[512,384] %s -o %t.om --dump-after=select-templates 2>&1 | FileCheck %s
# RUN: %pyasc --target=ascend910b --entry=f --input=x:float16[256,512] --input=w:float16[512,384] %s -o %t.om --dump-after=select-templates 2>&1 | FileCheck %s --check-prefix=O2
# O2: launch matmul_0 block_dim={{[0-9]+}} (%x, %w, %h)
# O2: launch reduce_1
# CHECK: launch matmul_0 block_dim=24 (%x, %w, %matmul)
# CHECK-NEXT: cache_read a L1
# CHECK-NEXT: cache_read a L0A
# CHECK-NEXT: cache_read b L1
# CHECK-NEXT: cache_read b L0B
# CHECK-NEXT: cache_write c L0C
# CHECK-NEXT: tile i0 i1 64 64 -> i0.o i1.o i0.i i1.i
# CHECK-NEXT: split r0 256 -> r0.o r0.i
# CHECK-NEXT: bind i0.o 24
# CHECK-NEXT: double_buffer 2
# CHECK-NEXT: tensorize i0.i mmad
# CHECK: launch elementwise_1 block_dim=48 (%matmul, %h)
# CHECK-NEXT: cache_read in0 UB
# CHECK-NEXT: cache_write out0 UB
# CHECK-NEXT: split i0 256 -> i0.o i0.i
# CHECK-NEXT: bind i0.o 48
# CHECK-NEXT: double_buffer 8
# CHECK-NEXT: vectorize i0.i
# CHECK: launch reduce_2 block_dim=42 (%h, %out0)
# CHECK-NEXT: cache_read in0 UB
# CHECK-NEXT: split i0 6 -> i0.o i0.i
# CHECK-NEXT: bind i0.o 42
import numpy as np


def f(x, w):
    h = np.maximum(x @ w, 0)
    return h.sum(axis=-1)
