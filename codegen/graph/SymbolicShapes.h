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
  // dynamic rows by a static 2-d B, their bias static).
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

 public:
 private:
  std::map<graph::ValueId, std::vector<ShapeExpr>> dims_;
  std::vector<std::string> names_;
};

}  // namespace pyasc::codegen
