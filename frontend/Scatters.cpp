// Accumulating scatters: np.add.at and its kin, and loops that accumulate into an array at indices computed from their items.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "frontend/Analyzer.h"
#include "registry/ShapeInference.h"

namespace pyasc::frontend {

using graph::TensorType;
using graph::ValueId;

namespace {

// The ufuncs whose `at` pyasc runs, and the graph operator that combines an element with a value.
const std::map<std::string, std::string>& ufuncCombines() {
  static const std::map<std::string, std::string> c = {
      {"add", "Add"}, {"subtract", "Sub"}, {"multiply", "Mul"}, {"maximum", "Maximum"}, {"minimum", "Minimum"}};
  return c;
}

// The augmented assignments a loop may run as a scatter, and their combining operators.
const std::map<std::string, std::string>& augmentedCombines() {
  static const std::map<std::string, std::string> c = {{"+", "Add"}, {"-", "Sub"}, {"*", "Mul"}};
  return c;
}

// Expressions whose value in each iteration is the same elementwise expression of the items: names,
// numbers, arithmetic, and subscripts of a name by a name (A[t], checked later to be a 1-d array
// indexed by a loop item).
bool elementwiseForm(const Expr& e) {
  static const std::set<std::string> arithmetic = {"+", "-", "*", "/", "//", "%", "**", "&", "|", "^"};
  switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Int:
    case ExprKind::Float:
    case ExprKind::Bool: return true;
    case ExprKind::BinOp: return arithmetic.count(e.text) && elementwiseForm(*e.children[0]) && elementwiseForm(*e.children[1]);
    case ExprKind::UnaryOp: return (e.text == "-" || e.text == "+") && elementwiseForm(*e.children[0]);
    case ExprKind::Subscript: return e.children[0]->kind == ExprKind::Name && e.children[1]->kind == ExprKind::Name;
    default: return false;
  }
}

// An array read without effects: a name, or a name sliced or indexed by constants and names
// (evaluating it once more when the loop is not a scatter adds only nodes that go unread).
bool plainArray(const Expr& e) {
  if (e.kind == ExprKind::Name) return true;
  if (e.kind != ExprKind::Subscript || e.children[0]->kind != ExprKind::Name) return false;
  std::function<bool(const Expr&)> simple = [&](const Expr& i) {
    if (i.kind == ExprKind::Name || i.kind == ExprKind::Int) return true;
    if (i.kind == ExprKind::UnaryOp) return i.text == "-" && simple(*i.children[0]);
    if (i.kind != ExprKind::Slice && i.kind != ExprKind::Tuple) return false;
    return std::all_of(i.children.begin(), i.children.end(), [&](const ExprPtr& c) { return !c || simple(*c); });
  };
  return simple(*e.children[1]);
}

// The names an elementwise form reads as values, and the arrays it subscripts (A of A[t]), apart.
void collectNames(const Expr& e, std::set<std::string>& values, std::set<std::string>& subscripted) {
  if (e.kind == ExprKind::Name) values.insert(e.text);
  if (e.kind == ExprKind::Subscript) {
    subscripted.insert(e.children[0]->text);
    values.insert(e.children[1]->text);
    return;
  }
  for (const auto& c : e.children) {
    if (c) collectNames(*c, values, subscripted);
  }
}

bool hasSubscript(const Expr& e) {
  return e.kind == ExprKind::Subscript ||
         std::any_of(e.children.begin(), e.children.end(), [](const ExprPtr& c) { return c && hasSubscript(*c); });
}

// Every subscript A[index] of `e` (a copy) replaced by the name `substitutes[A]`.
void substitute(ExprPtr& e, const std::string& index, const std::map<std::string, std::string>& substitutes) {
  if (e->kind == ExprKind::Subscript && e->children[1]->text == index && substitutes.count(e->children[0]->text)) {
    auto name = std::make_unique<Expr>();
    name->kind = ExprKind::Name;
    name->text = substitutes.at(e->children[0]->text);
    name->range = e->range;
    e = std::move(name);
    return;
  }
  for (auto& c : e->children) {
    if (c) substitute(c, index, substitutes);
  }
}

}  // namespace

