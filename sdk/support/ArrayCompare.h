// Differential checks of arrays: values as doubles, max absolute and relative error, and the
// uniform inputs both pyasc check and ascop test generate.
#pragma once

#include <cstdint>
#include <vector>

#include "sdk/support/Npy.h"
#include "sdk/support/Random.h"

namespace pyasc {

std::vector<double> arrayValues(const NpyArray& array);

struct ArrayError {
  double maxAbs = 0;
  double relative = 0;  // ‖got − want‖ / ‖want‖ (‖got − want‖ when want is all zeros)
  bool sizesDiffer = false;
};
// NaN against NaN counts as equal, NaN against a number as an infinite error.
ArrayError compareArrays(const NpyArray& got, const NpyArray& want);

// NumPy's legacy uniform draws in [lo, hi), converted to `dtype` (integers truncate, bools < mid).
NpyArray uniformArray(DType dtype, const std::vector<int64_t>& shape, LegacyRandom& gen, double lo = 0, double hi = 1);

}  // namespace pyasc
