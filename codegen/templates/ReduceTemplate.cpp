// The reduction template: sum, mean, max, min and prod over any axes as [outer, reduce, inner]
// row reductions. Legalised on the way: non-contiguous axes are transposed to the end first (and so
// are axes whose [reduce, inner] slices fit UB in no staging), an extent whose unit does not fit UB
// (or too few units for the cores) is reduced in stages through partial-result tensors, unless it
// is a single slice whose columns can be units of their own, an int32
// sum accumulates in int32 and is widened to NumPy's int64, and an int64 reduction runs on the
// scalar unit.
#include <algorithm>

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
    r.name = l.kernelName("reduce");
    r.kind = n.op == "ReduceSum" ? ReduceKind::Sum : n.op == "ReduceMean" ? ReduceKind::Mean
             : n.op == "ReduceMax" ? ReduceKind::Max : n.op == "ReduceProd" ? ReduceKind::Prod : ReduceKind::Min;
    r.dtype = t;
    r.outer = product(shape, 0, static_cast<size_t>(axes.front()));
    r.reduce = product(shape, static_cast<size_t>(axes.front()), static_cast<size_t>(axes.back() + 1));
    r.inner = product(shape, static_cast<size_t>(axes.back() + 1));
    r.sourceLine = n.loc.line;
    r.halfResult = floats && resType != t;  // the last stage writes the result's type (its UB too)
    stages = planReduceStages(r, l.target, l.cores(false));
    if (stages.size() > 1) {  // one slice: its columns in one stage instead, when they fit
      ReduceCompute columns = planReduceColumns(r, l.target, l.cores(false));
      if (columns.columns) {
        r = columns;
        stages = {r.reduce};
      }
    }
  };
  plan();
  // slices [reduce, inner] too large for UB in every stage (an extent with no divisor that fits):
  // rows instead, whose reduction folds long rows
  if (r.inner > 1 && !std::all_of(stages.begin(), stages.end(),
                                  [&](int64_t extent) { return reduceUnitFits(r, extent, l.target); })) {
    moveReducedLast();
    plan();
  }
  for (size_t i = 0; i + 1 < stages.size(); ++i) {
    // [outer, m·k, inner] → [outer·k, inner]: partial results in a scratch tensor
    ReduceCompute stage = r;
    stage.halfResult = false;
    stage.name = l.kernelName("reduce");
    stage.reduce = stages[i];
    stage.outer = r.outer * (r.reduce / stages[i]);
    Storage partial;
    partial.name = l.program.storages[src].name + "_partial";
    partial.dtype = t;
    partial.shape = {stage.outer, r.inner};
    int dst = l.addStorage(partial);
    ReduceSchedule stageSchedule = scheduleReduce(stage, l.target, l.cores(false));
    KernelCode code = codegen::lowerReduce(stage, stageSchedule, l.target);
    code.schedule = reduceTrace(stage, stageSchedule).str();
    l.launch(out, std::move(code), {src, dst});
    src = dst;
    r.reduce /= stages[i];
    r.name = l.kernelName("reduce");
  }
  ReduceSchedule s = scheduleReduce(r, l.target, l.cores(false));
  if (const Schedule* explicitSchedule = l.explicitScheduleOf(n)) s = replayReduce(*explicitSchedule, r, s, l.target, l.cores(false));
  int dst = l.newIntermediate(res);
  KernelCode code = codegen::lowerReduce(r, s, l.target);
  code.schedule = reduceTrace(r, s).str();
  if (floats || resType == t) {
    l.launch(out, std::move(code), {src, dst});
    return;
  }
  Storage narrow;
  narrow.name = g.value(res).name + "_" + dtypeName(t);
  narrow.dtype = t;
  narrow.shape = {r.outer * r.inner};
  int sums = l.addStorage(narrow);
  l.launch(out, std::move(code), {src, sums});
  l.copyWhole(sums, dst, n, out);
}

}  // namespace

const Template reduceTemplate{"reduce", {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"}, lowerReduce};

}  // namespace pyasc::codegen
