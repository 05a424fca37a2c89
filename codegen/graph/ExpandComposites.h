// Rewrites composite operators (layer and batch norm, var, std, all, any, softmax and log-softmax along an
// inner axis) into the primitives that have kernels; softmax along the last axis is kept for its
// fused kernel; calls of custom operators become the built-in nodes of their definitions.
#pragma once

#include "registry/OpRegistry.h"
#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Returns how many nodes were expanded; custom operators are looked up in `registry` (may be null).
int expandComposites(graph::Graph& graph, const registry::OpRegistry* registry);

}  // namespace pyasc::codegen
