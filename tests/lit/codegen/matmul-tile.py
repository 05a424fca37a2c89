# A 64x48 by 48x80 float16 matmul: panels to L1, fractal loads with valid rows/columns (no padding
# in L1), one mmad initialising L0C, and a fixpipe converting float32 to float16 with the tile's
# valid region.
# RUN: %pyasc --target=ascend310 --entry=f --input=a:float16[64,48] --input=b:float16[48,80] %s -o %t.om
# RUN: %pyasc disasm %t.om | FileCheck %s
# CHECK: copy_gm_l1 l1[0x0], gm[{{x[0-9]+}}+0x0], nburst=32, len=3
# CHECK-NEXT: copy_gm_l1 l1[0xc00], gm[{{x[0-9]+}}+0x0], nburst=48, len=5
# CHECK: load_l0a.f16 l0a[0x0], l1[0x0], m=32, k=48, stride=48, valid=32/48
# CHECK-NEXT: load_l0b.f16 l0b[0x0], l1[0xc00], k=48, n=80, stride=80, valid=48/80
# CHECK: mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=32, k=48, n=80, init
# CHECK: fix_l0c_gm.f32.f16.rint gm[x3+0x0], l0c[0x0], m=32, n=80, stride=80, valid=32/80


def f(a, b):
    return a @ b
