# select-templates lowers each node through the pattern template that takes it, and the dump lists
# the launches with their storages: a sum over non-contiguous axes is transposed to put them last
# (reduce template); a long sum is reduced in stages through a partial-result tensor; an einsum is
# transposes around one matmul (contraction template); a pad is the input copied into the interior
# and one kernel of constant fills for the border (pad template).
# RUN: %pyasc --target=ascend910b --entry=f --input=x:float32[8,64,16] --input=a:float16[32,64] --input=b:float16[48,64] --input=v:float32[1048576] %s -o %t.om --dump-after=select-templates 2>&1 | FileCheck %s
# CHECK: // after select-templates
# CHECK: storage %x_t : f32[64,8,16] intermediate
# CHECK: storage %v_partial : f32[{{[0-9]+}},1] intermediate
# CHECK: storage %b_t : f16[64,48] intermediate
# CHECK: storage %c_mm : f16[32,48] intermediate
# CHECK: storage %p_pad_value : f16[1] constant
# CHECK: launch transpose_0 {{.*}}(%x, %x_t)
# CHECK: launch reduce_1 {{.*}}(%x_t, %out0)
# CHECK: launch reduce_2 {{.*}}(%v, %v_partial)
# CHECK: launch reduce_3 {{.*}}(%v_partial, %out1)
# CHECK: launch transpose_4 {{.*}}(%b, %b_t)
# CHECK: launch matmul_5 {{.*}}(%a, %b_t, %c_mm)
# CHECK: launch transpose_6 {{.*}}(%c_mm, %out2)
# CHECK: launch pad_7 {{.*}}(%a, %out3)
# CHECK: launch pad_fill_8 {{.*}}(%p_pad_value, %out3)
import numpy as np


def f(x, a, b, v):
    s = x.sum(axis=(0, 2))
    t = v.sum()
    c = np.einsum('ij,kj->ki', a, b)
    p = np.pad(a, ((1, 1), (2, 0)))
    return s, t, c, p
