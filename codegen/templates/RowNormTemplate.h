// The row-norm template (softmax, log-softmax and layer norm along the last axis as one fused
// kernel): which nodes it takes, asked by expand-composites too.
#pragma once

#include <string>

#include "sdk/graph/Graph.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

// Why the fused row kernel does not take `n` (a Softmax, LogSoftmax or LayerNorm node); empty when
// it does: float16 or float32 along the last axis, a layer norm's gamma and beta one row each of
// x's type, and rows the kernel takes (rowKernelRefusal).
std::string rowNormRefusal(const graph::Node& n, const graph::Graph& g, const Target& target);

}  // namespace pyasc::codegen
