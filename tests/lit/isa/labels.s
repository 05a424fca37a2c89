; Labels, comments, blank lines, hex and decimal numbers and short forms assemble to canonical text.
; RUN: %asc-as %s -o %t && %asc-objdump --no-bytes %t | FileCheck %s

start:  li x1, 0          // loop counter
        li x2, 0xa        ; ten iterations

loop:   add x1, x1, 1
        vadd.f16 ub[x0+0x100], ub[0], ub[256]   ; options take their defaults
        blt x1, x2, loop
        beq x1, x2, done
        jmp start
done:
        copy_ub_gm gm[x3], ub[0x0], len=0x10
        end

; CHECK:      li x1, 0
; CHECK-NEXT: li x2, 10
; CHECK-NEXT: add x1, x1, 1
; CHECK-NEXT: vadd.f16 ub[0x100], ub[0x0], ub[0x100], repeat=1, blk=1/1/1, rep=8/8/8
; CHECK-NEXT: blt x1, x2, 2
; CHECK-NEXT: beq x1, x2, 7
; CHECK-NEXT: jmp 0
; CHECK-NEXT: copy_ub_gm gm[x3+0x0], ub[0x0], nburst=1, len=16, srcgap=0, dstgap=0
; CHECK-NEXT: end
; CHECK-NOT: {{.}}
