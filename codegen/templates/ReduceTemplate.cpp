// The reduction template: sum, mean, max, min and prod over any axes as [outer, reduce, inner]
// row reductions. Legalised on the way: non-contiguous axes are transposed to the end first (and so
// are axes whose [reduce, inner] slices fit UB in no staging), an extent whose unit does not fit UB
// (or too few units for the cores) is reduced in stages through partial-result tensors, unless it
// is a single slice whose columns can be units of their own, an int32
// sum accumulates in int32 and is widened to NumPy's int64, and an int64 reduction runs on the
// scalar unit.
#include "codegen/templates/ReduceTemplate.h"

#include <algorithm>
#include <optional>

#include "codegen/lower/DynamicReduceKernel.h"
#include "codegen/lower/ReduceKernel.h"
#include "codegen/lower/ScalarKernel.h"
#include "codegen/schedule/PatternSchedules.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

// A float32 reduction of a value with dynamic dims (SymbolicShapes keeps the reduced axes adjacent
// and those after them static): [outer, reduce, inner] with outer and reduce at launch, in one
// kernel or in parts and a kernel combining them.
void lowerDynamicReduce(const Node& n, Lowering& l, const std::vector<ShapeExpr>& dims, std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  ValueId in = n.inputs[0], res = n.outputs[0];
  const DType t = g.type(in).dtype, resType = g.type(res).dtype;
  if (t != DType::Float32 || !(resType == DType::Float32 || resType == DType::Float16)) {
    throw CompileError(n.loc, "'" + n.op + "' of " + dtypeName(t) + " over dynamic dimensions is not compiled for dynamic " +
                                  "shapes yet (float32 reductions are); compile one model per shape");
  }
  const std::vector<int64_t> shape = staticShape(g.type(in), n.loc), axes = reducedAxes(n, shape.size());
  const auto first = static_cast<size_t>(axes.front()), last = static_cast<size_t>(axes.back()) + 1;
  DynamicReduceCompute r;
  r.name = l.kernelName("reduce");
  r.kind = n.op == "ReduceSum" ? ReduceKind::Sum : n.op == "ReduceMean" ? ReduceKind::Mean
           : n.op == "ReduceMax" ? ReduceKind::Max : ReduceKind::Min;
  r.halfResult = resType == DType::Float16;
  r.outer = product(shape, 0, first);
  r.reduce = product(shape, first, last);
  r.inner = product(shape, last);
  r.sourceLine = n.loc.line;
  const ShapeExpr outer = shape::product(std::vector<ShapeExpr>(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(first)));
  const ShapeExpr reduce = shape::product(std::vector<ShapeExpr>(dims.begin() + static_cast<std::ptrdiff_t>(first),
                                                                 dims.begin() + static_cast<std::ptrdiff_t>(last)));
  auto scalars = [](std::vector<ShapeExpr> values) {
    std::vector<model::AffineScalar> list;
    for (ShapeExpr& v : values) list.push_back(model::AffineScalar{0, {}, std::move(v)});
    return list;
  };
  DynamicReducePlan plan;
  locatedAt(n, [&] { plan = planDynamicReduce(r, l.target, l.cores(false)); });
  const int src = l.storageOf(in, n.loc);
  if (plan.parts == 1) {
    l.launch(out, lowerDynamicReduceParts(r, plan, l.target), {src, l.newIntermediate(res)}, scalars({outer, reduce, reduce}));
    return;
  }
  Storage partial;
  partial.name = l.program.storages[src].name + "_partial";
  partial.dtype = DType::Float32;
  partial.shape = {r.outer * plan.parts, r.inner};
  const int parts = l.addStorage(partial);
  const ShapeExpr count = shape::constant(plan.parts);
  l.launch(out, lowerDynamicReduceParts(r, plan, l.target), {src, parts},
           scalars({shape::mul(outer, count), reduce, shape::ceilDiv(reduce, count)}));
  r.name = l.kernelName("reduce");
  l.launch(out, lowerDynamicReduceCombine(r, plan, l.target), {parts, l.newIntermediate(res)}, scalars({outer, reduce}));
}

