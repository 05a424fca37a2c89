# --dump-after=emit-model prints the device-memory plan: every tensor's GM range, name, type and
# role, and the peak. At O2 the elementwise chain is one kernel and needs no intermediates; at O0,
# with --enable-memory-opt, each intermediate reuses the bytes of one that died before it (u takes
# t's range).
# RUN: %pyasc --target=ascend910b --entry=f --input=x:float32[1024] %s -o %t.om --dump-after=emit-model 2>&1 | FileCheck %s --check-prefix=PLAIN
# RUN: %pyasc --target=ascend910b --entry=f --input=x:float32[1024] --enable-memory-opt --opt-level=O0 %s -o %t.om --dump-after=emit-model 2>&1 | FileCheck %s --check-prefix=REUSE
# PLAIN: // after emit-model
# PLAIN-NEXT: memory plan: 8192 bytes of device memory at the peak
# PLAIN-DAG: gm[0x0..0x1000) x f32[1024] input
# PLAIN-DAG: out0 f32[1024] output
# REUSE: memory plan: 16384 bytes of device memory at the peak
# REUSE: gm[0x1000..0x2000) t f32[1024] intermediate
# REUSE: gm[0x1000..0x2000) u f32[1024] intermediate
import numpy as np


def f(x):
    t = np.exp(x)
    u = np.sqrt(t) + 1
    return np.abs(u) * 2
