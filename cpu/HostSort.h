// Sorts: the rank sorts the frontend writes for np.sort and np.argsort (every pair of a row
// compared, O(n^2) work the NPU's vector unit runs in parallel) found in a graph and run on the
// host as one sort per row (O(n log n), NumPy's order: NaN last, equal values in their order).
#pragma once

#include <Halide.h>

#include "sdk/graph/Graph.h"

namespace pyasc::cpu {

// The CPU backend's own node: input the array sorted along its last axis; attribute `indices`
// (true: the stable order's indices, as np.argsort(kind='stable'); false: the sorted values).
constexpr const char* kHostSortOp = "HostSort";

// Replaces every complete rank sort of `graph` (any region) by one HostSort node: the last
// reduction of the frontend's construction (frontend/Calls.cpp, callSort) becomes the HostSort of
// the sorted array, and the construction's other nodes that nothing else reads are removed. A
// construction differing in any node, attribute or operand is left as it is. Returns how many.
int replaceRankSorts(graph::Graph& graph);

// `out` = `in` sorted along dimension 0 (the graph's last axis), row by row, or with `indices` the
// positions of the stable order (written as out's integer type).
void sortRows(const Halide::Buffer<>& in, Halide::Buffer<>& out, bool indices);

}  // namespace pyasc::cpu
