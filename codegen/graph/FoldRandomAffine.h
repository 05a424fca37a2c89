// O2: a float32 random input scaled by a constant, then shifted by one (np.random.randn(n) *
// 0.05 + 1), becomes a random input whose runtime draws are scaled and shifted as they are made.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Folds Mul(random, c) and then Add(random, c) (either operand order; c a float32 constant of one
// element; the random input read by nothing else; the result of the input's shape) into the
// input's RandomSpec, in that order. Returns how many nodes were folded.
int foldRandomAffine(graph::Graph& graph);

}  // namespace pyasc::codegen
