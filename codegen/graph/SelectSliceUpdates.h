// Narrows a selection between an array and a copy of it with one slice written (an `if` on data
// around `a[i] = v`) to a selection within the slice.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Where(c, SliceUpdate(x, v, ...), x), c one element, becomes SliceUpdate(x, Where(c, v, Slice(x,
// ...)), ...) (and mirrored for Where(c, x, SliceUpdate(x, ...))). Returns how many were rewritten.
int selectSliceUpdates(graph::Graph& graph);

}  // namespace pyasc::codegen