ValueId Analyzer::combineAt(const AdvancedLayout& layout, ValueId hit, ValueId v, const std::string& combine,
                            const SourceRange& range) {
  auto node = [&](const std::string& op, std::vector<ValueId> in, std::vector<graph::NamedAttr> attrs = {}) {
    return builder_.addNode(op, std::move(in), std::move(attrs), range);
  };
  const DType t = builder_.type(v).dtype;
  if (!layout.rest.empty()) {
    std::vector<int64_t> tail;
    for (size_t i = 0; i < layout.rest.size(); ++i) tail.push_back(2 + static_cast<int64_t>(i));
    hit = node("ExpandDims", {hit}, {{"axes", tail}});
  }
  const ValueId moved = layout.moved;  // [N, rest...]
  ValueId reduced;
  if (combine == "Maximum" || combine == "Minimum") {  // the element itself where no value points
    std::vector<int64_t> spread = {1, layout.positions};
    spread.insert(spread.end(), layout.restShape.begin(), layout.restShape.end());
    const ValueId filler = node("Reshape", {moved}, {{"shape", spread}});
    reduced = node(combine == "Maximum" ? "ReduceMax" : "ReduceMin", {node("Where", {hit, v, filler})},
                   {{"axes", std::vector<int64_t>{0}}, {"keepdims", false}});
  } else if (combine == "Mul" && !isFloat(t)) {  // integer products (the vector unit has no ReduceProd for them)
    reduced = node("Where", {hit, v, builder_.constant(t, {1.0}, {}, range)});
    const graph::Shape shape = builder_.type(reduced).shape;
    auto rows = [&](ValueId x, int64_t begin, int64_t end) { return builder_.slice(x, 0, begin, end, 1, range); };
    for (int64_t m = shape[0].extent; m > 1; m = (m + 1) / 2) {  // halves multiplied pairwise
      const int64_t half = m / 2;
      ValueId product = node("Mul", {rows(reduced, 0, half), rows(reduced, half, 2 * half)});
      if (m % 2) product = node("Concat", {product, rows(reduced, 2 * half, m)}, {{"axis", int64_t{0}}});
      reduced = product;
    }
    reduced = node("Squeeze", {reduced}, {{"axes", std::vector<int64_t>{0}}});
  } else {
    const ValueId identity = builder_.constant(t, {combine == "Mul" ? 1.0 : 0.0}, {}, range);
    reduced = node(combine == "Mul" ? "ReduceProd" : "ReduceSum", {node("Where", {hit, v, identity})},
                   {{"axes", std::vector<int64_t>{0}}, {"keepdims", false}});
  }
  if (builder_.type(reduced).dtype != t) reduced = builder_.cast(reduced, t, range);
  const ValueId updated = node(combine, {moved, reduced});
  return builder_.type(updated).dtype == t ? updated : builder_.cast(updated, t, range);
}

