// Graph operators as Halide functions: one definition per registry operator the CPU backend runs.
#pragma once

#include <string>
#include <vector>

#include "cpu/HalideTypes.h"
#include "sdk/graph/Graph.h"

namespace pyasc::cpu {

// A value while lowering: its Halide function, whose dimensions are the array's axes innermost
// first (Halide's order: NumPy's last axis is dimension 0), and its type.
struct Lowered {
  Halide::Func func;
  graph::TensorType type;
  // when computed over its extent, split the innermost dimension by this many elements first (a
  // reshape merging axes into its innermost one: within a split, its reads are contiguous)
  int64_t innerSplit = 0;
};

// The element of `v` at `index`, given in NumPy axis order.
Halide::Expr at(const Lowered& v, const std::vector<Halide::Expr>& index);

// The outputs of `node` (not a loop) from its lowered inputs; throws CompileError located at the
// node for an operator the backend does not lower.
std::vector<Lowered> lowerNode(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& inputs);

// A SliceUpdate's slice: its extents (the output's, narrowed along the sliced axes), and the update
// broadcast to them: what an update in place writes into the array (the caller writes it).
std::vector<int64_t> sliceUpdateExtents(const graph::Node& node, const graph::TensorType& outType);
Lowered sliceUpdateValue(const graph::Graph& graph, const graph::Node& node, const Lowered& update);

// A Concat or Stack computed over its extent: one update per operand writing its piece (no select
// between the operands per element); lowerNode's form is for a join computed inside its reader.
Lowered joinPieces(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in);

// Whether lowerNode takes `op`; the others are listed in docs/cpu-backend.md.
bool lowersOnCpu(const std::string& op);

}  // namespace pyasc::cpu
