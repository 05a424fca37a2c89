# Double buffering: both UB sets start free (MTE3→MTE2 events 0 and 1); the core's next tile (two
# tiles on: the 2 cores take tiles in turn) is loaded into the other set (ub[0x800], event 1) before
# its tile is computed from set 0, and each store frees its set.
# RUN: %pyasc --target=ascend310 --entry=f --input=x:float32[8,64] --input=y:float32[8,64] %s -o %t.om
# RUN: %pyasc disasm %t.om | FileCheck %s
# CHECK-LABEL: elementwise_0:
# CHECK: set_flag MTE3, MTE2, 0
# CHECK-NEXT: set_flag MTE3, MTE2, 1
# CHECK: wait_flag MTE3, MTE2, 0
# CHECK-NEXT: copy_gm_ub ub[0x0], gm[x1+0x0], nburst=1, len=32
# CHECK-NEXT: copy_gm_ub ub[0x400], gm[x2+0x0], nburst=1, len=32
# CHECK-NEXT: set_flag MTE2, V, 0
# CHECK: wait_flag MTE3, MTE2, 1
# CHECK-NEXT: copy_gm_ub ub[0x800], gm[x1+0x800], nburst=1, len=32
# CHECK-NEXT: copy_gm_ub ub[0xc00], gm[x2+0x800], nburst=1, len=32
# CHECK-NEXT: set_flag MTE2, V, 1
# CHECK-NEXT: wait_flag MTE2, V, 0
# CHECK: vadd.f32 ub[0x0], ub[0x0], ub[0x400], repeat=4, blk=1/1/1, rep=8/8/8
# CHECK-NEXT: set_flag V, MTE3, 0
# CHECK-NEXT: wait_flag V, MTE3, 0
# CHECK-NEXT: copy_ub_gm gm[x3+0x0], ub[0x0], nburst=1, len=32
# CHECK-NEXT: set_flag MTE3, MTE2, 0


def f(x, y):
    return x + y
