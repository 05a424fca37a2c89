// Basic indexing: integer, slice (with steps and negatives), np.newaxis, ..., loop-index offsets;
// reads create views, assignments become SliceUpdate on the array behind every alias.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "frontend/Analyzer.h"
#include "registry/ShapeInference.h"

namespace pyasc::frontend {

using graph::Dim;
using graph::TensorType;
using graph::ValueId;

namespace {

// Python's slice.indices(n) for compile-time bounds.
void sliceIndices(const SymValue* lower, const SymValue* upper, int64_t step, int64_t n, int64_t& begin, int64_t& end) {
  auto clamp = [&](const SymValue* v, int64_t fallback, int64_t lo, int64_t hi) {
    if (!v) return fallback;
    int64_t x = v->kind == SymKind::Bool ? v->boolValue : v->intValue;
    if (x < 0) x += n;
    return std::min(std::max(x, lo), hi);
  };
  if (step > 0) {
    begin = clamp(lower, 0, 0, n);
    end = clamp(upper, n, 0, n);
  } else {
    begin = clamp(lower, n - 1, -1, n - 1);
    end = clamp(upper, -1, -1, n - 1);
  }
}

std::string indexText(const SymValue& index, int64_t value) {
  return "'" + index.text + "' = " + std::to_string(value);
}

}  // namespace

Analyzer::IndexPlan Analyzer::planOfView(const ArrayView& view) {
  IndexPlan plan;
  plan.axes = view.axes;
  plan.begin = view.begin;
  plan.end = view.end;
  plan.step = view.step;
  plan.dynamicAxes = view.dynamicAxes;
  plan.offsets = view.offsets;
  plan.squeezedAxes = view.squeezedAxes;
  plan.newAxes = view.newAxes;
  return plan;
}

std::vector<const Expr*> Analyzer::indexItems(const Expr& index) {
  std::vector<const Expr*> items;
  if (index.kind == ExprKind::Tuple) {
    for (const auto& c : index.children) items.push_back(c.get());
  } else {
    items.push_back(&index);
  }
  return items;
}

const Expr* Analyzer::listIndexItem(const Expr& index) {
  for (const Expr* e : indexItems(index)) {
    if (e->kind == ExprKind::List) return e;
    if (e->kind == ExprKind::Name) {  // a name bound to a list of ints: a[:, p] with p = [0, 2, 5]
      const SymValue* v = lookup(e->text);
      if (v && v->kind == SymKind::Tuple && !v->items.empty() &&
          std::all_of(v->items.begin(), v->items.end(), [](const SymValue& i) { return i.kind == SymKind::Int; })) {
        return e;
      }
    }
  }
  return nullptr;
}

bool Analyzer::listHoldsArrays(const Expr& list) {
  for (const auto& item : list.children) {
    if (item->kind == ExprKind::Name) {
      const SymValue* v = lookup(item->text);
      if (v && v->kind == SymKind::Tensor) return true;
    }
  }
  return false;
}

Analyzer::IndexPlan Analyzer::planIndex(const SymValue& array, const Expr& index, const SourceRange& arrayRange) {
  return planItems(array, indexItems(index), index.range, arrayRange);
}

Analyzer::IndexPlan Analyzer::planItems(const SymValue& array, const std::vector<const Expr*>& items,
                                        const SourceRange& indexRange, const SourceRange& arrayRange,
                                        std::vector<AdvancedIndex>* advanced) {
  const TensorType type = builder_.type(arrayValue(array, arrayRange));
  if (!type.ranked) {
    fail(indexRange, "indexing an array of unknown rank is not supported",
         {note(array.range, "declare its shape: Tensor[float32, 64, 128] or --input=NAME:float32[64,128]")});
  }
  // Evaluate once: slices keep their three parts.
  struct Item {
    const Expr* expr;
    SymValue value;
    std::optional<SymValue> lower, upper, step;
    bool isSlice = false;
    bool isEllipsis = false;
    bool advanced = false;  // an integer array, taken as ':' here
  };
  std::vector<Item> evaluated;
  int consumed = 0;
  int ellipses = 0;
  for (const Expr* e : items) {
    Item it{e, SymValue::none(), {}, {}, {}, false, false, false};
    if (e->kind == ExprKind::Slice) {
      it.isSlice = true;
      if (e->children[0]) it.lower = constantIndex(eval(*e->children[0]));
      if (e->children[1]) it.upper = constantIndex(eval(*e->children[1]));
      if (e->children[2]) it.step = constantIndex(eval(*e->children[2]));
      for (auto* part : {&it.lower, &it.upper, &it.step}) {
        if (*part && (*part)->kind == SymKind::None) part->reset();
      }
      ++consumed;
    } else if (e->kind == ExprKind::Ellipsis) {
      it.isEllipsis = true;
      if (++ellipses > 1) fail(e->range, "an index can only have a single ellipsis ('...')");
    } else {
      it.value = constantIndex(eval(*e));
      if (e->kind == ExprKind::List && it.value.kind == SymKind::Tuple) {  // a[[k, p]]: the index array of the list
        it.value = constantArray(it.value, std::nullopt, e->range, "");
      }
      if (it.value.kind != SymKind::None) ++consumed;
      if (it.value.kind == SymKind::Tensor) {
        const DType t = builder_.type(arrayValue(it.value, e->range)).dtype;
        if (t == DType::Bool && builder_.type(arrayValue(it.value, e->range)).rank() > 0) {
          fail(e->range, "a boolean mask selects only as an array's first index, written as a name or a comparison "
                         "(m = np.isnan(a); a[m], a[a > 0, 1:]); or keep the shape with np.where(mask, a, 0)");
        }
        if (!advanced || !isInteger(t)) {
          fail(e->range, "indexing with an array (advanced indexing) is not supported here; use slices, or "
                         "np.where(mask, a, b) to select elementwise");
        }
        it.advanced = it.isSlice = true;
      }
      if (it.value.kind == SymKind::Float) fail(e->range, "only integers, slices (':'), ellipsis ('...') and np.newaxis (None) are valid indices");
    }
    evaluated.push_back(it);
  }
  if (consumed > type.rank()) {
    fail(indexRange, "too many indices for array: array is " + std::to_string(type.rank()) + "-dimensional, but " +
                          std::to_string(consumed) + " were indexed");
  }
  IndexPlan plan;
  int axis = 0;
  int64_t resultPos = 0;
  for (const Item& it : evaluated) {
    if (it.isEllipsis) {
      const int skip = type.rank() - consumed;
      axis += skip;
      resultPos += skip;
      continue;
    }
    if (!it.isSlice && it.value.kind == SymKind::None) {
      plan.newAxes.push_back(resultPos++);
      plan.full = false;
      continue;
    }
    const Dim dim = type.shape[static_cast<size_t>(axis)];
    const SourceRange& r = it.expr->range;
    if (!it.isSlice && it.value.kind == SymKind::LoopIndex) {
      const SymValue& idx = it.value;
      const int64_t lo = std::min(idx.scale * idx.minIndex, idx.scale * idx.maxIndex) + idx.offset;
      const int64_t hi = std::max(idx.scale * idx.minIndex, idx.scale * idx.maxIndex) + idx.offset;
      if (lo < 0) {
        fail(r, "this index is negative when " + indexText(idx, idx.scale > 0 ? idx.minIndex : idx.maxIndex) +
                    "; negative indices wrap around in NumPy, which loops kept as loops do not support");
      }
      if (dim.isKnown() && hi >= dim.extent) {
        fail(r, "index " + std::to_string(hi) + " is out of bounds for axis " + std::to_string(axis) + " with size " +
                    std::to_string(dim.extent) + " (when " + indexText(idx, idx.scale > 0 ? idx.maxIndex : idx.minIndex) + ")");
      }
      SymValue scaled = idx;
      scaled.offset = 0;
      plan.axes.push_back(axis);
      plan.begin.push_back(idx.offset);
      plan.end.push_back(idx.offset + 1);
      plan.step.push_back(1);
      plan.dynamicAxes.push_back(axis);
      plan.offsets.push_back(indexValue(scaled, r));
      plan.squeezedAxes.push_back(axis);
      plan.full = false;
      ++axis;
      continue;
    }
    if (!it.isSlice) {
      int64_t i = requireInt(it.value, r, "an index");
      if (dim.isKnown()) {
        if (i < -dim.extent || i >= dim.extent) {
          fail(r, "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) + " with size " +
                      std::to_string(dim.extent));
        }
        if (i < 0) i += dim.extent;
      } else if (i < 0) {
        fail(r, "a negative index needs a known extent; axis " + std::to_string(axis) + " has the symbolic extent " + dim.str());
      }
      plan.axes.push_back(axis);
      plan.begin.push_back(i);
      plan.end.push_back(i + 1);
      plan.step.push_back(1);
      plan.squeezedAxes.push_back(axis);
      plan.full = false;
      ++axis;
      continue;
    }
    if (it.advanced) {
      advanced->push_back(AdvancedIndex{resultPos, it.value, r});
      ++axis;
      ++resultPos;
      continue;
    }
    int64_t step = 1;
    if (it.step) step = requireInt(*it.step, it.expr->children[2]->range, "a slice step");
    if (step == 0) fail(it.expr->children[2]->range, "slice step cannot be zero");
    const bool dynamic = (it.lower && it.lower->kind == SymKind::LoopIndex) || (it.upper && it.upper->kind == SymKind::LoopIndex);
    if (dynamic) {
      if (!it.lower || !it.upper || it.lower->kind != SymKind::LoopIndex || it.upper->kind != SymKind::LoopIndex ||
          it.lower->indexVar != it.upper->indexVar || it.lower->scale != it.upper->scale) {
        fail(r, "the length of this slice changes with the loop index; use a fixed-size slice such as a[i:i+k]");
      }
      if (step < 0) fail(r, "slices that move with a loop index need a positive step");
      const SymValue& a = *it.lower;
      const int64_t firstStart = std::min(a.scale * a.minIndex, a.scale * a.maxIndex);
      const int64_t lastStart = std::max(a.scale * a.minIndex, a.scale * a.maxIndex);
      const int64_t lo = firstStart + a.offset;
      const int64_t hi = lastStart + it.upper->offset;
      const int64_t atMax = a.scale > 0 ? a.maxIndex : a.minIndex;
      const int64_t atMin = a.scale > 0 ? a.minIndex : a.maxIndex;
      if (lo < 0) {
        fail(r, "this slice starts at a negative index when " + indexText(a, atMin) +
                    "; negative indices wrap around in NumPy, which loops kept as loops do not support");
      }
      if (dim.isKnown() && hi > dim.extent) {
        fail(r, "this slice ends at " + std::to_string(hi) + ", past the end of axis " + std::to_string(axis) + " (size " +
                    std::to_string(dim.extent) + "), when " + indexText(a, atMax),
             {note(r, "NumPy would shorten the last slice, but every iteration of a loop kept as a loop has the same "
                      "shapes; make the extent a multiple of the step or handle the remainder after the loop")});
      }
      SymValue scaled = a;
      scaled.offset = 0;
      plan.axes.push_back(axis);
      plan.begin.push_back(a.offset);
      plan.end.push_back(it.upper->offset);
      plan.step.push_back(step);
      plan.dynamicAxes.push_back(axis);
      plan.offsets.push_back(indexValue(scaled, r));
      plan.full = false;
      ++axis;
      ++resultPos;
      continue;
    }
    for (const auto* part : {&it.lower, &it.upper}) {
      if (*part) requireInt(**part, r, "a slice bound");
    }
    int64_t begin, end;
    if (dim.isKnown()) {
      sliceIndices(it.lower ? &*it.lower : nullptr, it.upper ? &*it.upper : nullptr, step, dim.extent, begin, end);
      if (!(begin == 0 && end == dim.extent && step == 1)) {
        plan.axes.push_back(axis);
        plan.begin.push_back(begin);
        plan.end.push_back(end);
        plan.step.push_back(step);
        plan.full = false;
      }
    } else if (it.lower || it.upper || step != 1) {
      if (!it.upper || step < 0 || (it.lower && it.lower->intValue < 0) || it.upper->intValue < 0) {
        fail(r, "this slice needs the extent of axis " + std::to_string(axis) + ", which is symbolic (" + dim.str() + ")",
             {note(SourceRange{}, "use non-negative bounds with an explicit end (a[0:64]) or give the input a fixed shape")});
      }
      plan.axes.push_back(axis);
      plan.begin.push_back(it.lower ? it.lower->intValue : 0);
      plan.end.push_back(it.upper->intValue);
      plan.step.push_back(step);
      plan.full = false;
    }
    ++axis;
    ++resultPos;
  }
  // The shape of the result: sliced extents, integer-indexed axes dropped, new axes inserted.
  graph::Shape sliced = type.shape;
  for (size_t k = 0; k < plan.axes.size(); ++k) {
    sliced[static_cast<size_t>(plan.axes[k])] = Dim::known(registry::sliceLength(plan.begin[k], plan.end[k], plan.step[k]));
  }
  for (int i = 0; i < type.rank(); ++i) {
    if (std::find(plan.squeezedAxes.begin(), plan.squeezedAxes.end(), i) == plan.squeezedAxes.end()) {
      plan.finalShape.push_back(sliced[static_cast<size_t>(i)]);
    }
  }
  for (int64_t pos : plan.newAxes) plan.finalShape.insert(plan.finalShape.begin() + pos, Dim::known(1));
  return plan;
}

ValueId Analyzer::readThroughPlan(ValueId base, const IndexPlan& plan, const SourceRange& range, const std::string& nameHint) {
  ValueId v = base;
  const bool last = plan.squeezedAxes.empty() && plan.newAxes.empty();
  if (!plan.axes.empty()) {
    std::vector<ValueId> inputs = {base};
    inputs.insert(inputs.end(), plan.offsets.begin(), plan.offsets.end());
    v = builder_.addNode("Slice", inputs,
                         {{"axes", plan.axes}, {"begin", plan.begin}, {"end", plan.end}, {"step", plan.step},
                          {"dynamic_axes", plan.dynamicAxes}},
                         range, last ? nameHint : "");
  }
  if (!plan.squeezedAxes.empty()) {
    v = builder_.addNode("Squeeze", {v}, {{"axes", plan.squeezedAxes}}, range, plan.newAxes.empty() ? nameHint : "");
  }
  if (!plan.newAxes.empty()) v = builder_.addNode("ExpandDims", {v}, {{"axes", plan.newAxes}}, range, nameHint);
  return v;
}

SymValue Analyzer::evalSubscript(const Expr& expr, const std::string& nameHint) {
  SymValue base = eval(*expr.children[0]);
  const Expr& index = *expr.children[1];
  if (base.kind == SymKind::Poison) return base;
  if (base.kind == SymKind::Complex) return complexSubscript(base, expr, nameHint);
  if (base.kind == SymKind::Tuple) {
    if (index.kind == ExprKind::Slice) {
      std::optional<SymValue> lower, upper;
      if (index.children[0]) lower = eval(*index.children[0]);
      if (index.children[1]) upper = eval(*index.children[1]);
      int64_t step = index.children[2] ? requireInt(eval(*index.children[2]), index.children[2]->range, "a slice step") : 1;
      if (step == 0) fail(index.range, "slice step cannot be zero");
      for (const auto* part : {&lower, &upper}) {
        if (*part && (*part)->kind != SymKind::None) requireInt(**part, index.range, "a slice bound");
      }
      int64_t begin, end;
      const int64_t n = static_cast<int64_t>(base.items.size());
      sliceIndices(lower && lower->kind != SymKind::None ? &*lower : nullptr,
                   upper && upper->kind != SymKind::None ? &*upper : nullptr, step, n, begin, end);
      std::vector<SymValue> items;
      for (int64_t i = begin; step > 0 ? i < end : i > end; i += step) items.push_back(base.items[static_cast<size_t>(i)]);
      return SymValue::tuple(items);
    }
    SymValue i = eval(index);
    int64_t k = requireInt(i, index.range, "a tuple index");
    const int64_t n = static_cast<int64_t>(base.items.size());
    if (k < -n || k >= n) fail(index.range, "tuple index out of range (index " + std::to_string(k) + ", length " + std::to_string(n) + ")");
    return base.items[static_cast<size_t>(k < 0 ? k + n : k)];
  }
  if (base.kind == SymKind::Callable && (base.text == "numpy.mgrid" || base.text == "numpy.ogrid")) {
    return evalGrid(base.text == "numpy.ogrid", index, nameHint);
  }
  if (base.kind == SymKind::TensorType) {
    SymValue t = SymValue::make(SymKind::TensorType);
    std::vector<SymValue> parts;
    if (index.kind == ExprKind::Tuple) {
      for (const auto& c : index.children) parts.push_back(eval(*c));
    } else {
      parts.push_back(eval(index));
    }
    if (parts.empty() || parts[0].kind != SymKind::DType) {
      fail(index.range, "Tensor[...] needs a dtype first: Tensor[float32] or Tensor[float32, 64, 128]");
    }
    if (parts[0].text == "complex") {
      fail(index.range, "complex inputs are not supported; pass the real and imaginary parts as two float arrays and "
                        "combine them in the program (re + 1j * im)");
    }
    t.dtype = parts[0].dtype;
    for (size_t i = 1; i < parts.size(); ++i) {
      if (parts[i].kind != SymKind::Int && parts[i].kind != SymKind::String) {
        fail(index.range, "Tensor[...] dimensions must be ints or names in quotes (\"N\"), found " + describeKind(parts[i]));
      }
      t.items.push_back(parts[i]);
    }
    t.text = "Tensor[...]";
    return t;
  }
  if (base.kind != SymKind::Tensor) fail(expr.children[0]->range, describeKind(base) + " is not subscriptable");
  if (base.untyped) failCannotInfer("Slice", {Argument{base, expr.children[0]->range, nullptr}}, expr.range);
  if (base.weak) fail(expr.range, "a runtime scalar cannot be indexed");
  if (const Expr* list = listIndexItem(index); list && !listHoldsArrays(*list)) {
    return evalListSubscript(base, expr, *list, nameHint);
  }
  if (!indexItems(index).empty()) {  // a[mask], a[mask, None], a[mask, 1:]: a selection; a[positions] with positions a selection: one too
    const std::vector<const Expr*> items = indexItems(index);
    const Expr& head = *items.front();
    const bool maskLike = head.kind == ExprKind::Name || head.kind == ExprKind::Compare ||
                          (head.kind == ExprKind::UnaryOp && (head.text == "~" || head.text == "not")) ||
                          (head.kind == ExprKind::BinOp && (head.text == "&" || head.text == "|" || head.text == "^"));
    if (maskLike) {
      const SymValue first = eval(head);
      if (first.kind == SymKind::Selection) {
        if (items.size() != 1) failOnSelection(head.range, "indexing with other indices beside a selection");
        const SymValue& positions = first.items[0];
        const ValueId gathered = gatherAdvanced(arrayValue(base, expr.range), {AdvancedIndex{0, positions, head.range}},
                                                expr.range, nameHint);
        return selectionOf(fresh(gathered, expr.range), first.items[1], expr.range);
      }
      if (first.kind == SymKind::Tensor && !first.weak && !first.untyped &&
          builder_.type(arrayValue(first, head.range)).dtype == DType::Bool &&
          builder_.type(arrayValue(first, head.range)).rank() > 0) {
        return selectByMask(base, first, std::vector<const Expr*>(items.begin() + 1, items.end()), index, expr.range);
      }
    }
  }
  if (index.kind == ExprKind::Name) {  // a[iu] with iu = np.triu_indices(n): a tuple of index arrays
    const SymValue* named = lookup(index.text);
    if (named && named->kind == SymKind::Tuple && !named->items.empty() &&
        std::all_of(named->items.begin(), named->items.end(), [](const SymValue& v) { return v.kind == SymKind::Tensor; })) {
      std::vector<AdvancedIndex> axes;
      for (size_t i = 0; i < named->items.size(); ++i) axes.push_back(AdvancedIndex{static_cast<int64_t>(i), named->items[i], index.range});
      if (static_cast<int>(axes.size()) > builder_.type(arrayValue(base, expr.range)).rank()) {
        fail(index.range, "too many indices for array: " + std::to_string(axes.size()) + " index arrays");
      }
      return fresh(gatherAdvanced(arrayValue(base, expr.range), axes, expr.range, nameHint), expr.range);
    }
  }
  std::vector<AdvancedIndex> advanced;
  IndexPlan plan = planItems(base, indexItems(index), index.range, expr.children[0]->range, &advanced);
  if (!advanced.empty()) {
    ValueId basic = arrayValue(base, expr.range);
    if (!plan.full || !plan.newAxes.empty()) basic = readThroughPlan(basic, plan, expr.range, "");
    return fresh(gatherAdvanced(basic, advanced, expr.range, nameHint), expr.range);
  }
  if (plan.full && plan.newAxes.empty()) return base;
  if (const graph::GraphConstant* c = plan.finalShape.empty() && plan.offsets.empty()
                                           ? builder_.graph().findConstant(arrayValue(base, expr.range))
                                           : nullptr) {  // an element of a compile-time array: a constant
    const TensorType type = builder_.type(arrayValue(base, expr.range));
    int64_t offset = 0, stride = 1;
    for (int d = type.rank() - 1; d >= 0; --d) {
      const auto at = std::find(plan.axes.begin(), plan.axes.end(), d);
      if (at != plan.axes.end()) offset += plan.begin[static_cast<size_t>(at - plan.axes.begin())] * stride;
      stride *= type.shape[static_cast<size_t>(d)].extent;
    }
    const double element = graph::decodeConstant(type.dtype, c->bytes).at(static_cast<size_t>(offset));
    return fresh(builder_.constant(type.dtype, {element}, {}, expr.range, nameHint.empty() ? "cst" : nameHint), expr.range);
  }
  const ValueId value = readThroughPlan(arrayValue(base, expr.range), plan, expr.range, nameHint);
  SymValue result = fresh(value, expr.range);
  const std::vector<const Expr*> items = indexItems(index);
  const bool element = plan.finalShape.empty() && std::none_of(items.begin(), items.end(), [](const Expr* e) {
    return e->kind == ExprKind::Ellipsis;
  });
  if (element) return result;  // y = a[i, j] is NumPy's scalar, a copy: later writes to a do not change it
  if (base.view) {
    result.copyOfView = base.view->text;
    return result;
  }
  auto view = std::make_shared<ArrayView>();
  view->root = base.storage;
  view->axes = plan.axes;
  view->begin = plan.begin;
  view->end = plan.end;
  view->step = plan.step;
  view->dynamicAxes = plan.dynamicAxes;
  view->offsets = plan.offsets;
  view->squeezedAxes = plan.squeezedAxes;
  view->newAxes = plan.newAxes;
  view->text = expr.children[0]->kind == ExprKind::Name ? expr.children[0]->text + "[...]" : "a view";
  view->cachedValue = value;
  view->cachedVersion = base.storage->version;
  view->cachedRegion = builder_.currentRegionId();
  result.storage = nullptr;
  result.view = view;
  return result;
}

SymValue Analyzer::evalListSubscript(const SymValue& base, const Expr& expr, const Expr& list, const std::string& nameHint) {
  // a[..., [i, j], ...]: the slices first (the list's axis taken whole), then a Gather along that axis
  std::vector<const Expr*> items = indexItems(*expr.children[1]);
  const int rank = builder_.type(arrayValue(base, expr.range)).rank();
  size_t at = 0;
  for (size_t k = 0; k < items.size(); ++k) {
    const Expr* e = items[k];
    if (e == &list) {
      at = k;
    } else if (e->kind == ExprKind::List) {
      fail(e->range, "indexing with more than one list is not supported; select along one axis at a time (np.take)");
    } else if (e->kind != ExprKind::Slice && e->kind != ExprKind::Ellipsis) {
      fail(e->range, "a list index combines only with slices (':') and '...' in pyasc; index in two steps, e.g. "
                     "a[[0, 2]][:, 1]");
    }
  }
  bool ellipsisBefore = false;
  for (size_t k = 0; k < at; ++k) ellipsisBefore |= items[k]->kind == ExprKind::Ellipsis;
  const int64_t axis = ellipsisBefore ? rank - static_cast<int64_t>(items.size() - at)
                                      : static_cast<int64_t>(at);
  Expr whole;
  whole.kind = ExprKind::Slice;
  whole.range = list.range;
  whole.children.resize(3);
  items[at] = &whole;
  const IndexPlan plan = planItems(base, items, expr.children[1]->range, expr.children[0]->range);
  ValueId sliced = arrayValue(base, expr.range);
  if (!plan.full) sliced = readThroughPlan(sliced, plan, expr.range, "");
  return gather(sliced, axis, Argument{eval(list), list.range, &list}, expr.range, nameHint, "a list index");
}

ValueId Analyzer::conformValue(const SymValue& value, const TensorType& target, const graph::Shape& shape,
                               const SourceRange& range) {
  ValueId v = tensorOf(value, target.dtype, range);
  v = builder_.cast(v, target.dtype, range);
  const TensorType& have = builder_.type(v);
  if (have.shape == shape) return v;
  graph::Shape merged;
  if (!have.ranked || have.rank() > static_cast<int>(shape.size()) || !registry::broadcastShapes(have.shape, shape, merged) ||
      merged != shape) {
    fail(range, "could not broadcast input array from shape " + registry::numpyShape(have.shape) + " into shape " +
                    registry::numpyShape(shape));
  }
  std::vector<int64_t> extents;
  for (const Dim& d : shape) {
    if (!d.isKnown()) fail(range, "broadcasting into an array with a symbolic shape " + graph::shapeString(shape) + " is not supported");
    extents.push_back(d.extent);
  }
  return builder_.addNode("BroadcastTo", {v}, {{"shape", extents}}, range);
}

ValueId Analyzer::writeThroughPlan(ValueId base, const IndexPlan& plan, const SymValue& value, const SourceRange& range,
                                   const std::string& nameHint) {
  const TensorType baseType = builder_.type(base);
  ValueId v = conformValue(value, baseType, plan.finalShape, range);
  if (!plan.newAxes.empty()) v = builder_.addNode("Squeeze", {v}, {{"axes", plan.newAxes}}, range);
  if (!plan.squeezedAxes.empty()) v = builder_.addNode("ExpandDims", {v}, {{"axes", plan.squeezedAxes}}, range);
  if (plan.axes.empty()) return v;
  std::vector<ValueId> inputs = {base, v};
  inputs.insert(inputs.end(), plan.offsets.begin(), plan.offsets.end());
  return builder_.addNode("SliceUpdate", inputs,
                          {{"axes", plan.axes}, {"begin", plan.begin}, {"end", plan.end}, {"step", plan.step},
                           {"dynamic_axes", plan.dynamicAxes}},
                          range, nameHint);
}

void Analyzer::writeArray(const SymValue& array, const SymValue& value, const SourceRange& range) {
  if (!array.copyOfView.empty()) {
    fail(range, "writing into a slice of the view '" + array.copyOfView + "' is not supported; index the original array");
  }
  if (array.view) {
    IndexPlan plan = planOfView(*array.view);
    plan.finalShape = builder_.type(arrayValue(array, range)).shape;
    ArrayStorage& root = *array.view->root;
    root.current = writeThroughPlan(root.current, plan, value, range, nameOfStorage(array.view->root));
    ++root.version;
    return;
  }
  const TensorType type = builder_.type(array.storage->current);
  array.storage->current = conformValue(value, type, type.shape, range);
  ++array.storage->version;
}

bool Analyzer::booleanMask(const Expr& index, SymValue& mask) {
  if (index.kind == ExprKind::Tuple || index.kind == ExprKind::Slice || index.kind == ExprKind::Ellipsis) return false;
  mask = eval(index);
  return mask.kind == SymKind::Tensor && !mask.untyped && builder_.type(arrayValue(mask, index.range)).dtype == DType::Bool;
}

void Analyzer::assignMasked(const Expr& target, const SymValue& base, const SymValue& mask, const SymValue& value) {
  // a[mask] = v keeps a's shape: np.where(mask, v, a) written back through every alias. The mask
  // covers a's leading axes; v is one value per selected row (a selection by the same mask) or
  // broadcasts against a row.
  const Expr& index = *target.children[1];
  const TensorType type = builder_.type(arrayValue(base, target.range));
  const TensorType maskType = builder_.type(arrayValue(mask, index.range));
  for (int d = 0; d < maskType.rank(); ++d) {
    if (d >= type.rank() || maskType.shape[static_cast<size_t>(d)] != type.shape[static_cast<size_t>(d)]) {
      fail(index.range, "boolean index of shape " + registry::numpyShape(maskType.shape) +
                            " does not match the array's shape " + registry::numpyShape(type.shape));
    }
  }
  SymValue replacementValue = value;
  if (value.kind == SymKind::Selection) {
    if (!sameValue(arrayValue(value.items[1], target.range), arrayValue(mask, index.range))) {
      fail(target.range, "a[mask] = b[other] needs the same mask on both sides (the lengths of the two selections "
                         "depend on the data); write np.where(mask, b, a)",
           {note(value.range, "this selection's mask is another array")});
    }
    replacementValue = value.items[0];
  } else if (value.kind == SymKind::Tensor && !value.weak && maskType.rank() > 0 &&
             builder_.type(arrayValue(value, target.range)).rank() > type.rank() - maskType.rank()) {
    fail(target.range, "a[mask] = v needs v to be a selection by the same mask or to broadcast against one selected "
                       "row; the number of selected rows depends on the data");
  }
  const ValueId v = builder_.cast(tensorOf(replacementValue, type.dtype, target.range), type.dtype, target.range);
  Argument m{fresh(maskAcross(arrayValue(mask, index.range), type.rank(), index.range), index.range), index.range, &index};
  Argument replacement{fresh(v, target.range), target.range, nullptr};
  Argument original{base, target.children[0]->range, target.children[0].get()};
  SymValue selected = applyOp("Where", {m, replacement, original}, {}, target.range, rootName(target));
  if (selected.kind == SymKind::Poison) return;
  if (builder_.type(arrayValue(selected, target.range)).shape != type.shape) {
    fail(index.range, "boolean index of shape " + registry::numpyShape(builder_.type(arrayValue(mask, index.range)).shape) +
                          " does not match the array's shape " + registry::numpyShape(type.shape));
  }
  writeArray(base, selected, target.range);
}

void Analyzer::assignSubscript(const Expr& target, const SymValue& value) {
  SymValue base = eval(*target.children[0]);
  const Expr& index = *target.children[1];
  if (base.kind == SymKind::Poison || value.kind == SymKind::Poison) return;
  if (base.kind == SymKind::Complex || value.kind == SymKind::Complex) return assignComplexSubscript(target, base, value);
  SymValue mask;
  if (base.kind == SymKind::Tensor && !base.untyped && !base.weak && booleanMask(index, mask)) {
    assignMasked(target, base, mask, value);
    return;
  }
  if (base.kind == SymKind::Tuple) fail(target.range, "tuples do not support item assignment; use an array");
  if (base.kind != SymKind::Tensor) fail(target.children[0]->range, describeKind(base) + " does not support item assignment");
  if (base.untyped) failCannotInfer("SliceUpdate", {Argument{base, target.children[0]->range, nullptr}}, target.range);
  if (base.weak) fail(target.range, "a runtime scalar does not support item assignment");
  if (!base.copyOfView.empty()) {
    fail(target.range, "writing into a slice of the view '" + base.copyOfView + "' is not supported; index the original array");
  }
  if (const Expr* list = listIndexItem(index); list && !listHoldsArrays(*list)) {
    fail(list->range, "assigning through a list index is not supported; assign one index at a time (a[2] = ...) or "
                      "build the array with np.where");
  }
  std::vector<AdvancedIndex> advanced;
  IndexPlan plan = planItems(base, indexItems(index), index.range, target.children[0]->range, &advanced);
  if (!advanced.empty()) {  // a[idx] = v, a[i, idx] = v: written by selection, then through the array's aliases
    if (!plan.full || !plan.newAxes.empty()) {
      fail(index.range, "assigning through index arrays beside integers or partial slices is not supported; index "
                        "every other axis with ':'");
    }
    writeArray(base, fresh(scatterAdvanced(arrayValue(base, target.range), advanced, value, target.range), target.range),
               target.range);
    return;
  }
  if (base.view) {
    if (!plan.full || !plan.newAxes.empty()) {
      fail(target.range, "assigning into part of the view '" + base.view->text + "' is not supported; assign through "
                         "the original array");
    }
    writeArray(base, value, target.range);
    return;
  }
  base.storage->current = writeThroughPlan(base.storage->current, plan, value, target.range, rootName(target));
  ++base.storage->version;
}

}  // namespace pyasc::frontend

