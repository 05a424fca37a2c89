// Slices written into arrays on the host: what a loop body's slice update in place does after its
// pipeline has computed the slice.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/HalideTypes.h"

namespace pyasc::cpu {

// The integer in the 0-d buffer `b` (a slice's offset).
int64_t scalarValue(const Halide::Buffer<>& b);

// Copies `slice` (dense, NumPy axis order reversed as Halide's) into `array` at positions
// start[a] + r * step[a] along each axis a (NumPy order; step 1 and start 0 on axes not sliced),
// skipping positions outside the array, as the SliceUpdate operator's select would.
void writeSlice(Halide::Buffer<>& array, const Halide::Buffer<>& slice, const std::vector<int64_t>& start, const std::vector<int64_t>& step);

}  // namespace pyasc::cpu
