# --dump-after=plan-memory prints where each storage lives in device memory and the launches
# between which it is live (inputs and outputs throughout). With --enable-memory-opt an
# intermediate takes the bytes of one dead before it (u those of t, abs those of sqrt); without,
# every tensor has its own. A storage a loop names is live through the whole loop (g: the slice and
# the sum computed in the body span the loop's launches 2..4, not just the one that writes them).
# RUN: %pyasc --target=ascend910b --entry=f --input=x:float32[1024] --opt-level=O0 --enable-memory-opt %s -o %t.om --dump-after=plan-memory 2>&1 | FileCheck %s --check-prefix=REUSE
# RUN: %pyasc --target=ascend910b --entry=f --input=x:float32[1024] --opt-level=O0 %s -o %t.om --dump-after=plan-memory 2>&1 | FileCheck %s --check-prefix=PLAIN
# RUN: %pyasc --target=ascend910b --entry=g --input=x:float32[4,256] %s -o %t.om --dump-after=plan-memory 2>&1 | FileCheck %s --check-prefix=LOOP
# REUSE: // after plan-memory
# REUSE-NEXT: memory plan: 16384 bytes of device memory at the peak
# REUSE-NEXT: gm[0x0..0x1000) %x f32[1024] input, live 0..7
# REUSE-NEXT: gm[0x1000..0x2000) %t f32[1024] intermediate, live 1..2
# REUSE-NEXT: gm[0x2000..0x3000) %sqrt f32[1024] intermediate, live 2..3
# REUSE-NEXT: gm[0x1000..0x2000) %u f32[1024] intermediate, live 3..4
# REUSE-NEXT: gm[0x2000..0x3000) %abs f32[1024] intermediate, live 4..5
# REUSE-NEXT: gm[0x3000..0x4000) %out0 f32[1024] output, live 0..7
# PLAIN: memory plan: 24576 bytes of device memory at the peak
# PLAIN: gm[0x3000..0x4000) %u f32[1024] intermediate, live 3..4
# LOOP: memory plan: 8192 bytes of device memory at the peak
# LOOP: %slice f32[1,256] intermediate, live 2..4
# LOOP-NEXT: %acc_2 f32[256] intermediate, live 2..4
import numpy as np


def f(x):
    t = np.exp(x)
    u = np.sqrt(t) + 1
    return np.abs(u) * 2


def g(x):
    acc = np.zeros(256, dtype=np.float32)
    for i in range(4):
        y = x[i] * 2
        acc = acc + y
    return acc
