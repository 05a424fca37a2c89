// O2: a batch norm with constant statistics after a convolution or matmul with constant weights
// becomes part of the weights and a bias add, which the epilogue passes then fold into the kernel.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// The hint a convolution or matmul whose weights took a batch norm carries.
constexpr const char* kFoldedBatchNormHint = "folded_batch_norm";

// Rewrites every BatchNorm over the last axis of an NHWC Conv2D or a MatMul of a 2-d b, whose
// result only it reads, whose weights are a float32 constant and whose four statistics are float32
// constant vectors: the weights become W · s along their last axis and the batch norm an Add of
// t, with s = gamma / sqrt(var + eps) and t = beta − mean · s, in float32. Returns how many.
int foldBatchNorms(graph::Graph& graph);

}  // namespace pyasc::codegen
