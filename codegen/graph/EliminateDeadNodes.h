// Removes nodes whose results nothing reads (graph outputs count as reads), and the carried values
// of loops that nothing after the loop and nothing in its body reads.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Returns how many nodes were removed.
int eliminateDeadNodes(graph::Graph& graph);

}  // namespace pyasc::codegen
