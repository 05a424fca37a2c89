; Exact encodings of the sync instructions (docs/isa.md) and the exact round trip of their canonical text.
; RUN: %asc-as %s -o %t && %asc-objdump %t | FileCheck %s
; RUN: %asc-objdump --no-bytes %t > %t.text && grep -v '^;' %s | grep . | diff - %t.text
; RUN: %asc-as %t.text -o %t.again && cmp %t %t.again

set_flag MTE2, V, 0
set_flag V, MTE3, 7
set_flag M, FIX, 3
set_flag S, MTE1, 1
wait_flag MTE2, V, 0
wait_flag MTE3, S, 5
pipe_barrier V
pipe_barrier MTE2
pipe_barrier ALL

; CHECK:      0: 18 0c 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  set_flag MTE2, V, 0
; CHECK-NEXT: 1: 18 e9 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  set_flag V, MTE3, 7
; CHECK-NEXT: 2: 18 f2 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  set_flag M, FIX, 3
; CHECK-NEXT: 3: 18 58 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  set_flag S, MTE1, 1
; CHECK-NEXT: 4: 19 0c 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  wait_flag MTE2, V, 0
; CHECK-NEXT: 5: 19 45 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  wait_flag MTE3, S, 5
; CHECK-NEXT: 6: 1a 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  pipe_barrier V
; CHECK-NEXT: 7: 1a 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  pipe_barrier MTE2
; CHECK-NEXT: 8: 1a 07 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  pipe_barrier ALL