namespace pyasc::frontend {

SymValue Analyzer::evalGrid(bool open, const Expr& index, const std::string& nameHint) {
  const std::vector<const Expr*> items = indexItems(index);
  struct Axis {
    double start, step;
    int64_t count;
  };
  std::vector<Axis> axes;
  bool floats = false;
  for (const Expr* e : items) {
    if (e->kind != ExprKind::Slice) fail(e->range, std::string("np.") + (open ? "ogrid" : "mgrid") + " takes slices such as 0:n");
    double part[3] = {0, 0, 1};
    for (int k = 0; k < 3; ++k) {
      if (!e->children[k]) continue;
      const SymValue v = eval(*e->children[k]);
      if (v.kind == SymKind::None) continue;
      part[k] = requireNumber(v, e->children[k]->range, "a grid bound (a complex step such as 5j is not supported)");
      floats = floats || v.kind == SymKind::Float;
    }
    if (!e->children[1]) fail(e->range, "a grid slice needs its end");
    if (part[2] == 0) fail(e->range, "slice step cannot be zero");
    const double count = std::ceil((part[1] - part[0]) / part[2]);
    axes.push_back(Axis{part[0], part[2], static_cast<int64_t>(std::max(count, 0.0))});
  }
  const DType t = builder_.deviceDType(floats ? DType::Float64 : DType::Int64, index.range);
  const int64_t rank = static_cast<int64_t>(axes.size());
  std::vector<int64_t> full;
  for (const Axis& a : axes) full.push_back(a.count);
  std::vector<SymValue> grids;
  std::vector<ValueId> stacked;
  for (int64_t d = 0; d < rank; ++d) {
    const Axis& a = axes[static_cast<size_t>(d)];
    ValueId line = builder_.addNode("Range", {}, {{"start", a.start}, {"stop", a.start + a.step * static_cast<double>(a.count)},
                                                  {"step", a.step}, {"dtype", std::string(dtypeName(t))}}, index.range);
    std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
    shape[static_cast<size_t>(d)] = a.count;
    if (rank > 1) line = builder_.addNode("Reshape", {line}, {{"shape", shape}}, index.range);
    if (open) {
      grids.push_back(fresh(line, index.range));
    } else {
      stacked.push_back(rank > 1 ? builder_.addNode("BroadcastTo", {line}, {{"shape", full}}, index.range) : line);
    }
  }
  if (open) return rank == 1 ? grids[0] : SymValue::tuple(std::move(grids));
  if (rank == 1) return fresh(stacked[0], index.range);
  return fresh(builder_.addNode("Stack", stacked, {{"axis", int64_t{0}}}, index.range, nameHint), index.range);
}

// NumPy's integer-array indexing, by selection on the vector unit: the indexed axes move first and
// merge into one of N positions; each index tuple becomes a flat position (negative indices wrap),
// and the result at index tuple s is the one element of the N positions where position == flat(s)
// (selectOne). The selection holds |S| · N · |rest| elements, so it is bounded. Adjacent index arrays
// put the index shape S where their axes were; others put it first, as NumPy does.
Analyzer::AdvancedLayout Analyzer::advancedLayout(ValueId base, const std::vector<AdvancedIndex>& advanced,
                                                  const SourceRange& range) {
  const TensorType type = builder_.type(base);
  if (!graph::isStaticShape(type.shape)) fail(range, "indexing with an array needs the array's shape at compile time");
  auto i32 = [&](double v) { return builder_.constant(DType::Int32, {v}, {}, range); };
  AdvancedLayout layout;
  for (const AdvancedIndex& a : advanced) layout.axes.push_back(a.axis);
  for (int64_t d = 0; d < type.rank(); ++d) {
    if (std::find(layout.axes.begin(), layout.axes.end(), d) == layout.axes.end()) {
      layout.rest.push_back(d);
      layout.restShape.push_back(type.shape[static_cast<size_t>(d)].extent);
    }
  }
  // the flat position of every index tuple, broadcast to the index shape S
  for (int64_t a : layout.axes) layout.positions *= type.shape[static_cast<size_t>(a)].extent;
  int64_t stride = layout.positions;
  for (const AdvancedIndex& a : advanced) {
    const int64_t extent = type.shape[static_cast<size_t>(a.axis)].extent;
    stride /= extent;
    ValueId index = arrayValue(a.value, a.range);
    if (builder_.type(index).dtype != DType::Int32) index = builder_.cast(index, DType::Int32, a.range);
    index = builder_.addNode("Where", {builder_.addNode("Less", {index, i32(0)}, {}, range),
                                       builder_.addNode("Add", {index, i32(static_cast<double>(extent))}, {}, range), index},
                             {}, range);
    if (stride != 1) index = builder_.addNode("Mul", {index, i32(static_cast<double>(stride))}, {}, range);
    layout.flat = layout.flat == graph::kNoValue ? index : builder_.addNode("Add", {layout.flat, index}, {}, range);
  }
  layout.indexShape = builder_.type(layout.flat).shape;
  int64_t restCount = 1;
  for (int64_t e : layout.restShape) restCount *= e;
  const int64_t selection = graph::elementCount(layout.indexShape) * layout.positions * restCount;
  if (selection > kMaxSelection) {
    fail(range, "indexing with an array selects among " + std::to_string(layout.positions) + " positions for each of " +
                    std::to_string(graph::elementCount(layout.indexShape) * restCount) + " elements (" +
                    std::to_string(selection) + " comparisons, more than 2^24); index fewer axes with arrays, or slice the "
                    "array first");
  }
  // base with the indexed axes first and merged: [N, rest...]
  layout.perm = layout.axes;
  layout.perm.insert(layout.perm.end(), layout.rest.begin(), layout.rest.end());
  layout.moved = base;
  bool identity = true;
  for (size_t i = 0; i < layout.perm.size(); ++i) identity = identity && layout.perm[i] == static_cast<int64_t>(i);
  if (!identity) layout.moved = builder_.addNode("Transpose", {layout.moved}, {{"perm", layout.perm}}, range);
  std::vector<int64_t> merged = {layout.positions};
  merged.insert(merged.end(), layout.restShape.begin(), layout.restShape.end());
  layout.moved = builder_.addNode("Reshape", {layout.moved}, {{"shape", merged}}, range);
  const int64_t s = static_cast<int64_t>(layout.indexShape.size());
  layout.adjacent = layout.axes.back() - layout.axes.front() + 1 == static_cast<int64_t>(layout.axes.size()) &&
                    std::is_sorted(layout.axes.begin(), layout.axes.end()) && layout.axes.front() > 0 && s > 0;
  return layout;
}

// [S..., prefix..., suffix...] <-> [prefix..., S..., suffix...]: where NumPy puts the index shape
// of adjacent index arrays after the first.
std::vector<int64_t> Analyzer::AdvancedLayout::indexShapeInPlace() const {
  const int64_t s = static_cast<int64_t>(indexShape.size()), prefix = axes.front();
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < prefix; ++i) perm.push_back(s + i);
  for (int64_t i = 0; i < s; ++i) perm.push_back(i);
  for (int64_t i = s + prefix; i < s + static_cast<int64_t>(rest.size()); ++i) perm.push_back(i);
  return perm;
}

