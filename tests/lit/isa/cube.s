; Exact encodings of the cube instructions (docs/isa.md) and the exact round trip of their canonical text.
; RUN: %asc-as %s -o %t && %asc-objdump %t | FileCheck %s
; RUN: %asc-objdump --no-bytes %t > %t.text && grep -v '^;' %s | grep . | diff - %t.text
; RUN: %asc-as %t.text -o %t.again && cmp %t %t.again

load_l0a.f16 l0a[0x0], l1[0x0], m=32, k=64, stride=64, valid=0/0
load_l0a.s8 l0a[0x200], l1[x5+0x40], m=16, k=32, stride=48, valid=10/20, trans
load_l0b.f16 l0b[0x0], l1[0x800], k=64, n=32, stride=32, valid=0/0
load_l0b.f32 l0b[0x400], l1[0x0], k=8, n=16, stride=16, valid=8/5, trans
img2col.f16 l0a[0x0], l1[0x0], h=8, w=8, c=16, kernel=3x3, stride=1x1, pad=1/1/1/1, dilation=1x1, pos=0, m=64, k=144
img2col.s8 l0a[0x1000], l1[x6+0x20], h=224, w=224, c=32, kernel=7x5, stride=2x3, pad=3/2/1/0, dilation=2x1, pos=4096, m=4095, k=4095
mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=16, k=16, n=16, init
mmad.s8.s32 l0c[0x400], l0a[0x200], l0b[0x200], m=32, k=64, n=48
mmad.f32.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=4095, k=8, n=16
fix_l0c_ub.f32.f16.rint ub[0x0], l0c[0x0], m=16, n=16, stride=16, valid=16/16
fix_l0c_ub.s32.s32.trunc ub[0x200], l0c[0x400], m=32, n=48, stride=64, valid=30/40
fix_l0c_gm.f32.f32.rint gm[x1+0x0], l0c[0x0], m=16, n=32, stride=1000, valid=0/0
fix_l0c_gm.f32.f16.round gm[x2+0x80], l0c[0x800], m=64, n=16, stride=16, valid=64/10

; CHECK:      0: 21 66 00 00 00 00 00 40 00 00 00 00 00 00 04 80 00 00 80 00 00 00 00 00 00 00 00 00 00 00 00 00  load_l0a.f16 l0a[0x0], l1[0x0], m=32, k=64, stride=64, valid=0/0
; CHECK-NEXT: 1: 21 71 00 40 00 00 00 40 05 08 00 00 00 00 02 40 00 00 60 00 14 80 02 00 00 00 00 00 00 00 00 00  load_l0a.s8 l0a[0x200], l1[x5+0x40], m=16, k=32, stride=48, valid=10/20, trans
; CHECK-NEXT: 2: 22 86 00 00 00 00 00 40 00 00 01 00 00 00 00 80 00 04 40 00 00 00 00 00 00 00 00 00 00 00 00 00  load_l0b.f16 l0b[0x0], l1[0x800], k=64, n=32, stride=32, valid=0/0
; CHECK-NEXT: 3: 22 97 00 80 00 00 00 40 00 00 00 00 00 00 00 10 00 02 20 00 10 a0 00 00 00 00 00 00 00 00 00 00  load_l0b.f32 l0b[0x400], l1[0x0], k=8, n=16, stride=16, valid=8/5, trans
; CHECK-NEXT: 4: 23 36 00 00 00 00 00 20 00 00 00 00 00 80 00 08 00 01 03 03 41 10 04 41 10 04 00 00 40 00 09 00  img2col.f16 l0a[0x0], l1[0x0], h=8, w=8, c=16, kernel=3x3, stride=1x1, pad=1/1/1/1, dilation=1x1, pos=0, m=64, k=144
; CHECK-NEXT: 5: 23 31 00 00 01 00 00 20 03 02 00 00 00 00 0e e0 00 02 07 05 c2 30 08 01 20 04 00 10 ff ff ff 00  img2col.s8 l0a[0x1000], l1[x6+0x20], h=224, w=224, c=32, kernel=7x5, stride=2x3, pad=3/2/1/0, dilation=2x1, pos=4096, m=4095, k=4095
; CHECK-NEXT: 6: 26 76 0b 00 00 00 00 00 06 00 00 00 00 00 08 00 00 00 00 00 20 00 02 20 00 00 00 00 00 00 00 00  mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=16, k=16, n=16, init
; CHECK-NEXT: 7: 26 41 0a 00 08 00 00 00 06 00 04 00 00 00 08 00 04 00 00 00 40 00 08 60 00 00 00 00 00 00 00 00  mmad.s8.s32 l0c[0x400], l0a[0x200], l0b[0x200], m=32, k=64, n=48
; CHECK-NEXT: 8: 26 77 0a 00 00 00 00 00 06 00 00 00 00 00 08 00 00 00 00 00 fe 1f 01 20 00 00 00 00 00 00 00 00  mmad.f32.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=4095, k=8, n=16
; CHECK-NEXT: 9: 24 67 08 00 00 00 00 00 28 00 00 00 00 00 80 00 08 80 00 80 00 08 00 00 00 00 00 00 00 00 00 00  fix_l0c_ub.f32.f16.rint ub[0x0], l0c[0x0], m=16, n=16, stride=16, valid=16/16
; CHECK-NEXT: 10: 24 44 0b 00 10 00 00 00 28 00 20 00 00 00 00 01 18 00 02 f0 00 14 00 00 00 00 00 00 00 00 00 00  fix_l0c_ub.s32.s32.trunc ub[0x200], l0c[0x400], m=32, n=48, stride=64, valid=30/40
; CHECK-NEXT: 11: 25 77 40 00 00 00 00 00 28 00 00 00 00 00 80 00 10 40 1f 00 00 00 00 00 00 00 00 00 00 00 00 00  fix_l0c_gm.f32.f32.rint gm[x1+0x0], l0c[0x0], m=16, n=32, stride=1000, valid=0/0
; CHECK-NEXT: 12: 25 67 84 00 04 00 00 00 28 00 40 00 00 00 00 02 08 80 00 00 02 05 00 00 00 00 00 00 00 00 00 00  fix_l0c_gm.f32.f16.round gm[x2+0x80], l0c[0x800], m=64, n=16, stride=16, valid=64/10
