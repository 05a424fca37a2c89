// Rewrites a float division by a computed broadcast operand (a row statistic, a scalar) as a
// multiplication by its reciprocal, computed once at the operand's own shape.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Returns how many divisions were rewritten.
int reciprocalDivisors(graph::Graph& graph);

}  // namespace pyasc::codegen
