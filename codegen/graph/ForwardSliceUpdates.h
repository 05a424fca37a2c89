// Reads through slice updates: a slice of x with a slice written reads x where the two slices
// are disjoint, and the written value where they are the same.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Slice(SliceUpdate(x, v, ...)) becomes Slice(x) when the slices are disjoint (static bounds on a
// shared axis), Identity(v) when they are the same (equal attributes and dynamic offsets);
// chains of updates are followed. Returns how many slices were rewritten.
int forwardSliceUpdates(graph::Graph& graph);

}  // namespace pyasc::codegen
