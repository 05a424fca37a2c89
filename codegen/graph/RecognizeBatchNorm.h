// O2: the batch norm NumPy users write out, (x - mean) / np.sqrt(var + eps) * gamma + beta over the
// last axis, becomes the BatchNorm operator, so that the epilogue and folding passes take it.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// The hint a BatchNorm written out in NumPy carries: the line it was written on (the node may be
// fused into another later).
constexpr const char* kRecognizedBatchNormHint = "recognized_batch_norm";

// Rewrites every chain Sub(x, mean) → Div(·, Sqrt(Add(var, eps))) → Mul(·, gamma) → Add(·, beta),
// each multiplication and addition in either order, whose intermediate results nothing else reads,
// where mean, var, gamma and beta are vectors of x's last axis, eps a one-element float constant
// and the result has x's type, into BatchNorm(x, mean, var, gamma, beta) over the last axis.
// Returns how many.
int recognizeBatchNorms(graph::Graph& graph);

}  // namespace pyasc::codegen
