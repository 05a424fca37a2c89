// float64 reference of MaxPool2D and AvgPool2D (NHWC or NCHW), for table-driven tests.
#pragma once

#include <cstdint>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::ops {

// The pooled values of `x` (row-major, `shape`) as pyasc.nn's NumPy shims compute them: padded
// positions never win a maximum and count as zeros in an average over the whole window.
std::vector<double> pool2dReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                    const std::vector<double>& x);

}  // namespace pyasc::ops
