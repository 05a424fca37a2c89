// float64 references of the pyasc.nn operators (softmax, log_softmax, layer_norm, batch_norm) as
// python/pyasc/nn.py computes them, for table-driven tests.
#pragma once

#include <cstdint>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::ops {

// The result of `node` (Softmax, LogSoftmax, LayerNorm or BatchNorm) over row-major inputs;
// the parameters of LayerNorm broadcast against x, those of BatchNorm lie along its axis.
std::vector<double> nnReference(const graph::Node& node, const std::vector<std::vector<int64_t>>& shapes,
                                const std::vector<std::vector<double>>& inputs);

}  // namespace pyasc::ops
