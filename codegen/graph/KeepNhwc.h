// O2: NCHW convolutions (PyTorch's layout) run as NHWC ones, the kernels' own layout, and the
// activations stay NHWC from one convolution or pooling to the next instead of being transposed
// around each one.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// The hint on a convolution or pooling keep-nhwc runs in NHWC (`pyasc info` lists them).
constexpr const char* kKeptNhwcHint = "kept_nhwc";

// Each NCHW Conv2D of the top-level region becomes an NHWC Conv2D of its input transposed (once
// per value) and of its weights as [KH,KW,C/g,F] (two transposes that move whole rows). A value is
// kept in NHWC, its "twin", when an NHWC convolution or pooling computes it or an elementwise node
// of 4-d result computes it from twins, one-element values and per-channel values ([C,1,1],
// [N,C,1,1]: reshaped, not moved); such elementwise nodes and NCHW pooling of a twin run in NHWC.
// A sum, mean, maximum or minimum of a twin over its rows and columns reduces the twin (the same
// [N, C] result). An NCHW value anything else reads (another operator, an output) is transposed
// back from its twin. Returns how many convolutions and poolings now run in NHWC.
int keepNhwc(graph::Graph& graph);

}  // namespace pyasc::codegen
