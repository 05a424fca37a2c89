// Symbolic extents of a dynamic program's values, operator by operator.
#include "codegen/graph/SymbolicShapes.h"

#include <algorithm>

#include "ops/Elementwise.h"

namespace pyasc::codegen {

namespace {

[[noreturn]] void unsupported(const graph::Node& n, const std::string& why) {
  throw CompileError(n.loc, "'" + n.op + "' " + why + " is not compiled for dynamic shapes yet (elementwise operators " +
                                "over arrays of one dynamic shape and matmuls with dynamic rows are); compile one model per shape");
}

bool sameExtents(const std::vector<ShapeExpr>& a, const std::vector<ShapeExpr>& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](const ShapeExpr& x, const ShapeExpr& y) { return shape::same(x, y); });
}

}  // namespace

SymbolicShapes::SymbolicShapes(const graph::Graph& g) {
  for (const auto& s : g.symbols) names_.push_back(s.name);
  if (names_.empty()) return;
  for (const auto& in : g.inputs)
    if (!in.dims.empty()) dims_[in.value] = in.dims;
  for (const auto& n : g.body.nodes) {
    const std::vector<ShapeExpr>* shape = nullptr;  // the dynamic operands' common dims
    for (graph::ValueId v : n.inputs) {
      const std::vector<ShapeExpr>* d = dims(v);
      if (!d) continue;
      if (!n.regions.empty()) unsupported(n, "(a loop) over values with dynamic dimensions");
      if (n.op == "MatMul" || n.op == "FusedMatMul") break;
      if (!ops::isElementwiseOp(n.op)) unsupported(n, "on values with dynamic dimensions");
      if (shape && !sameExtents(*shape, *d)) unsupported(n, "of arrays of shapes [" + text(*shape) + "] and [" + text(*d) + "]");
      shape = d;
    }
    if (n.op == "MatMul" || n.op == "FusedMatMul") {
      matmul(g, n);
      continue;
    }
    if (!shape) continue;
    // static operands: one element, or rows of the dynamic shape's static trailing axes
    for (graph::ValueId v : n.inputs) {
      if (dims(v)) continue;
      graph::Shape s = g.type(v).shape;
      while (!s.empty() && s.front().extent == 1) s.erase(s.begin());
      bool fits = graph::elementCount(s) <= 1;
      if (!fits && s.size() <= shape->size()) {
        fits = true;
        for (size_t i = 0; fits && i < s.size(); ++i) {
          const ShapeExpr& d = (*shape)[shape->size() - s.size() + i];
          fits = shape::isConst(d) && d->value == s[i].extent;
        }
      }
      if (!fits) unsupported(n, "of an array of shape [" + text(*shape) + "] and one of " + graph::shapeString(g.type(v).shape));
    }
    if (g.type(n.outputs.at(0)).shape.size() != shape->size())
      unsupported(n, "broadcasting an array of shape [" + text(*shape) + "] to another rank");
    for (graph::ValueId out : n.outputs) dims_[out] = *shape;
  }
}

// A matmul whose A has dynamic rows (any dims but the last) and whose B (2-d) and bias are static:
// the result's dims are A's with the last replaced by B's columns.
void SymbolicShapes::matmul(const graph::Graph& g, const graph::Node& n) {
  const std::vector<ShapeExpr>* a = dims(n.inputs[0]);
  for (size_t i = 1; i < n.inputs.size(); ++i)
    if (dims(n.inputs[i])) unsupported(n, "of a dynamic second operand or bias");
  if (!a) return;
  if (a->size() < 2 || !shape::isConst(a->back()) || g.type(n.inputs[1]).rank() != 2)
    unsupported(n, "of an array of shape [" + text(*a) + "] and one of " + graph::shapeString(g.type(n.inputs[1]).shape));
  std::vector<ShapeExpr> out(a->begin(), a->end() - 1);
  out.push_back(shape::constant(g.type(n.inputs[1]).shape[1].extent));
  dims_[n.outputs.at(0)] = out;
}

const std::vector<ShapeExpr>* SymbolicShapes::dims(graph::ValueId v) const {
  auto it = dims_.find(v);
  return it == dims_.end() ? nullptr : &it->second;
}

bool SymbolicShapes::sameDims(graph::ValueId a, graph::ValueId b) const {
  const std::vector<ShapeExpr>*da = dims(a), *db = dims(b);
  return da && db ? sameExtents(*da, *db) : !da && !db;
}

ShapeExpr SymbolicShapes::count(const graph::Graph& g, graph::ValueId v) const {
  if (const auto* d = dims(v)) return shape::product(*d);
  return shape::constant(graph::elementCount(g.type(v).shape));
}

std::string SymbolicShapes::text(const std::vector<ShapeExpr>& dims) const {
  std::string s;
  for (const auto& d : dims) s += (s.empty() ? "" : ",") + shape::text(d, names_);
  return s;
}

}  // namespace pyasc::codegen
