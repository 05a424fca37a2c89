// Identity nodes forwarded: a Transpose by the identity permutation or a Reshape to the shape it
// reads (the frontend writes them where NumPy moves an axis onto itself or flattens a 1-d array)
// would each copy its operand on the host; their readers read the operand instead.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::cpu {

// Removes every such node of `graph` (any region) whose result no yield or graph output returns;
// its uses become uses of its operand. Returns how many.
int forwardIdentities(graph::Graph& graph);

}  // namespace pyasc::cpu