// [outer, reduce, inner] of a static reduction `n` over the adjacent `axes` of `shape`, in type `t`.
ReduceCompute reduceComputeOf(const Node& n, DType t, DType resType, const std::vector<int64_t>& shape,
                              const std::vector<int64_t>& axes) {
  ReduceCompute r;
  r.kind = n.op == "ReduceSum" ? ReduceKind::Sum : n.op == "ReduceMean" ? ReduceKind::Mean
           : n.op == "ReduceMax" ? ReduceKind::Max : n.op == "ReduceProd" ? ReduceKind::Prod : ReduceKind::Min;
  r.dtype = t;
  r.outer = product(shape, 0, static_cast<size_t>(axes.front()));
  r.reduce = product(shape, static_cast<size_t>(axes.front()), static_cast<size_t>(axes.back() + 1));
  r.inner = product(shape, static_cast<size_t>(axes.back() + 1));
  r.sourceLine = n.loc.line;
  r.halfResult = resType != t && resType == DType::Float16;  // a float32 reduction with a float16 result
  return r;
}

// The stages reducing `r` (planReduceStages), or one stage over a single slice's columns when it
// would take several (`r` becomes the columns' compute).
std::vector<int64_t> planStages(ReduceCompute& r, const Target& target, int cores) {
  std::vector<int64_t> stages = planReduceStages(r, target, cores);
  if (stages.size() > 1) {
    ReduceCompute columns = planReduceColumns(r, target, cores);
    if (columns.columns) {
      r = columns;
      stages = {r.reduce};
    }
  }
  return stages;
}

// Whether every stage's unit fits UB (slices of an extent with no divisor that fits may not).
bool stagesFit(const ReduceCompute& r, const std::vector<int64_t>& stages, const Target& target) {
  return r.inner == 1 || std::all_of(stages.begin(), stages.end(), [&](int64_t extent) { return reduceUnitFits(r, extent, target); });
}

// Launches `r` planned in `stages`: each stage but the last reduces into partial results (named
// after `name`); the first reads `inputs` (and `scalars`: a prologue's), each later one the partial
// results before it. The last writes `n`'s result, through an int32 copy widened to it unless
// `direct`.
void launchStages(const Node& n, ReduceCompute r, const std::vector<int64_t>& stages, std::vector<int> inputs,
                  std::vector<model::AffineScalar> scalars, std::string name, bool direct, Lowering& l,
                  std::vector<Step>& out) {
  auto launch = [&](const ReduceCompute& compute, const ReduceSchedule& schedule, int dst) {
    KernelCode code = codegen::lowerReduce(compute, schedule, l.target);
    code.schedule = reduceTrace(compute, schedule).str();
    std::vector<int> args = inputs;
    args.push_back(dst);
    locatedAt(n, [&] { l.launch(out, std::move(code), args, scalars); });
    inputs = {dst};
    scalars.clear();
  };
  for (size_t i = 0; i + 1 < stages.size(); ++i) {
    // [outer, m·k, inner] → [outer·k, inner]: partial results in a scratch tensor
    ReduceCompute stage = r;
    stage.halfResult = false;
    stage.name = r.prologue ? r.name : l.kernelName("reduce");
    stage.reduce = stages[i];
    stage.outer = r.outer * (r.reduce / stages[i]);
    Storage partial;
    partial.name = name + "_partial";
    partial.dtype = r.dtype;
    partial.shape = {stage.outer, r.inner};
    int dst = l.addStorage(partial);
    launch(stage, scheduleReduce(stage, l.target, l.cores(false)), dst);
    r.prologue = nullptr;
    r.reduce /= stages[i];
    r.name = l.kernelName("reduce");
  }
  ReduceSchedule s = scheduleReduce(r, l.target, l.cores(false));
  if (const Schedule* explicitSchedule = l.explicitScheduleOf(n)) s = replayReduce(*explicitSchedule, r, s, l.target, l.cores(false));
  int dst = l.newIntermediate(n.outputs[0]);
  if (direct) {
    launch(r, s, dst);
    return;
  }
  Storage narrow;
  narrow.name = l.graph.value(n.outputs[0]).name + "_" + dtypeName(r.dtype);
  narrow.dtype = r.dtype;
  narrow.shape = {r.outer * r.inner};
  int sums = l.addStorage(narrow);
  launch(r, s, sums);
  l.copyWhole(sums, dst, n, out);
}

