# A while loop on array data: a graph loop with `while = true` carrying its condition last (computed
# before the loop and again at the end of each trip), and a Python int counter carried as an int64.
# RUN: %asc-fe --emit=graph --entry=halve --input=a:float32[8] --max-while-trips=64 %s | FileCheck %s
import numpy as np

def halve(a):
    trips = 0
    while a.max() > 1.0:
        a = a * 0.5
        trips += 1
    return a, np.array(trips)

# CHECK-LABEL: graph {
# CHECK:        %greater = Greater(%reducemax, %cst) : b8[]
# CHECK-NEXT:   %a_3, %trips_2, %while_condition_1 = Loop(%a, %cst_1, %greater) {start = 0, stop = 64, step = 1, while = true} : f32[8], s64[], b8[] (%trip_of_the_while_loop : s32[], %a_1 : f32[8], %trips : s64[], %while_condition : b8[]) {
# CHECK-NEXT:     %a_2 = Mul(%a_1, %cst_2) : f32[8]
# CHECK-NEXT:     %trips_1 = Add(%trips, %cst_3) : s64[]
# CHECK-NEXT:     %reducemax_1 = ReduceMax(%a_2) {keepdims = false} : f32[]
# CHECK-NEXT:     %greater_1 = Greater(%reducemax_1, %cst) : b8[]
# CHECK-NEXT:     yield %a_2, %trips_1, %greater_1
# CHECK-NEXT:   }
