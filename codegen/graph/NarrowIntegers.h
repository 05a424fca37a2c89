// Computes in int32 the int64 values whose bounds the program itself keeps within int32 (argmin and
// argmax indices, np.arange, integer constants, and what sums, products, shape operations and casts
// make of them), where the vector unit has int32 instructions and none for int64.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Returns how many values became int32.
int narrowIntegers(graph::Graph& graph);

}  // namespace pyasc::codegen
