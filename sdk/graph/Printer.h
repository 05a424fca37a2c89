// Prints a graph as MLIR-like text, one node per line, that Parser.h reads back exactly.
//
//   graph {
//     input %a : f32[256,256] loc("in.py":1:10)
//     input %r : f64[4] random(rand, seed = 0, stream = 1, offset = 0)
//     const %two : f32[] = [2.0]
//     %c = Mul(%a, %two) : f32[256,256] loc("in.py":2:12)
//     %d = Loop(%c) {start = 0, stop = 4, step = 1} : f32[256,256] (%i : s32[], %acc : f32[256,256]) {
//       %e = Add(%acc, %a) : f32[256,256]
//       yield %e
//     }
//     output out0 = %d
//   }
#pragma once

#include <string>

#include "sdk/graph/Graph.h"

namespace pyasc::graph {

struct PrintOptions {
  bool locations = true;  // append loc("file":line:col) where a location is known
  // an input's `from DTYPE` (the model's graph section leaves it out: its host dtypes section
  // carries it, and a format 1.1 reader's parser does not know it)
  bool declaredDTypes = true;
};

std::string printGraph(const Graph& graph, const PrintOptions& options = {});
// One node (and its body, for a loop) at the given indentation, for diagnostics and dumps.
std::string printNode(const Graph& graph, const Node& node, int indent = 0, const PrintOptions& options = {});

}  // namespace pyasc::graph