// np.add.at(a, indices, b): a's elements at integer index arrays (one array for the first axis, or a
// tuple of arrays and integers, one per leading axis) combined with b's values, each position with
// every value that points at it, in a's dtype; a is updated in place and the call returns None.
SymValue Analyzer::callUfuncAt(const std::string& ufunc, const CallArgs& args) {
  const std::string spelling = "np." + ufunc + ".at";
  if (args.positional.size() != 3 || !args.keywords.empty()) {
    fail(args.range, spelling + "() takes an array, its indices and the values: " + spelling + "(a, indices, b)");
  }
  const Argument& a = args.positional[0];
  const Argument& indices = args.positional[1];
  const Argument& b = args.positional[2];
  if (a.value.kind == SymKind::Poison || indices.value.kind == SymKind::Poison || b.value.kind == SymKind::Poison) {
    return SymValue::none();
  }
  if (a.value.kind != SymKind::Tensor || a.value.weak || a.value.untyped) {
    fail(a.range, spelling + "() updates an array in place; its first argument is " + describeKind(a.value));
  }
  if (!a.value.copyOfView.empty()) {
    fail(a.range, "writing into a slice of the view '" + a.value.copyOfView + "' is not supported; index the original array");
  }
  const DType t = builder_.type(arrayValue(a.value, a.range)).dtype;
  if (t == DType::Bool) fail(a.range, spelling + "() on a boolean array is not supported; use an integer array");
  // a list is one index array (for the first axis), a tuple one index per leading axis, as in NumPy
  const bool list = indices.expr && indices.expr->kind == ExprKind::List;
  std::vector<SymValue> items = {indices.value};
  if (list) {
    items = {fresh(asArray(indices, spelling), indices.range)};
  } else if (indices.value.kind == SymKind::Tuple) {
    items = indices.value.items;
    const bool literal = indices.expr && indices.expr->kind == ExprKind::Tuple;
    const bool arrays = std::all_of(items.begin(), items.end(), [](const SymValue& v) { return v.kind == SymKind::Tensor; });
    if (!literal && !arrays) {
      fail(indices.range, spelling + "() cannot tell a list from a tuple held in a name; pass the indices as an array "
                                     "(np.array([...])) or write the tuple in the call");
    }
  }
  const int rank = builder_.type(arrayValue(a.value, a.range)).rank();
  if (items.empty() || static_cast<int>(items.size()) > rank) {
    fail(indices.range, spelling + "() needs one index array per indexed axis, at most " + std::to_string(rank));
  }
  std::vector<AdvancedIndex> advanced;
  for (size_t k = 0; k < items.size(); ++k) {
    SymValue index = items[k];
    if (index.kind == SymKind::Int) {
      index = fresh(builder_.constant(builder_.deviceDType(DType::Int64, indices.range), {double(index.intValue)}, {},
                                      indices.range),
                    indices.range);
    }
    const bool integers = index.kind == SymKind::Tensor && !index.weak &&
                          isInteger(builder_.type(arrayValue(index, indices.range)).dtype);
    if (!integers) {
      fail(indices.range, spelling + "() takes integer index arrays (a tuple of them for several axes); index " +
                              std::to_string(k) + " is " + describeKind(index));
    }
    if (graph::elementCount(builder_.type(arrayValue(index, indices.range)).shape) == 0) return SymValue::none();  // no index
    advanced.push_back(AdvancedIndex{static_cast<int64_t>(k), index, indices.range});
  }
  const SymValue values = b.value.kind == SymKind::Tuple ? fresh(asArray(b, spelling), b.range) : b.value;
  if (values.kind == SymKind::Tensor || values.isScalarConstant()) {
    const bool pythonFloats = b.value.kind == SymKind::Tuple && std::any_of(b.value.items.begin(), b.value.items.end(),
                                                                              [](const SymValue& v) { return v.kind == SymKind::Float; });
    const DType have = values.kind == SymKind::Float || pythonFloats ? DType::Float64
                       : values.kind == SymKind::Tensor ? builder_.type(arrayValue(values, b.range)).dtype
                                                        : t;
    if (isFloat(have) && !isFloat(t)) {
      fail(b.range, "Cannot cast ufunc '" + ufunc + "' output from dtype('" + dtypeName(have) + "') to dtype('" +
                        dtypeName(t) + "') with casting rule 'same_kind'");
    }
  }
  const ValueId updated =
      scatterAdvanced(arrayValue(a.value, a.range), advanced, values, args.range, ufuncCombines().at(ufunc));
  writeArray(a.value, fresh(updated, args.range), args.range);
  return SymValue::none();
}

