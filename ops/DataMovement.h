// float64 references of the data-movement family (NumPy's result), for table-driven tests.
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

// np.transpose of `x` with the node's perm (reversed axes without one).
std::vector<double> transposeReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                       const std::vector<double>& x);

// x[b:e:s, ...] with the node's axes, begin, end and step (static slices).
std::vector<double> sliceReference(const graph::Node& node, const std::vector<int64_t>& shape, const std::vector<double>& x);

// np.broadcast_to(x, node's shape).
std::vector<double> broadcastToReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                         const std::vector<double>& x);

// np.lib.stride_tricks.sliding_window_view(x, node's window_shape, axis=node's axes).
std::vector<double> slidingWindowReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                           const std::vector<double>& x);

// np.concatenate (Concat) or np.stack (Stack) of the inputs along the node's axis.
std::vector<double> concatReference(const graph::Node& node, const std::vector<std::vector<int64_t>>& shapes,
                                    const std::vector<std::vector<double>>& inputs);

}  // namespace pyasc::ops