// Along `axis`, the one element of `values` where `mask` holds: the maximum with −inf elsewhere for
// floats (−0.0 and NaN kept), and with the smallest element elsewhere for integers (an exact choice
// whose bounds are the values' own, for narrow-integers).
ValueId Analyzer::selectOne(ValueId mask, ValueId values, int64_t axis, const SourceRange& range, const std::string& nameHint) {
  const DType t = builder_.type(values).dtype;
  const ValueId filler = isFloat(t) ? builder_.constant(t, {-INFINITY}, {}, range)
                                    : builder_.addNode("ReduceMin", {values}, {{"keepdims", false}}, range);
  return builder_.addNode("ReduceMax", {builder_.addNode("Where", {mask, values, filler}, {}, range)},
                          {{"axes", std::vector<int64_t>{axis}}, {"keepdims", false}}, range, nameHint);
}

ValueId Analyzer::gatherAdvanced(ValueId base, const std::vector<AdvancedIndex>& advanced, const SourceRange& range,
                                 const std::string& nameHint) {
  const AdvancedLayout layout = advancedLayout(base, advanced, range);
  auto node = [&](const std::string& op, std::vector<ValueId> in, std::vector<graph::NamedAttr> attrs = {}) {
    return builder_.addNode(op, std::move(in), std::move(attrs), range);
  };
  const int64_t s = static_cast<int64_t>(layout.indexShape.size());
  // [1 (S times), N, rest...] against [S..., N, 1 (rest times)]: where each index tuple points
  std::vector<int64_t> spread(static_cast<size_t>(s), 1);
  spread.push_back(layout.positions);
  spread.insert(spread.end(), layout.restShape.begin(), layout.restShape.end());
  ValueId moved = node("Reshape", {layout.moved}, {{"shape", spread}});
  std::vector<int64_t> lineShape(static_cast<size_t>(s), 1);
  lineShape.push_back(layout.positions);
  const ValueId line = node("Reshape", {node("Range", {}, {{"start", 0.0}, {"stop", static_cast<double>(layout.positions)},
                                                          {"step", 1.0}, {"dtype", std::string("int32")}})},
                            {{"shape", lineShape}});
  ValueId hit = node("Equal", {node("ExpandDims", {layout.flat}, {{"axes", std::vector<int64_t>{s}}}), line});
  if (!layout.rest.empty()) {
    std::vector<int64_t> tail;
    for (size_t i = 0; i < layout.rest.size(); ++i) tail.push_back(s + 1 + static_cast<int64_t>(i));
    hit = node("ExpandDims", {hit}, {{"axes", tail}});
  }
  const DType t = builder_.type(base).dtype;
  if (t == DType::Bool) moved = builder_.cast(moved, DType::Int32, range);
  ValueId result = selectOne(hit, moved, s, range, layout.adjacent || t == DType::Bool ? "" : nameHint);
  if (layout.adjacent) {
    result = builder_.addNode("Transpose", {result}, {{"perm", layout.indexShapeInPlace()}}, range,
                              t == DType::Bool ? "" : nameHint);
  }
  if (t == DType::Bool) {
    result = builder_.addNode("NotEqual", {result, builder_.constant(DType::Int32, {0}, {}, range)}, {}, range, nameHint);
  }
  return result;
}

