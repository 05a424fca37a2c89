// O2: the convolution NumPy users write by hand, a sum over kernel taps of contractions of shifted,
// strided windows of one (padded) input with the taps' weights, becomes Conv2D, so that the cube
// kernel and the epilogue passes take it.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// The hint a recognised convolution carries: the line of the sum it replaces.
constexpr const char* kRecognizedConvolutionHint = "recognized_convolution";
// The hint a sum that looks like a convolution but is not one carries: why.
constexpr const char* kConvolutionNearMissHint = "convolution_near_miss";

// A sum of taps is a chain of adds onto an initial array (zeros, anything else, or nothing), in
// counted loops or not (nested, unrolled, in any order), each adding a contraction over channels
// (`@`, np.matmul, np.einsum "nhwc,cf->nhwf", np.tensordot over axes 3 and 0) of a window
// x[:, r : … : s, c : … : s', :] of an NHWC array with the weights w[a, b] of a [KH,KW,C,F] array
// (or, depthwise, the window times w[a, b] of a [KH,KW,C] or [KH,KW,1,C] array: groups = C; or
// NCHW, np.einsum "nchw,fc->nfhw" of x[:, :, r…, c…] with w[:, :, a, b] of an [F,C,KH,KW] array),
// each intermediate sum read only by the next add. Its offsets are evaluated exactly for every
// trip of the loops (counters, constants, + − ×). The sum is a convolution when its taps are the
// KH·KW (a, b) once each, all read windows of one array with one stride and r = r0 + dh·a,
// c = c0 + dw·b, and the windows fit the array (np.pad with zeros, or not padded): it becomes
// Conv2D(x, w) with those strides, dilations and padding (plus the initial array unless it is
// zeros). A single tap is one when its weights are those of a [1,1,C,F] kernel, or when its
// window is strided (a [C,F] matrix reshaped to [1,1,C,F]); a plain x @ w stays a matmul.
// An einsum or tensordot of every window np.lib.stride_tricks.sliding_window_view(x, (KH, KW),
// axis=(1, 2)) (or every s-th) with kernel weights over the channel and window axes (any order of
// the weights' axes; depthwise over the window axes only) is one too, and so is im2col: the KH·KW
// windows stacked at axis 3 or written in loops into a preallocated [N,OH,OW,KH,KW,C] array (or
// [N,OH,OW,KH·KW,C] at compile-time slots), flattened to rows, times the [KH,KW,C,F] weights
// flattened.
// A sum of two taps or more that fails a condition keeps its nodes and gets the near-miss hint.
// Returns how many sums were rewritten.
int recognizeConvolutions(graph::Graph& graph);

}  // namespace pyasc::codegen
