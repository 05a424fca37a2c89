; Exact encodings of the dma instructions (docs/isa.md) and the exact round trip of their canonical text.
; RUN: %asc-as %s -o %t && %asc-objdump %t | FileCheck %s
; RUN: %asc-objdump --no-bytes %t > %t.text && grep -v '^;' %s | grep . | diff - %t.text
; RUN: %asc-as %t.text -o %t.again && cmp %t %t.again

copy_gm_ub ub[0x0], gm[x1+0x0], nburst=2, len=4, srcgap=1, dstgap=0
copy_gm_ub.b ub[0x40], gm[x1+0x3], nburst=4095, len=65535, srcgap=65535, dstgap=1
copy_gm_l1 l1[0x200], gm[x2+0x1000], nburst=1, len=128, srcgap=0, dstgap=0
copy_ub_gm gm[x3+0x0], ub[0x400], nburst=16, len=2, srcgap=6, dstgap=30
copy_ub_gm.b gm[x3+0x11], ub[0x0], nburst=1, len=100, srcgap=0, dstgap=0
copy_ub_ub ub[0x800], ub[0x0], nburst=8, len=1, srcgap=1, dstgap=3
copy_l1_ub ub[0x0], l1[x4+0x2000], nburst=3, len=64, srcgap=0, dstgap=0

; CHECK:      0: 1c 02 00 00 00 00 00 10 00 00 00 00 00 04 80 00 20 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  copy_gm_ub ub[0x0], gm[x1+0x0], nburst=2, len=4, srcgap=1, dstgap=0
; CHECK-NEXT: 1: 1c 03 80 00 00 00 00 10 06 00 00 00 00 fe ff ff ff ff 3f 00 00 00 00 00 00 00 00 00 00 00 00 00  copy_gm_ub.b ub[0x40], gm[x1+0x3], nburst=4095, len=65535, srcgap=65535, dstgap=1
; CHECK-NEXT: 2: 1d 04 00 04 00 00 00 20 00 20 00 00 00 02 00 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  copy_gm_l1 l1[0x200], gm[x2+0x1000], nburst=1, len=128, srcgap=0, dstgap=0
; CHECK-NEXT: 3: 1e 30 00 00 00 00 00 02 00 08 00 00 00 20 40 00 c0 00 c0 03 00 00 00 00 00 00 00 00 00 00 00 00  copy_ub_gm gm[x3+0x0], ub[0x400], nburst=16, len=2, srcgap=6, dstgap=30
; CHECK-NEXT: 4: 1e 31 22 00 00 00 00 02 00 00 00 00 00 02 80 0c 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  copy_ub_gm.b gm[x3+0x11], ub[0x0], nburst=1, len=100, srcgap=0, dstgap=0
; CHECK-NEXT: 5: 1f 02 00 10 00 00 00 02 00 00 00 00 00 10 20 00 20 00 60 00 00 00 00 00 00 00 00 00 00 00 00 00  copy_ub_ub ub[0x800], ub[0x0], nburst=8, len=1, srcgap=1, dstgap=3
; CHECK-NEXT: 6: 20 02 00 00 00 00 00 44 00 40 00 00 00 06 00 08 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  copy_l1_ub ub[0x0], l1[x4+0x2000], nburst=3, len=64, srcgap=0, dstgap=0
