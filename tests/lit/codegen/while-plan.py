# A while loop on array data in the plan: the host tests the carried condition before each trip; its
# counter, bounded by --max-while-trips steps of 1, is narrowed to int32.
# RUN: %pyasc --emit=program --entry=halve --input=a:float32[8] --max-while-trips=64 %s | FileCheck %s
import numpy as np

def halve(a):
    trips = 0
    while a.max() > 1.0:
        a = a * 0.5
        trips += 1
    return a, np.array(trips)

# CHECK: storage %trips : s32[] intermediate
# CHECK: while %greater %iv0 in [0, 64) {
# CHECK:   launch
# CHECK: }
