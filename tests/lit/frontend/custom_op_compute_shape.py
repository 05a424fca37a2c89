# asc-fe registers custom operators with their definitions, as pyasc compile does: an operator
# whose shape rule is its te.compute definition ("shape_rule": "compute") gets the shape the
# definition computes (it read as a 0-d value before, and its reduction was refused).
# RUN: %asc-fe --emit=graph --no-locations --custom-op-config=%S/../../../examples/custom_ops/batched_outer/batched_outer.json --entry=outer --input=a:float32[4,30] --input=b:float32[4,48] %s | FileCheck %s
import numpy as np


def outer(a, b):
    return batched_outer(a, b).sum(axis=0)

# CHECK-LABEL: graph {
# CHECK-NEXT:   input %a : f32[4,30]
# CHECK-NEXT:   input %b : f32[4,48]
# CHECK-NEXT:   %batchedouter = BatchedOuter(%a, %b) : f32[4,30,48]
# CHECK-NEXT:   %reducesum = ReduceSum(%batchedouter) {axes = [0], keepdims = false} : f32[30,48]
# CHECK-NEXT:   output out0 = %reducesum
# CHECK-NEXT: }
