// Boolean-mask selections (a[mask], np.nonzero, np.unique): arrays whose length depends on the data,
// kept as the whole array beside its mask and computed with only in ways whose shapes are static.
#include <algorithm>
#include <cmath>
#include <limits>

#include "frontend/Analyzer.h"

namespace pyasc::frontend {

using graph::TensorType;
using graph::ValueId;

namespace {

// What a reduction over selected rows starts from: the rows left out leave the result unchanged.
double reductionIdentity(const std::string& op, DType t) {
  const bool flt = isFloat(t);
  if (op == "ReduceMax") return flt ? -INFINITY : t == DType::Bool ? 0 : static_cast<double>(std::numeric_limits<int32_t>::min());
  if (op == "ReduceMin") return flt ? INFINITY : t == DType::Bool ? 1 : static_cast<double>(std::numeric_limits<int32_t>::max());
  if (op == "ReduceProd" || op == "ReduceAll") return 1;
  return 0;  // ReduceSum, ReduceMean, ReduceAny
}

bool selectionReduction(const std::string& op) {
  return op == "ReduceSum" || op == "ReduceMean" || op == "ReduceMax" || op == "ReduceMin" || op == "ReduceProd" ||
         op == "ReduceAll" || op == "ReduceAny";
}

}  // namespace

SymValue Analyzer::selectionOf(const SymValue& values, const SymValue& mask, const SourceRange& range) {
  SymValue s = SymValue::make(SymKind::Selection);
  s.items = {values, mask};
  s.range = range;
  return s;
}

void Analyzer::failOnSelection(const SourceRange& range, const std::string& what) {
  fail(range, what + " needs the elements of a boolean-mask selection, whose number depends on the data, which pyasc "
                     "cannot compile; a selection can be counted (len, .size), reduced (sum, mean, max, min, prod, "
                     "any, all), combined elementwise with arrays and selections by the same mask, and written back "
                     "through that mask (a[mask] = ...); or keep the shape with np.where(mask, a, 0)");
}

bool Analyzer::sameValue(ValueId a, ValueId b, int depth) {
  if (a == b) return true;
  if (depth > 8) return false;
  const graph::Graph& g = builder_.graph();
  if (g.type(a) != g.type(b)) return false;
  const graph::GraphConstant* ca = g.findConstant(a);
  const graph::GraphConstant* cb = g.findConstant(b);
  if (ca || cb) return ca && cb && ca->bytes == cb->bytes;
  const graph::Node* pa = builder_.producer(a);
  const graph::Node* pb = builder_.producer(b);
  if (!pa || !pb || pa->op != pb->op || pa->isLoop() || pa->inputs.size() != pb->inputs.size() ||
      pa->attrs.size() != pb->attrs.size() || pa->op.rfind("Random", 0) == 0) {
    return false;
  }
  for (size_t i = 0; i < pa->attrs.size(); ++i) {
    if (pa->attrs[i].name != pb->attrs[i].name || !(pa->attrs[i].value == pb->attrs[i].value)) return false;
  }
  for (size_t i = 0; i < pa->inputs.size(); ++i) {
    if (!sameValue(pa->inputs[i], pb->inputs[i], depth + 1)) return false;
  }
  return true;
}

ValueId Analyzer::maskAcross(ValueId mask, int rank, const SourceRange& range) {
  const TensorType& m = builder_.type(mask);
  if (m.rank() == rank) return mask;
  std::vector<int64_t> axes;
  for (int d = m.rank(); d < rank; ++d) axes.push_back(d);
  return builder_.addNode("ExpandDims", {mask}, {{"axes", axes}}, range);
}

SymValue Analyzer::selectionCount(const SymValue& s, const SourceRange& range) {
  const ValueId mask = arrayValue(s.items[1], range);
  const ValueId count = builder_.addNode("ReduceSum", {builder_.cast(mask, DType::Int32, range)},
                                         {{"keepdims", false}, {"dtype", std::string("int32")}}, range);
  SymValue v = fresh(count, range);
  v.weak = registry::ScalarKind::Int;
  return v;
}

SymValue Analyzer::selectionAttribute(const SymValue& s, const std::string& name, const SourceRange& range,
                                      const std::string& nameHint) {
  const TensorType values = builder_.type(arrayValue(s.items[0], range));
  const int maskRank = builder_.type(arrayValue(s.items[1], range)).rank();
  if (name == "ndim") return SymValue::ofInt(values.rank() - maskRank + 1);
  if (name == "dtype") return SymValue::ofDType(values.dtype);
  if (name == "size" || name == "shape") {
    SymValue count = selectionCount(s, range);
    std::vector<SymValue> dims{count};
    int64_t rowSize = 1;
    for (int d = maskRank; d < values.rank(); ++d) {
      dims.push_back(SymValue::ofInt(values.shape[static_cast<size_t>(d)].extent));
      rowSize *= values.shape[static_cast<size_t>(d)].extent;
    }
    if (name == "shape") return SymValue::tuple(std::move(dims));
    if (rowSize == 1) return count;
    return applyOp("Mul", {Argument{count, range, nullptr}, Argument{SymValue::ofInt(rowSize), range, nullptr}}, {}, range,
                   nameHint);
  }
  if (registry_.findAlias(name, registry::AliasForm::Method)) {
    SymValue method = SymValue::named(SymKind::Callable, name);
    method.self = std::make_shared<SymValue>(s);
    return method;
  }
  failOnSelection(range, "'." + name + "'");
}

SymValue Analyzer::applyToSelection(const std::string& op, const std::vector<Argument>& operands,
                                    std::vector<graph::NamedAttr> attrs, const SourceRange& range,
                                    const std::string& nameHint, const std::string& spelling) {
  const SymValue* first = nullptr;
  for (const Argument& a : operands) {
    if (a.value.kind != SymKind::Selection) continue;
    if (!first) {
      first = &a.value;
    } else if (!sameValue(arrayValue(first->items[1], range), arrayValue(a.value.items[1], range))) {
      fail(a.range, "boolean-mask selections combine only when they select by the same mask; this one's mask is "
                    "another array, so their lengths may differ",
           {note(first->range, "the other selection")});
    }
  }
  const SymValue mask = first->items[1];
  const int maskRank = builder_.type(arrayValue(mask, range)).rank();
  const int valuesRank = builder_.type(arrayValue(first->items[0], range)).rank();
  const int rank = valuesRank - maskRank + 1;  // the selection's: its rows, then the values' other axes
  const std::string what = "'" + (spelling.empty() ? ufuncName(op) : spelling) + "'";
  const registry::OpEntry* entry = registry_.find(op);

  if (selectionReduction(op) && operands.size() == 1) {
    std::optional<std::vector<int64_t>> axes;
    bool keepdims = false;
    std::vector<graph::NamedAttr> others;
    for (const graph::NamedAttr& a : attrs) {
      if (a.name == "axes") {
        axes = std::get<std::vector<int64_t>>(a.value);
      } else if (a.name == "keepdims") {
        keepdims = std::get<bool>(a.value);
      } else {
        others.push_back(a);
      }
    }
    bool rows = !axes;  // the reduction crosses the selected rows
    std::vector<int64_t> mapped;
    for (int64_t axis : axes.value_or(std::vector<int64_t>{})) {
      const int64_t a = axis < 0 ? axis + rank : axis;
      if (a < 0 || a >= rank) fail(range, "axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(rank));
      if (a == 0) {
        rows = true;
        for (int d = 0; d < maskRank; ++d) mapped.push_back(d);
      } else {
        mapped.push_back(maskRank + a - 1);
      }
    }
    std::vector<graph::NamedAttr> reduce = others;
    if (axes) reduce.push_back({"axes", mapped});
    ValueId values = arrayValue(first->items[0], range);
    if (!rows) {
      reduce.push_back({"keepdims", keepdims});
      return selectionOf(fresh(builder_.addNode(op, {values}, reduce, range, nameHint), range), mask, range);
    }
    if (keepdims) fail(range, "keepdims=True over the rows of a boolean-mask selection is not supported; reduce without it");
    reduce.push_back({"keepdims", false});
    const DType t = builder_.type(values).dtype;
    const ValueId across = maskAcross(arrayValue(mask, range), valuesRank, range);
    const std::string base = op == "ReduceMean" ? "ReduceSum" : op;
    ValueId filled = builder_.addNode(
        "Where", {across, values, builder_.constant(t == DType::Bool && base == "ReduceSum" ? DType::Int32 : t, {reductionIdentity(base, t)}, {}, range)}, {}, range);
    if (op != "ReduceMean") return fresh(builder_.addNode(base, {filled}, reduce, range, nameHint), range);
    // the mean: the sum over the selected elements divided by their number
    const DType meanType = builder_.deviceDType(isFloat(t) ? t : DType::Float64, range);
    filled = builder_.cast(filled, meanType, range);
    const ValueId sum = builder_.addNode("ReduceSum", {filled}, reduce, range);
    ValueId count = builder_.cast(arrayValue(selectionCount(*first, range), range), meanType, range);
    int64_t perRow = 1;
    const TensorType vt = builder_.type(values);
    for (int64_t a : mapped) {
      if (a >= maskRank) perRow *= vt.shape[static_cast<size_t>(a)].extent;
    }
    if (!axes) {
      for (int d = maskRank; d < valuesRank; ++d) perRow *= vt.shape[static_cast<size_t>(d)].extent;
    }
    if (perRow != 1) count = builder_.addNode("Mul", {count, builder_.constant(meanType, {static_cast<double>(perRow)}, {}, range)}, {}, range);
    return fresh(builder_.addNode("Div", {sum, count}, {}, range, nameHint), range);
  }

  if (!entry || (entry->category != registry::OpCategory::Elementwise && entry->category != registry::OpCategory::Broadcast)) {
    failOnSelection(range, what);
  }
  std::vector<Argument> unwrapped;
  for (const Argument& a : operands) {
    if (a.value.kind == SymKind::Selection) {
      unwrapped.push_back(Argument{a.value.items[0], a.range, nullptr});
      continue;
    }
    if (a.value.kind == SymKind::Tensor && !a.value.weak && builder_.type(arrayValue(a.value, a.range)).rank() >= rank) {
      fail(a.range, what + " of a boolean-mask selection (" + std::to_string(rank) + "-d, its length depends on the "
                         "data) and an array of " + std::to_string(builder_.type(arrayValue(a.value, a.range)).rank()) +
                         " dimensions: only arrays that broadcast against one selected row can be combined with it");
    }
    unwrapped.push_back(a);
  }
  SymValue result = applyOp(op, unwrapped, std::move(attrs), range, nameHint, spelling);
  if (result.kind != SymKind::Tensor) return result;
  return selectionOf(result, mask, range);
}

SymValue Analyzer::selectByMask(const SymValue& base, const SymValue& mask, const std::vector<const Expr*>& rest,
                                const Expr& index, const SourceRange& range) {
  static const Expr wholeAxis = [] {
    Expr e;
    e.kind = ExprKind::Slice;
    e.children.resize(3);
    return e;
  }();
  const TensorType m = builder_.type(arrayValue(mask, index.range));
  const TensorType a = builder_.type(arrayValue(base, range));
  if (m.rank() > a.rank()) {
    fail(index.range, "too many indices for array: array is " + std::to_string(a.rank()) + "-dimensional, but " +
                          std::to_string(m.rank()) + " were indexed");
  }
  for (int d = 0; d < m.rank(); ++d) {
    if (m.shape[static_cast<size_t>(d)] != a.shape[static_cast<size_t>(d)]) {
      fail(index.range, "boolean index did not match indexed array along dimension " + std::to_string(d) +
                            "; dimension is " + a.shape[static_cast<size_t>(d)].str() +
                            " but corresponding boolean dimension is " + m.shape[static_cast<size_t>(d)].str());
    }
  }
  std::vector<const Expr*> items(static_cast<size_t>(m.rank()), &wholeAxis);
  items.insert(items.end(), rest.begin(), rest.end());  // slices, integers and np.newaxis for the other axes
  SymValue values = base;
  if (!rest.empty()) {
    const IndexPlan plan = planItems(base, items, index.range, range);
    values = fresh(readThroughPlan(arrayValue(base, range), plan, range, ""), range);
  }
  return selectionOf(values, mask, range);
}

SymValue Analyzer::callSelecting(const std::string& name, const Argument& a, const CallArgs& args, const std::string& nameHint) {
  if (a.value.kind != SymKind::Tensor || a.value.weak) {
    fail(a.range, "np." + name + "() needs an array, found " + describeKind(a.value));
  }
  ValueId x = arrayValue(a.value, a.range);
  const TensorType t = builder_.type(x);
  if (name == "unique") {  // the first of each run of equal elements in sorted order
    if (t.rank() != 1) x = builder_.addNode("Reshape", {x}, {{"shape", std::vector<int64_t>{-1}}}, args.range);
    CallArgs sortArgs;
    sortArgs.positional.push_back(Argument{fresh(x, a.range), a.range, nullptr});
    sortArgs.range = args.range;
    sortArgs.calleeText = "np.sort";
    const SymValue sorted = callNumpy("sort", sortArgs, nameHint);
    const ValueId s = arrayValue(sorted, args.range);
    const int64_t n = builder_.type(s).shape[0].extent;
    auto part = [&](int64_t begin, int64_t end) { return builder_.slice(s, 0, begin, end, 1, args.range); };
    const ValueId previous = part(0, n - 1);
    const ValueId next = part(1, n);
    const ValueId first = builder_.constant(DType::Bool, {1}, {graph::Dim::known(1)}, args.range);
    const ValueId starts = builder_.addNode("Concat", {first, builder_.addNode("NotEqual", {next, previous}, {}, args.range)},
                                            {{"axis", int64_t{0}}}, args.range);
    return selectionOf(sorted, fresh(starts, args.range), args.range);
  }
  // nonzero, flatnonzero: the positions where x is not zero, one selection per axis
  ValueId mask = t.dtype == DType::Bool ? x : builder_.addNode("NotEqual", {x, builder_.constant(t.dtype, {0}, {}, args.range)}, {}, args.range);
  if (name == "flatnonzero" && t.rank() != 1) mask = builder_.addNode("Reshape", {mask}, {{"shape", std::vector<int64_t>{-1}}}, args.range);
  const TensorType m = builder_.type(mask);
  if (m.rank() == 0) fail(a.range, "np." + name + "() of a 0-d array is not supported; use np.atleast_1d first");
  const SymValue maskValue = fresh(mask, args.range);
  std::vector<SymValue> positions;
  for (int d = 0; d < m.rank(); ++d) {
    const int64_t n = m.shape[static_cast<size_t>(d)].extent;
    std::vector<int64_t> lineShape(static_cast<size_t>(m.rank()), 1);
    lineShape[static_cast<size_t>(d)] = n;
    ValueId line = builder_.addNode("Range", {}, {{"start", 0.0}, {"stop", static_cast<double>(n)}, {"step", 1.0},
                                                  {"dtype", std::string("int64")}}, args.range);
    line = builder_.addNode("Reshape", {line}, {{"shape", lineShape}}, args.range);
    std::vector<int64_t> full;
    for (const graph::Dim& dim : m.shape) full.push_back(dim.extent);
    line = builder_.addNode("BroadcastTo", {line}, {{"shape", full}}, args.range, nameHint);
    positions.push_back(selectionOf(fresh(line, args.range), maskValue, args.range));
  }
  if (name == "flatnonzero") return positions[0];
  return SymValue::tuple(std::move(positions));
}

}  // namespace pyasc::frontend
