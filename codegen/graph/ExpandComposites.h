// Rewrites composite operators (layer and batch norm, var, std, softmax and log-softmax along an
// inner axis) into the primitives that have kernels; softmax along the last axis is kept for its
// fused kernel.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Returns how many composite nodes were expanded.
int expandComposites(graph::Graph& graph);

}  // namespace pyasc::codegen