// a[idx] = v for integer index arrays: each of the N positions takes the value of the last index
// tuple (in NumPy's order) that points at it, or keeps its element; by selection, as gatherAdvanced.
// With `combine` (Add, Sub, Mul, Maximum, Minimum: np.add.at and its kin), each position is combined
// with every value pointed at it instead: the values reduced per position (their sum, product,
// maximum or minimum; the reduction's identity where none points), then combined with the element.
ValueId Analyzer::scatterAdvanced(ValueId base, const std::vector<AdvancedIndex>& advanced, const SymValue& value,
                                  const SourceRange& range, const std::string& combine) {
  const AdvancedLayout layout = advancedLayout(base, advanced, range);
  auto node = [&](const std::string& op, std::vector<ValueId> in, std::vector<graph::NamedAttr> attrs = {}) {
    return builder_.addNode(op, std::move(in), std::move(attrs), range);
  };
  const TensorType type = builder_.type(base);
  const DType t = type.dtype;
  const int64_t m = std::max<int64_t>(graph::elementCount(layout.indexShape), 1);
  // the value at the indexing result's shape, then as [S..., rest...] and [M, 1, rest...]
  graph::Shape resultShape = layout.indexShape;
  for (int64_t e : layout.restShape) resultShape.push_back(graph::Dim::known(e));
  if (layout.adjacent) {
    graph::Shape inPlace;
    for (int64_t p : layout.indexShapeInPlace()) inPlace.push_back(resultShape[static_cast<size_t>(p)]);
    resultShape = inPlace;
  }
  ValueId v = conformValue(value, TensorType{t, resultShape, graph::Layout::ND, true}, resultShape, range);
  if (layout.adjacent) {  // back to [S..., rest...]
    const std::vector<int64_t> forward = layout.indexShapeInPlace();
    std::vector<int64_t> inverse(forward.size());
    for (size_t i = 0; i < forward.size(); ++i) inverse[static_cast<size_t>(forward[i])] = static_cast<int64_t>(i);
    v = node("Transpose", {v}, {{"perm", inverse}});
  }
  std::vector<int64_t> rows = {m, 1};
  rows.insert(rows.end(), layout.restShape.begin(), layout.restShape.end());
  v = node("Reshape", {v}, {{"shape", rows}});
  // hit[m, n]: index tuple m points at position n
  const ValueId flat = node("Reshape", {layout.flat}, {{"shape", std::vector<int64_t>{m, 1}}});
  const ValueId positions = node("Reshape", {node("Range", {}, {{"start", 0.0}, {"stop", static_cast<double>(layout.positions)},
                                                               {"step", 1.0}, {"dtype", std::string("int32")}})},
                                 {{"shape", std::vector<int64_t>{1, layout.positions}}});
  const ValueId hit = node("Equal", {flat, positions});
  ValueId updated = combine.empty() ? lastWriteAt(layout, hit, v, t, range) : combineAt(layout, hit, v, combine, range);
  // [N, rest...] back to the array's axes
  std::vector<int64_t> unmerged;
  for (int64_t a : layout.axes) unmerged.push_back(type.shape[static_cast<size_t>(a)].extent);
  unmerged.insert(unmerged.end(), layout.restShape.begin(), layout.restShape.end());
  updated = node("Reshape", {updated}, {{"shape", unmerged}});
  std::vector<int64_t> inverse(layout.perm.size());
  bool identity = true;
  for (size_t i = 0; i < layout.perm.size(); ++i) {
    inverse[static_cast<size_t>(layout.perm[i])] = static_cast<int64_t>(i);
    identity = identity && layout.perm[i] == static_cast<int64_t>(i);
  }
  return identity ? updated : node("Transpose", {updated}, {{"perm", inverse}});
}

