// float64 references of Pad and Gather (NumPy's result for one input), for table-driven tests.
#pragma once

#include <cstdint>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::ops {

// np.pad of `x` (row-major, `shape`) with the node's pads, mode and value.
std::vector<double> padReference(const graph::Node& node, const std::vector<int64_t>& shape, const std::vector<double>& x);

// np.take of `x` (row-major, `shape`) at the node's indices along its axis.
std::vector<double> gatherReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                    const std::vector<double>& x);

}  // namespace pyasc::ops
