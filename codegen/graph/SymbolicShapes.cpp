// Symbolic extents of a dynamic program's values, operator by operator.
#include "codegen/graph/SymbolicShapes.h"

#include <algorithm>

#include "ops/Elementwise.h"

namespace pyasc::codegen {

namespace {

[[noreturn]] void unsupported(const graph::Node& n, const std::string& why) {
  throw CompileError(n.loc, "'" + n.op + "' " + why + " is not compiled for dynamic shapes yet (elementwise operators " +
                                "over arrays of one dynamic shape, matmuls with dynamic rows, NHWC convolutions and float32 reductions are); compile one model per shape");
}

bool isConvolution(const graph::Node& n) { return n.op == "Conv2D" || n.op == "FusedConv2D"; }
bool isReduction(const graph::Node& n) {
  return n.op == "ReduceSum" || n.op == "ReduceMean" || n.op == "ReduceMax" || n.op == "ReduceMin";
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
      if (n.op == "MatMul" || n.op == "FusedMatMul" || isConvolution(n) || isReduction(n)) break;
      if (!ops::isElementwiseOp(n.op)) unsupported(n, "on values with dynamic dimensions");
      if (shape && !sameExtents(*shape, *d)) unsupported(n, "of arrays of shapes [" + text(*shape) + "] and [" + text(*d) + "]");
      shape = d;
    }
    if (n.op == "MatMul" || n.op == "FusedMatMul") {
      matmul(g, n);
      continue;
    }
    if (isConvolution(n)) {
      convolution(g, n);
      continue;
    }
    if (isReduction(n)) {
      reduction(g, n);
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

// An NHWC convolution of an input with dynamic batch, rows or columns (static channels) by static
// weights and epilogue rows: the output's rows and columns are (H + pads - extent)//stride + 1 of
// the input's. A residual operand must have the output's dims.
void SymbolicShapes::convolution(const graph::Graph& g, const graph::Node& n) {
  const std::vector<ShapeExpr>* x = dims(n.inputs[0]);
  const bool residual = n.boolAttr("residual");
  for (size_t i = 1; i < n.inputs.size() - (residual ? 1 : 0); ++i)
    if (dims(n.inputs[i])) unsupported(n, "of dynamic weights or per-channel rows");
  if (!x) {
    if (residual && dims(n.inputs.back())) unsupported(n, "of a static input and a dynamic residual");
    return;
  }
  if (n.stringAttr("layout", "NHWC") != "NHWC" || !shape::isConst((*x)[3]))
    unsupported(n, "of an NCHW array or dynamic channels [" + text(*x) + "]");
  if (n.intAttr("groups", 1) != 1) unsupported(n, "with groups");
  const graph::Shape& w = g.type(n.inputs[1]).shape;
  const std::vector<int64_t> strides = n.intListAttr("strides", {1, 1}), pads = n.intListAttr("pads", {0, 0, 0, 0}),
                             dil = n.intListAttr("dilations", {1, 1});
  auto extent = [&](const ShapeExpr& in, int axis) {
    const int64_t shift = pads[2 * axis] + pads[2 * axis + 1] - (w[axis].extent - 1) * dil[axis] - 1;
    return shape::add(shape::floorDiv(shape::add(in, shape::constant(shift)), shape::constant(strides[axis])), shape::constant(1));
  };
  std::vector<ShapeExpr> out = {(*x)[0], extent((*x)[1], 0), extent((*x)[2], 1), shape::constant(w[3].extent)};
  if (residual) {
    const std::vector<ShapeExpr>* r = dims(n.inputs.back());
    if (!r || !sameExtents(*r, out)) unsupported(n, "with a residual of other extents than [" + text(out) + "]");
  }
  dims_[n.outputs.at(0)] = out;
}

// A reduction over adjacent axes of a value with dynamic dims whose axes after them are static: the
// result's dims are the input's without the reduced ones (ones, with keepdims).
void SymbolicShapes::reduction(const graph::Graph& g, const graph::Node& n) {
  const std::vector<ShapeExpr>* x = dims(n.inputs[0]);
  if (!x) return;
  std::vector<int64_t> axes = reducedAxes(n, x->size());
  if (axes.back() - axes.front() + 1 != static_cast<int64_t>(axes.size()))
    unsupported(n, "over axes that are not adjacent");
  int64_t kept = 1;  // elements per reduced row: the kernel's lanes cycle through them
  for (size_t i = static_cast<size_t>(axes.back()) + 1; i < x->size(); ++i) {
    if (!shape::isConst((*x)[i])) unsupported(n, "keeping a dynamic axis after the reduced ones of [" + text(*x) + "]");
    kept *= (*x)[i]->value;
  }
  if (64 % kept != 0) unsupported(n, "keeping rows of " + std::to_string(kept) + " elements (not a divisor of 64)");
  const bool keep = g.type(n.outputs.at(0)).rank() == x->size();
  std::vector<ShapeExpr> out;
  bool dynamic = false;
  for (size_t i = 0; i < x->size(); ++i) {
    const bool reduced = std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(i));
    if (reduced && !keep) continue;
    out.push_back(reduced ? shape::constant(1) : (*x)[i]);
    dynamic = dynamic || !shape::isConst(out.back());
  }
  if (dynamic) dims_[n.outputs.at(0)] = out;
}

std::vector<int64_t> reducedAxes(const graph::Node& n, size_t rank) {
  std::vector<int64_t> axes;
  if (n.hasAttr("axes")) {
    for (int64_t a : n.intListAttr("axes")) axes.push_back(a < 0 ? a + static_cast<int64_t>(rank) : a);
  } else {
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (axes.empty()) axes = {0};
  std::sort(axes.begin(), axes.end());
  return axes;
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