void lowerReduce(const Node& n, Lowering& l, std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  ValueId in = n.inputs[0], res = n.outputs[0];
  // the kernel's type: the input's; an int32 sum accumulates in int32 (exact while the partial
  // sums fit) and widens to NumPy's int64 at the end
  DType t = g.type(in).dtype, resType = g.type(res).dtype;
  // (a float32 result may be written in float16, rounded once: mixed precision's cube operands)
  bool floats = (t == DType::Float16 || t == DType::Float32) &&
                (resType == t || (t == DType::Float32 && resType == DType::Float16 && n.op != "ReduceProd"));
  // (an int32 result is narrow-integers' proof that the sums fit int32)
  bool ints = t == DType::Int32 && ((n.op == "ReduceSum" && (resType == DType::Int64 || resType == t)) ||
                                    ((n.op == "ReduceMax" || n.op == "ReduceMin") && resType == t));
  // int64 values narrow-integers could not bound: on the scalar unit, in 64-bit registers
  const bool wide = t == DType::Int64 && resType == DType::Int64 && n.op != "ReduceMean";
  if (!floats && !ints && !wide) {
    throw CompileError(n.loc, std::string("reduction '") + n.op + "' from " + dtypeName(t) + " to " + dtypeName(resType) +
                                  " is not supported on the NPU yet (float16 and float32 are; int32 sums, maxima and "
                                  "minima; int64 sums, products, maxima and minima, on the scalar unit)");
  }
  if (const std::vector<ShapeExpr>* dims = l.shapes.dims(in)) return lowerDynamicReduce(n, l, *dims, out);
  std::vector<int64_t> shape = staticShape(g.type(in), n.loc);
  std::vector<int64_t> axes = reducedAxes(n, shape.size());
  int src = l.storageOf(in, n.loc);
  if (shape.empty()) shape = {1};
  // moves the reduced axes to the end with a transpose, to reduce the trailing block
  auto moveReducedLast = [&] {
    std::vector<int64_t> perm;
    for (size_t i = 0; i < shape.size(); ++i)
      if (!std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(i))) perm.push_back(static_cast<int64_t>(i));
    for (int64_t a : axes) perm.push_back(a);
    src = l.transposeInto(src, t, shape, perm, n, out);
    std::vector<int64_t> permuted;
    for (int64_t p : perm) permuted.push_back(shape[p]);
    shape = permuted;
    int64_t first = static_cast<int64_t>(shape.size() - axes.size());
    for (size_t i = 0; i < axes.size(); ++i) axes[i] = first + static_cast<int64_t>(i);
  };
  bool contiguous = axes.back() - axes.front() + 1 == static_cast<int64_t>(axes.size());
  if (!contiguous) moveReducedLast();
  if (wide) {
    ScalarReduce s;
    s.name = l.kernelName("scalar_reduce");
    s.op = n.op;
    s.outer = product(shape, 0, static_cast<size_t>(axes.front()));
    s.reduce = product(shape, static_cast<size_t>(axes.front()), static_cast<size_t>(axes.back() + 1));
    s.inner = product(shape, static_cast<size_t>(axes.back() + 1));
    s.sourceLine = n.loc.line;
    const int dst = l.newIntermediate(res);
    locatedAt(n, [&] { l.launch(out, lowerScalarReduce(s, l.cores(false)), {src, dst}); });
    return;
  }
  ReduceCompute r;
  std::vector<int64_t> stages;
  auto plan = [&] {
    r = reduceComputeOf(n, t, resType, shape, axes);  // the last stage writes the result's type
    r.name = l.kernelName("reduce");
    stages = planStages(r, l.target, l.cores(false));
  };
  plan();
  // slices [reduce, inner] too large for UB in every stage (an extent with no divisor that fits):
  // rows instead, whose reduction folds long rows
  if (!stagesFit(r, stages, l.target)) {
    moveReducedLast();
    plan();
  }
  launchStages(n, r, stages, {src}, {}, l.program.storages[src].name, floats || resType == t, l, out);
}

