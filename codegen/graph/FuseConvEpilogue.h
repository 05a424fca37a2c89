// O2: an NHWC convolution's per-channel scale and bias add or batch norm, residual add and ReLU (in
// that order, each optional) become the epilogue of one FusedConv2D, applied to the accumulator
// before the result is written.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Rewrites every chain Conv2D → [BatchNorm over the last axis, or Mul then Add of vectors of the
// output channels, float32 or the result's type, each optional] → [Add of an array of the result's
// type] → [Relu, or Maximum with the constant 0] whose intermediate results nothing else reads.
// Returns how many convolutions took an epilogue.
int fuseConvEpilogues(graph::Graph& graph);

}  // namespace pyasc::codegen
