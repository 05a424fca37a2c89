; Exact encodings of the vector instructions (docs/isa.md) and the exact round trip of their canonical text.
; RUN: %asc-as %s -o %t && %asc-objdump %t | FileCheck %s
; RUN: %asc-objdump --no-bytes %t > %t.text && grep -v '^;' %s | grep . | diff - %t.text
; RUN: %asc-as %t.text -o %t.again && cmp %t %t.again

vadd.f16 ub[x1+0x400], ub[0x0], ub[0x200], repeat=4, blk=1/1/1, rep=8/8/8
vsub.f32 ub[0x0], ub[0x100], ub[0x200], repeat=255, blk=2/0/1, rep=16/0/8
vmul.s32 ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=1/1/1, rep=8/8/8
vdiv.f16 ub[x2+0x0], ub[x3+0x20], ub[x4-0x20], repeat=2, blk=1/1/1, rep=8/8/8
vmax.f16 ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=255/255/255, rep=255/255/255
vmin.f32 ub[0x0], ub[0x100], ub[0x200], repeat=0, blk=1/1/1, rep=8/8/8
vmla.f32 ub[0x0], ub[0x100], ub[0x200], repeat=3, blk=1/1/1, rep=8/8/8
vaddrelu.f16 ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=1/1/1, rep=8/8/8
vadds.f16 ub[0x0], ub[0x100], #0x3c00, repeat=1, blk=1/1, rep=8/8
vmuls.f32 ub[0x0], ub[0x100], x5, repeat=2, blk=1/1, rep=8/8
vmaxs.s32 ub[0x0], ub[0x100], #0xffffffff, repeat=1, blk=1/1, rep=8/8
vmins.f16 ub[0x0], ub[0x100], x31, repeat=1, blk=1/1, rep=8/8
vlrelu.f16 ub[0x0], ub[0x100], #0x2e66, repeat=1, blk=1/1, rep=8/8
vexp.f16 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
vln.f32 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
vabs.s32 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
vrelu.f16 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
vsqrt.f32 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
vrsqrt.f16 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
vrec.f32 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
vmov.f16 ub[0x1000], ub[0x0], repeat=16, blk=1/1, rep=8/8
vconv.f32.f16.rint ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=4/8
vconv.f16.s32.floor ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/4
vconv.f32.s32.ceil ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
vconv.f16.s8.trunc ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=4/8
vconv.u8.f16.round ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/4
vcmp.f16.lt ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=1/1, rep=8/8
vcmp.f32.eq ub[0x0], ub[0x100], ub[0x200], repeat=2, blk=1/0, rep=8/0
vcmp.s32.ge ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=1/1, rep=8/8
vsel.f16 ub[0x0], ub[0x100], ub[0x200], ub[0x300], repeat=1, blk=1/1/1, rep=8/8/8
vsel.f32 ub[0x0], ub[0x100], ub[0x200], ub[0x300], repeat=4, blk=63/63/63, rep=255/255/255
vdup.f16 ub[0x0], #0x3c00, repeat=1, blk=1, rep=8
vdup.s32 ub[0x0], x9, repeat=8, blk=1, rep=8
vcadd.f16 ub[0x0], ub[0x100], repeat=2, blk=1, rep=1/8
vcmax.f16.idx ub[0x0], ub[0x100], repeat=2, blk=1, rep=2/8
vcmax.f32 ub[0x0], ub[0x100], repeat=1, blk=1, rep=1/8
vcmin.s32.idx ub[0x0], ub[0x100], repeat=3, blk=1, rep=2/8
vtranspose.b16 ub[0x0], ub[0x200], repeat=1, rep=16/16

