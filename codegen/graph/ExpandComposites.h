// Rewrites composite operators (layer and batch norm, var, std, all, any, softmax and log-softmax)
// into the primitives that have kernels, except those the fused row kernel takes; calls of custom
// operators become the built-in nodes of their definitions.
#pragma once

#include "registry/OpRegistry.h"
#include "sdk/graph/Graph.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

// Returns how many nodes were expanded; custom operators are looked up in `registry` (may be null).
// A softmax, log-softmax or layer norm stays whole when the row-norm template takes it on `target`.
int expandComposites(graph::Graph& graph, const registry::OpRegistry* registry, const Target& target);

}  // namespace pyasc::codegen
