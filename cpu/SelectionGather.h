// Gathers: the selections the frontend writes for indexing with integer arrays (x[idx], eye[rows]:
// every index compared with every position, the match kept by a reduction, O(n·m) work the NPU's
// vector unit runs in parallel) found in a graph and run as gathers (O(m)).
#pragma once

#include <vector>

#include "cpu/LowerNode.h"
#include "sdk/graph/Graph.h"

namespace pyasc::cpu {

// The CPU backend's own node: inputs the table, the index and the fill (a 0-d value); attribute
// `axis`: out[p..., q...] = table[0, ..., 0, idx[p...], q...] (the index's axes, then the table's
// after `axis`) when 0 <= idx < the table's extent along `axis`, else fill.
constexpr const char* kTakeSelectedOp = "TakeSelected";

// Replaces every complete selection of `graph` (any region): the reduction (a maximum from the
// lowest value or from the table's smallest element, or a sum from 0) over `axis` of Where(ExpandDims(Equal(ExpandDims(idx, [axis]),
// positions)), table, fill) with positions Range(0, n) as [1, ..., 1, n] and the table's axes before
// `axis` of extent 1, by a TakeSelected; the selection's other nodes nothing else reads are removed.
// Returns how many.
int replaceSelections(graph::Graph& graph);

Lowered lowerTakeSelected(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& inputs);

}  // namespace pyasc::cpu
