// O2: a matmul's bias add and ReLU (in that order, each optional) become the epilogue of one
// FusedMatMul, applied to the accumulator before the result is written.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Rewrites every chain MatMul (float operands, a 2-d b, a float16 or float32 result) → [Add of a
// vector of the result's columns, float32 or the result's type] → [Relu, or Maximum with the
// constant 0] whose intermediate results nothing else reads. Returns how many matmuls took an epilogue.
int fuseMatmulEpilogues(graph::Graph& graph);

}  // namespace pyasc::codegen
