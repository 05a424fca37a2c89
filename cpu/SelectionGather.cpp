// The frontend's selections by integer arrays found in a graph and run as gathers.
#include "cpu/SelectionGather.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cpu/GraphRewrite.h"
#include "cpu/LowerSupport.h"

namespace pyasc::cpu {

namespace {

using graph::Node;
using graph::ValueId;
using Halide::Expr;

// Whether `v` is a 0-d constant that leaves the reduction's total unchanged: the lowest value of its
// dtype for a maximum, 0 for a sum.
bool identityFill(const graph::Graph& graph, ValueId v, bool maximum) {
  const graph::GraphConstant* c = graph.findConstant(v);
  const graph::TensorType& t = graph.type(v);
  if (!c || t.rank() != 0) return false;
  const std::vector<double> value = graph::decodeConstant(t.dtype, c->bytes);
  if (value.size() != 1) return false;
  if (!maximum) return value[0] == 0.0;
  switch (t.dtype) {
    case DType::Float16: case DType::Float32: case DType::Float64: return value[0] == -INFINITY;
    case DType::Bool: case DType::UInt8: return value[0] == 0.0;
    case DType::Int8: return value[0] == std::numeric_limits<int8_t>::min();
    case DType::Int16: return value[0] == std::numeric_limits<int16_t>::min();
    case DType::Int32: return value[0] == std::numeric_limits<int32_t>::min();
    case DType::Int64: return value[0] == static_cast<double>(std::numeric_limits<int64_t>::min());
    default: return false;
  }
}

// Every extent of `shape` 1 but the last, which is n.
bool onlyLast(const graph::TensorType& t, int64_t n) {
  for (int k = 0; k + 1 < t.rank(); ++k)
    if (t.shape[static_cast<size_t>(k)].extent != 1) return false;
  return t.rank() >= 1 && t.shape.back().extent == n;
}

std::optional<Replacement> selectionAt(const graph::Graph& graph, const Node& last, const Definitions& definitions) {
  const bool maximum = last.op == "ReduceMax";
  if ((!maximum && last.op != "ReduceSum") || last.inputs.size() != 1 || last.boolAttr("keepdims")) return std::nullopt;
  const std::vector<int64_t> axes = last.intListAttr("axes");
  const int64_t R = graph.type(last.inputs[0]).rank();
  if (axes.size() != 1 || axes[0] < 0 || axes[0] >= R) return std::nullopt;
  const int64_t a = axes[0];
  Replacement r;
  auto is = [&](ValueId v, const char* op, size_t inputs) { return definedBy(definitions, v, op, inputs, r.construction); };
  const Node* where = is(last.inputs[0], "Where", 3);
  if (!where) return std::nullopt;
  // the fill: the identity, or (integers) the smallest element of the table (kept: the gather reads it)
  std::set<const Node*> unused;
  const Node* smallest = maximum ? definedBy(definitions, where->inputs[2], "ReduceMin", 1, unused) : nullptr;
  const bool tableMinimum = smallest && smallest->inputs[0] == where->inputs[1] && !smallest->hasAttr("axes") && !smallest->boolAttr("keepdims");
  if (!tableMinimum && !identityFill(graph, where->inputs[2], maximum)) return std::nullopt;
  ValueId cond = where->inputs[0];
  if (a + 1 < R) {  // the match spread over the table's axes after `axis`
    const Node* spread = is(cond, "ExpandDims", 1);
    std::vector<int64_t> after;
    for (int64_t k = a + 1; k < R; ++k) after.push_back(k);
    if (!spread || spread->intListAttr("axes") != after) return std::nullopt;
    cond = spread->inputs[0];
  }
  const Node* equal = is(cond, "Equal", 2);
  const Node* index = equal ? is(equal->inputs[0], "ExpandDims", 1) : nullptr;
  if (!index || index->intListAttr("axes") != std::vector<int64_t>{a} || graph.type(index->inputs[0]).rank() != a) return std::nullopt;
  const ValueId positions = equal->inputs[1], table = where->inputs[1];
  const graph::TensorType& tableType = graph.type(table);
  if (tableType.rank() != R) return std::nullopt;
  const int64_t n = tableType.shape[static_cast<size_t>(a)].extent;
  for (int64_t k = 0; k < a; ++k)
    if (tableType.shape[static_cast<size_t>(k)].extent != 1) return std::nullopt;
  if (!onlyLast(graph.type(positions), n) || graph.type(positions).rank() != a + 1) return std::nullopt;
  const Node* shaped = is(positions, "Reshape", 1);
  if (!shaped) shaped = is(positions, "ExpandDims", 1);
  const Node* range = shaped ? is(shaped->inputs[0], "Range", 0) : nullptr;
  if (!range || range->floatAttr("start") != 0.0 || range->floatAttr("step") != 1.0 || range->floatAttr("stop") != static_cast<double>(n)) return std::nullopt;
  if (!isInteger(graph.type(index->inputs[0]).dtype)) return std::nullopt;
  r.node.op = kTakeSelectedOp;
  r.node.inputs = {table, index->inputs[0], where->inputs[2]};
  r.node.attrs = {{"axis", a}};
  return r;
}

}  // namespace

int replaceSelections(graph::Graph& graph) {
  return replaceConstructions(graph, [&](const Node& node, const Definitions& definitions) { return selectionAt(graph, node, definitions); });
}

Lowered lowerTakeSelected(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const Lowered &table = in.at(0), &index = in.at(1), &fill = in.at(2);
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const size_t a = static_cast<size_t>(node.intAttr("axis"));
  const int64_t n = table.type.shape[a].extent;
  const Halide::Type want = halideType(outType.dtype);
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    if (n == 0) return castValue(want, at(fill, {}));  // (an empty table: every index outside it)
    const Expr j = Halide::cast<int64_t>(at(index, Index(i.begin(), i.begin() + static_cast<std::ptrdiff_t>(a))));
    Index src(a, Expr(0));
    src.push_back(Halide::cast<int32_t>(Halide::clamp(j, Halide::cast<int64_t>(0), Halide::cast<int64_t>(Expr(static_cast<int32_t>(n - 1))))));
    src.insert(src.end(), i.begin() + static_cast<std::ptrdiff_t>(a), i.end());
    return Halide::select(j >= Halide::cast<int64_t>(0) && j < Halide::cast<int64_t>(Expr(static_cast<int32_t>(n))),
                          castValue(want, at(table, src)), castValue(want, at(fill, {})));
  });
}

}  // namespace pyasc::cpu