// The elements of layout.moved ([N, rest...]) where the last of the M index tuples that points at
// them (hit[M, N]) writes its row of v ([M, 1, rest...]).
ValueId Analyzer::lastWriteAt(const AdvancedLayout& layout, ValueId hit, ValueId v, DType t, const SourceRange& range) {
  auto node = [&](const std::string& op, std::vector<ValueId> in, std::vector<graph::NamedAttr> attrs = {}) {
    return builder_.addNode(op, std::move(in), std::move(attrs), range);
  };
  auto i32 = [&](double x) { return builder_.constant(DType::Int32, {x}, {}, range); };
  const int64_t m = builder_.type(hit).shape[0].extent;
  // last[n]: the last m that points at n, or -1
  const ValueId order = node("Reshape", {node("Range", {}, {{"start", 0.0}, {"stop", static_cast<double>(m)}, {"step", 1.0},
                                                           {"dtype", std::string("int32")}})},
                             {{"shape", std::vector<int64_t>{m, 1}}});
  const ValueId last = node("ReduceMax", {node("Where", {hit, order, i32(-1)})},
                            {{"axes", std::vector<int64_t>{0}}, {"keepdims", true}});  // [1, N]
  ValueId chosen = node("Equal", {order, last});  // [M, N]
  if (!layout.rest.empty()) {
    std::vector<int64_t> tail;
    for (size_t i = 0; i < layout.rest.size(); ++i) tail.push_back(2 + static_cast<int64_t>(i));
    chosen = node("ExpandDims", {chosen}, {{"axes", tail}});
  }
  if (t == DType::Bool) v = builder_.cast(v, DType::Int32, range);
  const ValueId picked = selectOne(chosen, v, 0, range, "");  // [N, rest...]
  ValueId written = node("GreaterEqual", {node("Reshape", {last}, {{"shape", std::vector<int64_t>{layout.positions}}}), i32(0)});
  if (!layout.rest.empty()) {
    std::vector<int64_t> tail;
    for (size_t i = 0; i < layout.rest.size(); ++i) tail.push_back(1 + static_cast<int64_t>(i));
    written = node("ExpandDims", {written}, {{"axes", tail}});
  }
  ValueId moved = layout.moved;
  if (t == DType::Bool) moved = builder_.cast(moved, DType::Int32, range);
  ValueId updated = node("Where", {written, picked, moved});
  if (builder_.type(updated).dtype != t) updated = t == DType::Bool ? node("NotEqual", {updated, i32(0)}) : builder_.cast(updated, t, range);
  return updated;
}

}  // namespace pyasc::frontend
