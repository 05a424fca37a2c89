// Rewrites composite operators (softmax, log-softmax, layer and batch norm, var, std) into the
// primitives that have kernels: reductions with keepdims and broadcasting elementwise operators.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Returns how many composite nodes were expanded.
int expandComposites(graph::Graph& graph);

}  // namespace pyasc::codegen