// The loop's items are bound to whole arrays (zip's and an iterated array's to the arrays, a range
// index to the range, A[i] to the slice of A it walks) and the indices and the value evaluated once:
// equal to the loop because each iteration reads only its own items and values that do not change,
// and writes only by combining (so the order of the writes does not matter but for rounding).
bool Analyzer::runAsScatter(const Stmt& loop) {
  // The body: one X[indices] op= value, of elementwise forms that do not read X.
  if (!loop.orelse.empty() || loop.body.size() != 1 || loop.body[0]->kind != StmtKind::AugAssign) return false;
  const Stmt& update = *loop.body[0];
  if (!augmentedCombines().count(update.text)) return false;
  const Expr& target = *update.targets[0];
  if (target.kind != ExprKind::Subscript || target.children[0]->kind != ExprKind::Name) return false;
  const std::string array = target.children[0]->text;
  const Expr& index = *target.children[1];
  std::vector<const Expr*> items;
  if (index.kind == ExprKind::Tuple) {
    for (const auto& c : index.children) items.push_back(c.get());
  } else {
    items.push_back(&index);
  }
  std::set<std::string> values, subscripted;  // names read as values; arrays read at an item
  for (const Expr* item : items) {
    if (item->kind == ExprKind::Slice) {
      if (item->children[0] || item->children[1] || item->children[2]) return false;
      continue;
    }
    if (!elementwiseForm(*item)) return false;
    collectNames(*item, values, subscripted);
  }
  if (!elementwiseForm(*update.value)) return false;
  collectNames(*update.value, values, subscripted);
  if (values.count(array) || subscripted.count(array)) return false;

  // The loop's form: its item names and the arrays they walk.
  const Expr& iter = *loop.value;
  const Expr& loopTarget = *loop.targets[0];
  std::vector<std::string> names;
  std::vector<const Expr*> walked;  // the arrays zip and an iterated array walk
  auto isBuiltinCall = [&](const std::string& name) {
    return iter.kind == ExprKind::Call && iter.children[0]->kind == ExprKind::Name && iter.children[0]->text == name &&
           lookup(name) == nullptr && iter.keywords.empty();
  };
  const bool isRange = isBuiltinCall("range");
  if (isBuiltinCall("zip")) {
    if (loopTarget.kind != ExprKind::Tuple || loopTarget.children.size() != iter.children.size() - 1) return false;
    for (size_t k = 1; k < iter.children.size(); ++k) {
      if (!plainArray(*iter.children[k]) || loopTarget.children[k - 1]->kind != ExprKind::Name) return false;
      walked.push_back(iter.children[k].get());
      names.push_back(loopTarget.children[k - 1]->text);
    }
  } else if (isRange || plainArray(iter)) {
    if (loopTarget.kind != ExprKind::Name) return false;
    if (!isRange) walked.push_back(&iter);
    names.push_back(loopTarget.text);
  } else {
    return false;
  }
  const std::set<std::string> itemNames(names.begin(), names.end());
  if (itemNames.size() != names.size() || itemNames.count(array)) return false;
  for (const std::string& base : subscripted) {
    if (itemNames.count(base)) return false;  // an item shadowing an array the body reads
  }
  bool indexedByItems = false;
  for (const Expr* item : items) {
    if (item->kind == ExprKind::Slice) continue;
    std::set<std::string> read, arrays;
    collectNames(*item, read, arrays);
    const bool byItem = std::any_of(read.begin(), read.end(), [&](const std::string& n) { return itemNames.count(n) > 0; });
    // an index computed from a range index alone stays a loop, whose bounds are checked at compile time
    if (byItem && isRange && !hasSubscript(*item)) return false;
    indexedByItems = indexedByItems || byItem;
  }
  if (!indexedByItems) return false;

  // The written array, the arrays read at an item (1-d, not X) and the scalars read.
  const SymValue* written = lookup(array);
  if (!written || written->kind != SymKind::Tensor || written->weak || written->untyped || !written->copyOfView.empty()) return false;
  const SymValue x = *written;
  const TensorType xType = builder_.type(arrayValue(x, target.range));
  // (float16 sums rounded at every step differ visibly from sums in another order)
  if (xType.dtype == DType::Bool || xType.dtype == DType::Float16 || !graph::isStaticShape(xType.shape) ||
      static_cast<int>(items.size()) > xType.rank()) {
    return false;
  }
  const auto root = [](const SymValue& v) { return v.view ? v.view->root : v.storage; };
  // The extent of a 1-d array other than x's.
  auto oneDimensional = [&](const SymValue* v) -> std::optional<int64_t> {
    if (!v || v->kind != SymKind::Tensor || v->weak || v->untyped || root(*v) == root(x)) return std::nullopt;
    const TensorType type = builder_.type(arrayValue(*v, iter.range));
    if (type.rank() != 1 || !type.shape[0].isKnown()) return std::nullopt;
    return type.shape[0].extent;
  };
  std::vector<SymValue> walkedValues;
  int64_t trips = -1, start = 0, step = 1;
  if (isRange) {
    std::vector<int64_t> bounds;
    for (size_t k = 1; k < iter.children.size(); ++k) {
      const SymValue b = constantIndex(eval(*iter.children[k]));
      if (b.kind != SymKind::Int) return false;
      bounds.push_back(b.intValue);
    }
    if (bounds.empty() || bounds.size() > 3) return false;
    const int64_t stop = bounds.size() == 1 ? bounds[0] : bounds[1];
    if (bounds.size() > 1) start = bounds[0];
    if (bounds.size() == 3) step = bounds[2];
    if (step <= 0) return false;
    trips = registry::sliceLength(start, stop, step);
  } else {
    for (const Expr* w : walked) {
      walkedValues.push_back(eval(*w));
      const std::optional<int64_t> extent = oneDimensional(&walkedValues.back());
      if (!extent) return false;
      trips = trips < 0 ? *extent : std::min(trips, *extent);
    }
  }
  if (trips < 1) return false;
  std::map<std::string, std::string> slices;  // A -> the name bound to the slice A[i] walks (range loops)
  for (const std::string& base : subscripted) {
    const std::optional<int64_t> extent = oneDimensional(lookup(base));
    if (!extent) return false;
    if (isRange) {  // a slice of A, within A
      if (start < 0 || start + step * (trips - 1) >= *extent) return false;
      slices[base] = base + "[" + names[0] + "] of the loop at line " + std::to_string(loop.range.begin.line);
    } else if (trips * *extent > kMaxSelection) {  // a gather by selection
      return false;
    }
  }
  for (const std::string& name : values) {  // every other name a scalar that the loop does not change
    if (itemNames.count(name)) continue;
    const SymValue* v = lookup(name);
    if (!v || !(v->isScalarConstant() || (v->kind == SymKind::Tensor && !v->untyped && root(*v) != root(x) &&
                                          builder_.type(arrayValue(*v, iter.range)).rank() == 0))) {
      return false;
    }
  }
  int64_t positions = 1, rest = 1;
  for (int d = 0; d < xType.rank(); ++d) {
    const bool indexed = d < static_cast<int>(items.size()) && items[static_cast<size_t>(d)]->kind != ExprKind::Slice;
    (indexed ? positions : rest) *= xType.shape[static_cast<size_t>(d)].extent;
  }
  if (trips * positions * rest > kMaxSelection) return false;

  // Bind the items to their arrays, evaluate the indices and the value once, and scatter.
  Frame& frame = frames_.back();
  std::map<std::string, std::optional<SymValue>> saved;
  for (const std::string& name : names) {
    const SymValue* v = lookup(name);
    saved[name] = v ? std::optional<SymValue>(*v) : std::nullopt;
  }
  auto restore = [&] {
    for (const auto& [name, v] : saved) {
      if (v) {
        bind(name, *v);
      } else if (frame.locals.erase(name)) {
        frame.order.erase(std::find(frame.order.begin(), frame.order.end(), name));
      }
    }
    return false;
  };
  const SourceRange& range = loop.range;
  auto sliceOf = [&](const SymValue& a, int64_t begin, int64_t count) {
    const ValueId v = arrayValue(a, range);
    if (begin == 0 && step == 1 && builder_.type(v).shape[0].extent == count) return v;
    return builder_.slice(v, 0, begin, begin + step * (count - 1) + 1, step, range);
  };
  if (isRange) {
    const DType t = builder_.deviceDType(DType::Int64, range);
    bind(names[0], fresh(builder_.addNode("Range", {},
                                          {{"start", double(start)}, {"stop", double(start + step * trips)},
                                           {"step", double(step)}, {"dtype", std::string(dtypeName(t))}},
                                          range),
                         range));
    for (const auto& [base, name] : slices) bind(name, fresh(sliceOf(*lookup(base), start, trips), range));
  } else {
    for (size_t k = 0; k < names.size(); ++k) bind(names[k], fresh(sliceOf(walkedValues[k], 0, trips), range));
  }
  auto evaluate = [&](const Expr& e) {
    if (!isRange) return eval(e);
    ExprPtr copy = cloneExpr(e);
    substitute(copy, names[0], slices);
    return eval(*copy);
  };
  std::vector<AdvancedIndex> advanced;
  std::vector<int64_t> indexedAxes;
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k]->kind == ExprKind::Slice) continue;
    SymValue v = evaluate(*items[k]);
    const int64_t extent = xType.shape[k].extent;
    if (v.kind == SymKind::Int) {  // the same index in every iteration
      if (v.intValue < -extent || v.intValue >= extent) return restore();
      v = fresh(builder_.constant(builder_.deviceDType(DType::Int64, range), {double(v.intValue)}, {}, range), range);
    } else if (v.kind != SymKind::Tensor || v.weak) {
      return restore();
    } else {
      const TensorType type = builder_.type(arrayValue(v, items[k]->range));
      if (!isInteger(type.dtype) || type.shape != graph::Shape{graph::Dim::known(trips)}) return restore();
    }
    advanced.push_back(AdvancedIndex{static_cast<int64_t>(k), v, items[k]->range});
    indexedAxes.push_back(static_cast<int64_t>(k));
  }
  SymValue value = evaluate(*update.value);
  if (value.kind != SymKind::Tensor && !value.isScalarConstant()) return restore();
  if (value.kind == SymKind::Float && !isFloat(xType.dtype)) return restore();
  if (value.kind == SymKind::Tensor) {
    const TensorType type = builder_.type(arrayValue(value, update.value->range));
    if (isFloat(type.dtype) && !isFloat(xType.dtype)) return restore();
    if (type.rank() == 1 && type.shape[0] == graph::Dim::known(trips)) {
      // one value per iteration, against the indexing result's shape: the items' axis where the
      // index arrays were when they are adjacent and not first (NumPy's rule), else first
      const bool adjacent = indexedAxes.front() > 0 && indexedAxes.back() - indexedAxes.front() + 1 ==
                                                            static_cast<int64_t>(indexedAxes.size());
      std::vector<int64_t> shape(static_cast<size_t>(xType.rank()) - indexedAxes.size() + 1, 1);
      shape[adjacent ? static_cast<size_t>(indexedAxes.front()) : 0] = trips;
      value = fresh(builder_.addNode("Reshape", {arrayValue(value, range)}, {{"shape", shape}}, range), range);
    } else if (type.rank() != 0) {
      return restore();
    }
  }
  const ValueId updated =
      scatterAdvanced(arrayValue(x, target.range), advanced, value, update.range, augmentedCombines().at(update.text));
  writeArray(x, fresh(updated, update.range), update.range);
  // As after the loop in Python, the items hold the last iteration's values.
  for (size_t k = 0; k < names.size(); ++k) {
    if (isRange) {
      bind(names[k], SymValue::ofInt(start + step * (trips - 1)));
      continue;
    }
    const ValueId last = builder_.slice(arrayValue(walkedValues[k], range), 0, trips - 1, trips, 1, range);
    bind(names[k], fresh(builder_.addNode("Squeeze", {last}, {{"axes", std::vector<int64_t>{0}}}, range), range));
  }
  return true;
}

}  // namespace pyasc::frontend
