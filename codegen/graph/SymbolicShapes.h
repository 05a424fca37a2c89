// The extents of a dynamic program's values over its symbols (pyasc --dynamic-dims): from the
// inputs' dims through the operators that compile for dynamic shapes; a located error at the first
// operator dynamic dimensions reach that does not.
#pragma once

#include <map>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

class SymbolicShapes {
 public:
  SymbolicShapes() = default;
  // Throws CompileError at an operator whose operands have dynamic dimensions and that has no
  // dynamic lowering yet (today: elementwise operators over operands of the same dynamic shape,
  // one-element operands and rows repeated along the static trailing axes; matmuls of an A with
  // dynamic rows by a static 2-d B, their bias static; NHWC convolutions of dynamic batch, rows and
  // columns by static weights; reductions over adjacent axes, the axes after them static).
  explicit SymbolicShapes(const graph::Graph& g);

  bool dynamic() const { return !names_.empty(); }
  // The dims of `v` over the symbols, or null for a value of static shape.
  const std::vector<ShapeExpr>* dims(graph::ValueId v) const;
  // Whether `a` and `b` have the same extents at every binding (both static, or the same dims).
  bool sameDims(graph::ValueId a, graph::ValueId b) const;
  // The element count of `v`: its dims' product, or its static count.
  ShapeExpr count(const graph::Graph& g, graph::ValueId v) const;
  const std::vector<std::string>& names() const { return names_; }
  std::string text(const std::vector<ShapeExpr>& dims) const;  // "N,H,W,3"

 private:
  void matmul(const graph::Graph& g, const graph::Node& n);
  void convolution(const graph::Graph& g, const graph::Node& n);
  void reduction(const graph::Graph& g, const graph::Node& n);

 private:
  std::map<graph::ValueId, std::vector<ShapeExpr>> dims_;
  std::vector<std::string> names_;
};

// A reduction's axes, normalised and sorted: its `axes` attribute, or every axis (axis 0 of a
// rank-0 value, which reduces as [1]).
std::vector<int64_t> reducedAxes(const graph::Node& n, size_t rank);

}  // namespace pyasc::codegen