// How a reduce kernel reads a prologue operand broadcast to the reduction's input: a UB row
// repeated (the reduced axes of rows, or a slice's row), one value per UB row, one per unit, or
// none of these (a copy at the input's shape first).
enum class Broadcast { Row, RowValue, UnitValue, Copied };

Broadcast broadcastOf(std::vector<int64_t> from, const std::vector<int64_t>& to, const std::vector<int64_t>& axes) {
  while (from.size() > to.size() && from.front() == 1) from.erase(from.begin());
  if (from.size() > to.size()) return Broadcast::Copied;
  from.insert(from.begin(), to.size() - from.size(), 1);
  auto equal = [&](size_t a, size_t b) {
    for (size_t i = a; i < b; ++i)
      if (from[i] != to[i]) return false;
    return true;
  };
  auto ones = [&](size_t a, size_t b) {
    for (size_t i = a; i < b; ++i)
      if (from[i] != 1) return false;
    return true;
  };
  const size_t first = static_cast<size_t>(axes.front()), last = static_cast<size_t>(axes.back()) + 1, end = to.size();
  if (product(to, last) == 1) {  // rows: a UB row is a unit
    if (ones(0, first) && equal(first, end)) return Broadcast::Row;
    if (equal(0, first) && ones(first, end)) return Broadcast::RowValue;
    return Broadcast::Copied;
  }
  if (ones(0, last) && equal(last, end)) return Broadcast::Row;
  if (equal(0, last) && ones(last, end)) return Broadcast::RowValue;
  if (equal(0, first) && ones(first, end)) return Broadcast::UnitValue;
  return Broadcast::Copied;
}

}  // namespace

bool reduceTakesPrologue(const Node& n, const graph::Graph& g, int slots, const Target& target) {
  if (templateFor(n.op) != &reduceTemplate || n.inputs.size() != 1 || n.outputs.size() != 1) return false;
  const DType t = g.type(n.inputs[0]).dtype, resType = g.type(n.outputs[0]).dtype;
  if (!(t == DType::Float16 || t == DType::Float32) ||
      !(resType == t || (t == DType::Float32 && resType == DType::Float16 && n.op != "ReduceProd"))) {
    return false;
  }
  std::vector<int64_t> shape;
  for (const auto& d : g.type(n.inputs[0]).shape) shape.push_back(d.extent);
  if (shape.empty()) return false;
  const std::vector<int64_t> axes = reducedAxes(n, shape.size());
  if (axes.empty() || axes.back() - axes.front() + 1 != static_cast<int64_t>(axes.size())) return false;
  // at most `slots` tiles of 4-byte values per buffer set, and as many constant tiles
  auto bound = std::make_shared<ReducePrologue>();
  bound->plan.slotsPerSet = bound->plan.persistentSlots = slots;
  bound->plan.elemBytes = 4;
  ReduceCompute r = reduceComputeOf(n, t, resType, shape, axes);
  r.prologue = bound;
  const std::vector<int64_t> stages = planStages(r, target, std::max(1, target.vectorCores));
  return stagesFit(r, stages, target) && reduceUnitFits(r, stages.front(), target);
}

