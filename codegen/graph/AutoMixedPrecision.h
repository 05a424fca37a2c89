// Automatic mixed precision: matmuls and convolutions take float16 operands and accumulate in
// float32 (O1); at O2 their results and the elementwise and data-movement work that follows them
// stay in float16, while reductions, exponentials, logarithms, divisions, normalisations and the
// program's outputs stay in float32.
#pragma once

#include <string>

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// The hint marking each node automatic mixed precision moved to float16 (pyasc info lists them).
constexpr const char* kPrecisionHint = "precision";

// Rewrites the nodes whose mode (their `amp_mode` hint from the pragma, else `mode`: "", "O1" or
// "O2") asks for it; "off" rewrites nothing, pragma or not. Returns how many nodes now compute in
// float16.
int autoMixedPrecision(graph::Graph& graph, const std::string& mode);

// The nodes marked float16 that remain (after dead-node elimination: the model's flag).
int float16Nodes(const graph::Graph& graph);

}  // namespace pyasc::codegen
