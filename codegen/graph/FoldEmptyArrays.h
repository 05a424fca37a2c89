// Folds the operations whose operands have no elements but whose results do (a sum over an empty
// slice, a product of a 1×0 and a 0×1 matrix) into the fills NumPy's results are.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Returns how many nodes became fills. A maximum or minimum over no elements is NumPy's error.
int foldEmptyArrays(graph::Graph& graph);

}  // namespace pyasc::codegen
