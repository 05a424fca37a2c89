// O2: max and average pooling written in NumPy, maxima or sums over shifted, strided windows of one
// (padded) array, become MaxPool2D and AvgPool2D, the window kernel's operators.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// The hint a recognised pooling carries: the line of the maxima or sum it replaces.
constexpr const char* kRecognizedPoolingHint = "recognized_pooling";
// The hint maxima or a sum of windows that is not a pooling carries: why.
constexpr const char* kPoolingNearMissHint = "pooling_near_miss";

// Max pooling: a chain (or tree) of np.maximum over windows x[:, r : … : s, c : … : s', :] of one
// NHWC array (or x[:, :, r…, c…] of an NCHW one) (see WindowSums.h: loops nested, unrolled or in any order), starting from a window or
// an array of -inf. Average pooling: a sum of such windows, starting from nothing or zeros, divided
// by KH·KW (or multiplied by its reciprocal). It is a pooling when the windows (for a maximum,
// repeats allowed) are those of a KH×KW kernel, r = r0 + a, c = c0 + b, with one stride, on the
// array np.pad surrounds with -inf (maximum) or zeros (average) or on an unpadded one, the
// padding at most half the kernel: it becomes MaxPool2D or AvgPool2D (count_include_pad). Maxima
// or sums of two windows or more that fail a condition keep their nodes and get the near-miss
// hint. Returns how many were rewritten.
int recognizePooling(graph::Graph& graph);

}  // namespace pyasc::codegen
