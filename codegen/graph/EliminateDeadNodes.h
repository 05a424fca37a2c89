// Removes nodes whose results nothing reads (graph outputs and loop yields count as reads).
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Returns how many nodes were removed.
int eliminateDeadNodes(graph::Graph& graph);

}  // namespace pyasc::codegen
