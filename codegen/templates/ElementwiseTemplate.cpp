// The fused elementwise template: a group's TE expressions over placeholders (GM inputs, loop
// counters by value) and constants as one ElementwiseCompute (codegen/lower/ElementwiseKernel),
// writing back only the values read later.
#include "codegen/templates/ElementwiseTemplate.h"

#include <algorithm>
#include <numeric>

#include "codegen/lower/ElementwiseKernel.h"
#include "codegen/schedule/PatternSchedules.h"
#include "codegen/templates/Template.h"
#include "ops/Elementwise.h"

namespace pyasc::codegen {

int64_t columnStretch(const std::vector<int64_t>& shape, const std::vector<int64_t>& groupShape, DType dtype) {
  std::vector<int64_t> from = shape;
  const std::vector<int64_t>& to = groupShape;
  while (from.size() > to.size() && from.front() == 1) from.erase(from.begin());
  if (from.size() > to.size()) return 0;
  from.insert(from.begin(), to.size() - from.size(), 1);
  size_t kept = 0;
  while (kept < to.size() && from[kept] == to[kept]) ++kept;
  if (kept == to.size()) return 0;
  for (size_t i = kept; i < to.size(); ++i)
    if (from[i] != 1) return 0;
  int64_t stretch = product(to, kept);
  return dtype != DType::Bool && columnBroadcastFits(stretch, dtype) ? stretch : 0;
}

namespace {

// Whether an operand of `shape` broadcasts to `groupShape` as whole trailing rows the kernel repeats.
bool repeatsAsRows(const std::vector<int64_t>& shape, const std::vector<int64_t>& groupShape, DType dtype) {
  std::vector<int64_t> from = shape;
  while (!from.empty() && from.front() == 1) from.erase(from.begin());
  const std::vector<int64_t>& to = groupShape;
  if (from.empty() || from.size() > to.size() || !std::equal(from.begin(), from.end(), to.end() - static_cast<long>(from.size()))) {
    return false;
  }
  return dtype != DType::Bool && rowBroadcastFits(product(shape), dtype);
}

}  // namespace

namespace {

// A row operand (the group's trailing axes) whose bytes are not whole 32-byte blocks: how many
// copies of it are (an RGB pixel's 3 float32 values: 8 copies, 96 bytes), or 0.
int64_t rowCopiesForBlocks(const std::vector<int64_t>& shape, const std::vector<int64_t>& groupShape, DType dtype) {
  std::vector<int64_t> from = shape;
  while (!from.empty() && from.front() == 1) from.erase(from.begin());
  if (from.empty() || from.size() > groupShape.size() || dtype == DType::Bool ||
      !std::equal(from.begin(), from.end(), groupShape.end() - static_cast<long>(from.size()))) {
    return 0;
  }
  const int64_t bytes = product(shape) * dtypeSize(dtype);
  const int64_t copies = isa::kBlockBytes / std::gcd(bytes, int64_t{isa::kBlockBytes});
  return copies > 1 && rowBroadcastFits(copies * product(shape), dtype) ? copies : 0;
}

}  // namespace

bool sameBeyondLeadingOnes(std::vector<int64_t> a, std::vector<int64_t> b) {
  while (!a.empty() && a.front() == 1) a.erase(a.begin());
  while (!b.empty() && b.front() == 1) b.erase(b.begin());
  return a == b;
}

bool readsOperand(const std::vector<int64_t>& shape, const std::vector<int64_t>& groupShape, DType dtype) {
  int64_t n = product(shape);
  // one boolean element is no scalar operand: the vector unit duplicates no bytes (vdup has no u8)
  return (n == 1 && dtype != DType::Bool) || n == product(groupShape) || repeatsAsRows(shape, groupShape, dtype) ||
         columnStretch(shape, groupShape, dtype) != 0;
}

void FusionGroup::add(const Node& n, int id, Lowering& l, std::vector<Step>& out, bool raw) {
  ValueId result = n.outputs[0];
  std::vector<int64_t> shape = staticShape(l.graph.type(result), n.loc);
  // (fuse-elementwise groups nodes of one dynamic shape; a node of another starts a group all the same)
  if (!nodes_.empty() && (id != id_ || !l.shapes.sameDims(nodes_.front()->outputs[0], result))) flush(l, out);
  if (nodes_.empty()) {
    id_ = id;
    raw_ = raw;
    count_ = product(shape);
    shape_ = shape;
  }
  std::vector<te::ExprPtr> args;
  for (ValueId v : n.inputs) args.push_back(operandExpr(v, n, l, out));
  std::string error;
  te::ExprPtr e = ops::elementwiseExpr(n, args, l.graph.type(result).dtype, error);
  if (!e) throw CompileError(n.loc, error + " (target '" + l.target.name + "')");
  exprs_[result] = e;
  nodes_.push_back(&n);
}

te::ExprPtr FusionGroup::operandExpr(ValueId v, const Node& user, Lowering& l, std::vector<Step>& out) {
  auto it = exprs_.find(v);
  if (it != exprs_.end()) return it->second;
  DType t = l.graph.type(v).dtype;
  if (l.classes.of(v) == ValueClasses::Class::Scalar) return te::constant(l.classes.scalar(v), t == DType::Bool ? DType::Float16 : t);
  auto indexOf = [&](const Operand& o) {
    auto pos = std::find_if(inputs_.begin(), inputs_.end(), [&](const Operand& i) {
      return (o.copy < 0 && i.copy < 0 && i.value == o.value) || (o.period > 0 && i.period > 0 && i.value == o.value);
    });
    int index = static_cast<int>(pos - inputs_.begin());
    if (pos == inputs_.end()) inputs_.push_back(o);
    return index;
  };
  // a loop counter reaches the kernel by value, as a scalar argument
  if (l.classes.of(v) == ValueClasses::Class::Counter) return placeholder(indexOf(Operand{v}), DType::Int32);
  Operand operand{v};
  std::vector<int64_t> shape;
  for (const auto& d : l.graph.type(v).shape) shape.push_back(d.extent);
  if (raw_) {
    // (flush materialises what it cannot read should the reduction not take the group)
  } else if (const int64_t copies = readsOperand(shape, shape_, t) ? 0 : rowCopiesForBlocks(shape, shape_, t)) {
    // a row of partial blocks: a few copies of it (a small copy kernel) make a row the kernel repeats
    const int64_t n = product(shape);
    const std::string name = l.graph.value(v).name + "_rows";
    auto made = std::find_if(inputs_.begin(), inputs_.end(), [&](const Operand& i) { return i.value == v && i.period > 0; });
    if (made != inputs_.end()) return placeholder(static_cast<int>(made - inputs_.begin()), t);
    auto constant = std::find_if(l.graph.constants.begin(), l.graph.constants.end(),
                                 [&](const graph::GraphConstant& c) { return c.value == v; });
    if (constant != l.graph.constants.end()) {  // a constant's copies are a constant
      const std::vector<double> values = graph::decodeConstant(t, constant->bytes);
      operand.copy = l.constantStorage(name, t, {copies, n}, [&](int64_t i) { return values[static_cast<size_t>(i % n)]; },
                                       user.loc);
    } else {
      operand.copy = l.broadcastStorage(l.storageOf(v, user.loc), {n}, {copies, n},  // the row read flat
                                        name, user, out);
    }
    operand.period = copies * n;
  } else if (!readsOperand(shape, shape_, t)) {
    // a broadcast operand: materialise it at the group's shape first
    // at the user's shape, the group's but for leading 1s (fuse-elementwise) and of the operand's rank or more
    operand.copy = l.broadcastStorage(l.storageOf(v, user.loc), staticShape(l.graph.type(v), user.loc),
                                      staticShape(l.graph.type(user.outputs[0]), user.loc),
                                      l.graph.value(v).name + "_broadcast", user, out);
  }
  DType gmType = t == DType::Bool ? DType::UInt8 : t;
  te::ExprPtr p = placeholder(indexOf(operand), gmType);
  return t == DType::Bool ? ops::castTo(ops::castTo(p, DType::Float16), DType::Bool) : p;
}

te::ExprPtr FusionGroup::placeholder(int index, DType dtype) {
  if (placeholders_.size() <= static_cast<size_t>(index)) placeholders_.resize(static_cast<size_t>(index) + 1);
  te::ExprPtr& p = placeholders_[static_cast<size_t>(index)];
  if (!p) p = te::placeholder(index, dtype);
  return p;
}

te::ExprPtr FusionGroup::expr(ValueId v) const {
  auto it = exprs_.find(v);
  return it == exprs_.end() ? nullptr : it->second;
}

void FusionGroup::flush(Lowering& l, std::vector<Step>& out) {
  if (nodes_.empty()) return;
  FusionGroup g = std::move(*this);
  *this = FusionGroup{};
  // a value leaves the group when something after the group still reads it
  std::vector<ValueId> results;
  for (const Node* n : g.nodes_)
    if (l.classes.readsAhead(n->outputs[0]) > 0) results.push_back(n->outputs[0]);
  if (results.empty()) return;
  ElementwiseCompute c;
  c.name = l.kernelName("elementwise");
  c.count = g.count_;
  c.sourceLine = g.nodes_.front()->loc.line;
  std::vector<int> args;
  std::vector<model::AffineScalar> scalars;
  // row and column operands repeat in UB; when their tiles do not fit it, copies at the group's shape
  auto addInputs = [&](bool repeatInUb) {
    c.inputs.clear();
    args.clear();
    scalars.clear();
    for (Operand& o : g.inputs_) {
      if (o.copy < 0 && l.classes.of(o.value) == ValueClasses::Class::Counter) {
        c.inputs.push_back(ElementwiseInput{DType::Int32, true, true});
        scalars.push_back(l.classes.affine(o.value));
        continue;
      }
      if (o.copy < 0) {
        DType t = l.graph.type(o.value).dtype;
        std::vector<int64_t> shape;
        for (const auto& d : l.graph.type(o.value).shape) shape.push_back(d.extent);
        int64_t n = product(shape);
        const bool broadcast = n != 1 && n != g.count_;
        // (only a group kept raw for a reduction has operands the kernel cannot read)
        if ((broadcast && !repeatInUb) || !readsOperand(shape, g.shape_, t)) {
          o.copy = l.broadcastStorage(l.storageOf(o.value, g.nodes_.front()->loc), shape, g.shape_,
                                      l.graph.value(o.value).name + "_broadcast", *g.nodes_.front(), out);
        } else {
          const int64_t stretch = broadcast ? columnStretch(shape, g.shape_, t) : 0;
          c.inputs.push_back(ElementwiseInput{t == DType::Bool ? DType::UInt8 : t, n == 1 && g.count_ != 1, false,
                                              broadcast && !stretch ? n : 0, stretch});
          args.push_back(l.storageOf(o.value, g.nodes_.front()->loc));
          continue;
        }
      }
      if (o.period > 0 && !repeatInUb) {  // the rows' tiles do not fit: the row at the group's shape
        std::vector<int64_t> shape;
        for (const auto& d : l.graph.type(o.value).shape) shape.push_back(d.extent);
        o.copy = l.broadcastStorage(l.storageOf(o.value, g.nodes_.front()->loc), shape, g.shape_,
                                    l.graph.value(o.value).name + "_broadcast", *g.nodes_.front(), out);
        o.period = 0;
      }
      DType t = l.program.storages[o.copy].dtype;
      c.inputs.push_back(ElementwiseInput{t == DType::Bool ? DType::UInt8 : t, false, false, o.period, 0});
      args.push_back(o.copy);
    }
  };
  addInputs(true);
  for (ValueId v : results) {
    te::ExprPtr e = g.exprs_.at(v);
    if (l.graph.type(v).dtype == DType::Bool) e = ops::castTo(ops::castTo(e, DType::Float16), DType::UInt8);
    c.outputs.push_back(e);
  }
  if (!granuleFitsUb(c, l.target)) addInputs(false);
  if (l.shapes.dims(results.front())) {  // dynamic shapes: the element count is the last argument
    c.dynamicCount = true;
    model::AffineScalar count;
    count.shape = l.shapes.count(l.graph, results.front());
    scalars.push_back(count);
  }
  for (ValueId v : results) args.push_back(l.newIntermediate(v));
  locatedAt(*g.nodes_.front(), [&] {
    ElementwiseSchedule s = scheduleElementwise(c, l.target, l.options.doubleBuffer, l.cores(false));
    for (const Node* n : g.nodes_)
      if (const Schedule* explicitSchedule = l.explicitScheduleOf(*n)) {
        s = replayElementwise(*explicitSchedule, c, s, l.target, l.cores(false));
      }
    KernelCode code = lowerElementwise(c, s, l.target);
    code.schedule = elementwiseTrace(c, s).str();
    l.launch(out, std::move(code), args, scalars);
  });
}

}  // namespace pyasc::codegen
