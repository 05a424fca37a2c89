// float64 references of the reductions (sum, mean, max, min, prod, all, any, var, std, argmax,
// argmin), for table-driven tests.
#pragma once

#include <cstdint>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::ops {

// `node` over x (row-major, `shape`): the reduced axes (attribute axes, or axis for ArgMax/ArgMin;
// every axis without one) removed, the rest in order. ArgMax/ArgMin give the first extreme's index
// along the axis (in the flattened array without one).
std::vector<double> reduceReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                    const std::vector<double>& x);

}  // namespace pyasc::ops
