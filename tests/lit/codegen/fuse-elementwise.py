# --dump-after=fuse-elementwise prints the graph with each elementwise node's fusion group: at O2
# the chain before the row maximum is one group and the chain after it another (the reduction ends
# a group); at O0 every elementwise node is a group of its own.
# RUN: %pyasc --target=ascend910b --entry=f --input=x:float32[64,128] %s -o %t.om --dump-after=fuse-elementwise 2>&1 | FileCheck %s --check-prefix=O2
# RUN: %pyasc --target=ascend910b --opt-level=O0 --entry=f --input=x:float32[64,128] %s -o %t.om --dump-after=fuse-elementwise 2>&1 | FileCheck %s --check-prefix=O0
# O2: // after fuse-elementwise
# O2: %y = Mul(%x, %{{.*}}) [fusion_group = 0] : f32[64,128]
# O2-NEXT: %z = Exp(%y) [fusion_group = 0] : f32[64,128]
# O2-NEXT: %m = ReduceMax(%z) {axes = [1], keepdims = true} : f32[64,1]
# O2-NEXT: %d = Sub(%z, %m) [fusion_group = 1] : f32[64,128]
# O2-NEXT: %abs = Abs(%d) [fusion_group = 1] : f32[64,128]
# O0: %y = Mul(%x, %{{.*}}) [fusion_group = 0] : f32[64,128]
# O0-NEXT: %z = Exp(%y) [fusion_group = 1] : f32[64,128]
# O0: %d = Sub(%z, %m) [fusion_group = 2] : f32[64,128]
# O0-NEXT: %abs = Abs(%d) [fusion_group = 3] : f32[64,128]
import numpy as np


def f(x):
    y = x * 0.5
    z = np.exp(y)
    m = z.max(axis=1, keepdims=True)
    d = z - m
    return np.abs(d)