; CHECK:      0: 27 96 00 40 00 00 00 10 00 00 00 00 00 10 00 20 00 00 00 40 10 10 10 80 80 80 00 00 00 00 00 00  vadd.f16 ub[x1+0x400], ub[0x0], ub[0x200], repeat=4, blk=1/1/1, rep=8/8/8
; CHECK-NEXT: 1: 28 17 00 00 00 00 00 10 00 10 00 00 00 10 00 20 00 00 00 f0 2f 00 10 00 01 80 00 00 00 00 00 00  vsub.f32 ub[0x0], ub[0x100], ub[0x200], repeat=255, blk=2/0/1, rep=16/0/8
; CHECK-NEXT: 2: 29 14 00 00 00 00 00 10 00 10 00 00 00 10 00 20 00 00 00 10 10 10 10 80 80 80 00 00 00 00 00 00  vmul.s32 ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=1/1/1, rep=8/8/8
; CHECK-NEXT: 3: 2a 16 01 00 00 00 00 90 01 02 00 00 00 10 02 fe ff ff ff 2f 10 10 10 80 80 80 00 00 00 00 00 00  vdiv.f16 ub[x2+0x0], ub[x3+0x20], ub[x4-0x20], repeat=2, blk=1/1/1, rep=8/8/8
; CHECK-NEXT: 4: 2b 16 00 00 00 00 00 10 00 10 00 00 00 10 00 20 00 00 00 10 f0 ff ff ff ff ff 0f 00 00 00 00 00  vmax.f16 ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=255/255/255, rep=255/255/255
; CHECK-NEXT: 5: 2c 17 00 00 00 00 00 10 00 10 00 00 00 10 00 20 00 00 00 00 10 10 10 80 80 80 00 00 00 00 00 00  vmin.f32 ub[0x0], ub[0x100], ub[0x200], repeat=0, blk=1/1/1, rep=8/8/8
; CHECK-NEXT: 6: 2d 17 00 00 00 00 00 10 00 10 00 00 00 10 00 20 00 00 00 30 10 10 10 80 80 80 00 00 00 00 00 00  vmla.f32 ub[0x0], ub[0x100], ub[0x200], repeat=3, blk=1/1/1, rep=8/8/8
; CHECK-NEXT: 7: 2e 16 00 00 00 00 00 10 00 10 00 00 00 10 00 20 00 00 00 10 10 10 10 80 80 80 00 00 00 00 00 00  vaddrelu.f16 ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=1/1/1, rep=8/8/8
; CHECK-NEXT: 8: 2f 36 00 00 00 00 00 20 00 20 00 00 00 00 00 f0 00 00 04 04 04 20 20 00 00 00 00 00 00 00 00 00  vadds.f16 ub[0x0], ub[0x100], #0x3c00, repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 9: 30 27 00 00 00 00 00 20 00 20 00 00 00 a0 00 00 00 00 08 04 04 20 20 00 00 00 00 00 00 00 00 00  vmuls.f32 ub[0x0], ub[0x100], x5, repeat=2, blk=1/1, rep=8/8
; CHECK-NEXT: 10: 31 34 00 00 00 00 00 20 00 20 00 00 00 00 fc ff ff ff 07 04 04 20 20 00 00 00 00 00 00 00 00 00  vmaxs.s32 ub[0x0], ub[0x100], #0xffffffff, repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 11: 32 26 00 00 00 00 00 20 00 20 00 00 00 e0 03 00 00 00 04 04 04 20 20 00 00 00 00 00 00 00 00 00  vmins.f16 ub[0x0], ub[0x100], x31, repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 12: 33 36 00 00 00 00 00 20 00 20 00 00 00 00 98 b9 00 00 04 04 04 20 20 00 00 00 00 00 00 00 00 00  vlrelu.f16 ub[0x0], ub[0x100], #0x2e66, repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 13: 34 16 00 00 00 00 00 10 00 10 00 00 00 10 10 10 80 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vexp.f16 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 14: 35 17 00 00 00 00 00 10 00 10 00 00 00 10 10 10 80 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vln.f32 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 15: 36 14 00 00 00 00 00 10 00 10 00 00 00 10 10 10 80 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vabs.s32 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 16: 37 16 00 00 00 00 00 10 00 10 00 00 00 10 10 10 80 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vrelu.f16 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 17: 38 17 00 00 00 00 00 10 00 10 00 00 00 10 10 10 80 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vsqrt.f32 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 18: 39 16 00 00 00 00 00 10 00 10 00 00 00 10 10 10 80 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vrsqrt.f16 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 19: 3a 17 00 00 00 00 00 10 00 10 00 00 00 10 10 10 80 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vrec.f32 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 20: 3b 16 00 00 01 00 00 10 00 00 00 00 00 00 11 10 80 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vmov.f16 ub[0x1000], ub[0x0], repeat=16, blk=1/1, rep=8/8
; CHECK-NEXT: 21: 3c 67 08 00 00 00 00 00 08 00 08 00 00 00 08 08 08 20 40 00 00 00 00 00 00 00 00 00 00 00 00 00  vconv.f32.f16.rint ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=4/8
; CHECK-NEXT: 22: 3c 46 09 00 00 00 00 00 08 00 08 00 00 00 08 08 08 40 20 00 00 00 00 00 00 00 00 00 00 00 00 00  vconv.f16.s32.floor ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/4
; CHECK-NEXT: 23: 3c 47 0a 00 00 00 00 00 08 00 08 00 00 00 08 08 08 40 40 00 00 00 00 00 00 00 00 00 00 00 00 00  vconv.f32.s32.ceil ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 24: 3c 16 0b 00 00 00 00 00 08 00 08 00 00 00 08 08 08 20 40 00 00 00 00 00 00 00 00 00 00 00 00 00  vconv.f16.s8.trunc ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=4/8
; CHECK-NEXT: 25: 3c 62 0c 00 00 00 00 00 08 00 08 00 00 00 08 08 08 40 20 00 00 00 00 00 00 00 00 00 00 00 00 00  vconv.u8.f16.round ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/4
; CHECK-NEXT: 26: 3d a6 00 00 00 00 00 80 00 80 00 00 00 80 00 00 01 00 00 80 80 80 00 04 04 00 00 00 00 00 00 00  vcmp.f16.lt ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 27: 3d 87 00 00 00 00 00 80 00 80 00 00 00 80 00 00 01 00 00 00 81 00 00 04 00 00 00 00 00 00 00 00  vcmp.f32.eq ub[0x0], ub[0x100], ub[0x200], repeat=2, blk=1/0, rep=8/0
; CHECK-NEXT: 28: 3d d4 00 00 00 00 00 80 00 80 00 00 00 80 00 00 01 00 00 80 80 80 00 04 04 00 00 00 00 00 00 00  vcmp.s32.ge ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=1/1, rep=8/8
; CHECK-NEXT: 29: 3e 16 00 00 00 00 00 10 00 10 00 00 00 10 00 20 00 00 00 10 00 30 00 00 00 10 10 04 01 02 02 02  vsel.f16 ub[0x0], ub[0x100], ub[0x200], ub[0x300], repeat=1, blk=1/1/1, rep=8/8/8
; CHECK-NEXT: 30: 3e 17 00 00 00 00 00 10 00 10 00 00 00 10 00 20 00 00 00 10 00 30 00 00 00 40 f0 ff ff ff ff 3f  vsel.f32 ub[0x0], ub[0x100], ub[0x200], ub[0x300], repeat=4, blk=63/63/63, rep=255/255/255
; CHECK-NEXT: 31: 3f 36 00 00 00 00 00 00 00 f0 00 00 04 04 20 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vdup.f16 ub[0x0], #0x3c00, repeat=1, blk=1, rep=8
; CHECK-NEXT: 32: 3f 24 00 00 00 00 00 20 01 00 00 00 20 04 20 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vdup.s32 ub[0x0], x9, repeat=8, blk=1, rep=8
; CHECK-NEXT: 33: 40 26 00 00 00 00 00 20 00 20 00 00 00 40 20 20 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vcadd.f16 ub[0x0], ub[0x100], repeat=2, blk=1, rep=1/8
; CHECK-NEXT: 34: 41 36 00 00 00 00 00 20 00 20 00 00 00 40 20 40 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vcmax.f16.idx ub[0x0], ub[0x100], repeat=2, blk=1, rep=2/8
; CHECK-NEXT: 35: 41 27 00 00 00 00 00 20 00 20 00 00 00 20 20 20 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vcmax.f32 ub[0x0], ub[0x100], repeat=1, blk=1, rep=1/8
; CHECK-NEXT: 36: 42 34 00 00 00 00 00 20 00 20 00 00 00 60 20 40 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vcmin.s32.idx ub[0x0], ub[0x100], repeat=3, blk=1, rep=2/8
; CHECK-NEXT: 37: 43 01 00 00 00 00 00 01 00 02 00 00 00 01 10 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  vtranspose.b16 ub[0x0], ub[0x200], repeat=1, rep=16/16