void lowerReduceOfGroup(const Node& n, FusionGroup& group, Lowering& l, std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  const ValueId in = n.inputs[0];
  const DType t = g.type(in).dtype, resType = g.type(n.outputs[0]).dtype;
  const std::vector<int64_t> shape = staticShape(g.type(in), n.loc), axes = reducedAxes(n, shape.size());
  const int64_t count = product(shape), rowElems = product(shape, static_cast<size_t>(axes.back()) + 1) == 1
                                                     ? product(shape, static_cast<size_t>(axes.front()))
                                                     : product(shape, static_cast<size_t>(axes.back()) + 1);
  auto unfused = [&] {
    group.flush(l, out);
    lowerReduce(n, l, out);
  };
  // how the kernel reads each operand: as an array of the input's shape (kind unset), an element,
  // by value, or broadcast
  struct Read {
    ElementwiseInput input;
    std::optional<Broadcast> broadcast;
    std::vector<int64_t> shape;
  };
  std::vector<Read> reads;
  for (const FusionGroup::Operand& o : group.operands()) {
    if (o.copy >= 0) return unfused();  // (a raw group makes no copies)
    const DType ot = g.type(o.value).dtype;
    if (l.classes.of(o.value) == ValueClasses::Class::Counter) {
      reads.push_back({ElementwiseInput{DType::Int32, true, true}, std::nullopt, {}});
      continue;
    }
    Read read{ElementwiseInput{ot}, std::nullopt, staticShape(g.type(o.value), n.loc)};
    const int64_t elements = product(read.shape);
    if (elements == 1 && ot != DType::Bool) {
      read.input.scalar = true;
    } else if (dtypeSize(ot) != dtypeSize(t)) {
      return unfused();  // rows of another element size would lie at another pitch in UB
    } else if (elements != count) {
      read.broadcast = broadcastOf(read.shape, shape, axes);
    }
    reads.push_back(read);
  }
  const te::ExprPtr value = group.expr(in);
  // the operands copied at the input's shape first: those broadcast in no way the kernel repeats
  std::vector<bool> copied;
  for (const Read& read : reads) copied.push_back(read.broadcast == Broadcast::Copied);
  auto computeWith = [&]() {
    std::vector<ElementwiseInput> inputs;
    for (size_t i = 0; i < reads.size(); ++i) {
      ElementwiseInput input = reads[i].input;
      if (reads[i].broadcast && !copied[i]) {
        if (*reads[i].broadcast == Broadcast::Row) input.period = rowElems;
        if (*reads[i].broadcast == Broadcast::RowValue) input.stretch = rowElems;
        if (*reads[i].broadcast == Broadcast::UnitValue) input.stretch = product(shape, static_cast<size_t>(axes.front()));
      }
      inputs.push_back(input);
    }
    ReduceCompute r = reduceComputeOf(n, t, resType, shape, axes);
    r.prologue = makeReducePrologue(std::move(inputs), value);
    return r;
  };
  // A broadcast the plan keeps in order: any in one stage of whole units; in stages a slice's rows
  // (each stage's units are runs of the same rows), not rows cut into parts nor whole units; none in
  // column units (each a slice's columns).
  auto keeps = [&](Broadcast b, const ReduceCompute& r, size_t stages) {
    if (r.columns) return false;
    return stages == 1 || (r.inner > 1 && b != Broadcast::UnitValue);
  };
  ReduceCompute r;
  std::vector<int64_t> stages;
  for (bool changed = true; changed;) {  // (copies only ever increase)
    r = computeWith();
    stages = planStages(r, l.target, l.cores(false));
    changed = false;
    for (size_t i = 0; i < reads.size(); ++i) {
      if (!reads[i].broadcast || copied[i] || keeps(*reads[i].broadcast, r, stages.size())) continue;
      copied[i] = true;
      changed = true;
    }
  }
  // a value computed from constants alone, or kernels that do not fit UB: the group's kernel first
  if (!r.prologue->plan.slot.count(value.get()) || !stagesFit(r, stages, l.target) || !reduceUnitFits(r, stages.front(), l.target)) {
    return unfused();
  }
  std::vector<int> args;
  std::vector<model::AffineScalar> scalars;
  const std::vector<FusionGroup::Operand> operands = group.operands();
  for (size_t i = 0; i < operands.size(); ++i) {
    const ValueId v = operands[i].value;
    if (reads[i].input.inRegister) {
      scalars.push_back(l.classes.affine(v));
    } else if (copied[i]) {
      args.push_back(l.broadcastStorage(l.storageOf(v, n.loc), reads[i].shape, shape, g.value(v).name + "_broadcast", n, out));
    } else {
      args.push_back(l.storageOf(v, n.loc));
    }
  }
  group.clear();
  r.name = l.kernelName("elementwise_reduce");
  launchStages(n, r, stages, args, scalars, g.value(in).name, true, l, out);
}

const Template reduceTemplate{"reduce", {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"}, lowerReduce};

}  // namespace pyasc::codegen
