// The te.compute template: a custom operator's te.compute definition through the loop-nest stages
// (codegen/loop), with the definition's explicit schedule or the default one; a contraction
// (te.sum(a[i, k] * b[k, j], axis=k)) without a schedule through the cube pipeline of the matmul
// template, its expert schedule.
#include "codegen/templates/ComputeTemplate.h"

#include "codegen/loop/LowerCompute.h"
#include "codegen/lower/MatmulKernel.h"
#include "codegen/schedule/PatternSchedules.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

void lowerComputeNode(const graph::Node& n, Lowering& l, std::vector<Step>& out) {
  te::ComputeDef def = te::parseComputeDef(n.stringAttr("compute"));
  def.name += "_" + std::to_string(l.program.kernels.size());
  std::vector<int> args;
  for (graph::ValueId v : n.inputs) args.push_back(l.storageOf(v, n.loc));
  args.push_back(l.newIntermediate(n.outputs[0]));
  const te::Schedule* schedule = l.explicitScheduleOf(n);
  // without a schedule, the matmul template is a contraction's expert schedule; a schedule that
  // tensorizes it lowers through the loop-nest stages (codegen/loop/ScheduleToLoops)
  if (std::optional<CubeKernel> cube = schedule ? std::nullopt : tensorizedKernel(def, l.target, n.loc.line, l.cores(true))) {
    l.launch(out, std::move(cube->code), {args[static_cast<size_t>(cube->a)], args[static_cast<size_t>(cube->b)], args.back()});
    return;
  }
  l.launch(out, lowerCompute(def, schedule, l.target, n.loc.line, n.loc, l.options.observeLoopNest), std::move(args));
}

}  // namespace

std::optional<CubeKernel> tensorizedKernel(const te::ComputeDef& def, const Target& target, int sourceLine, int cores) {
  std::optional<te::Contraction> c = te::contractionOf(def);
  if (!c) return std::nullopt;
  MatmulCompute mm;
  mm.name = def.name;
  mm.sourceLine = sourceLine;
  mm.transB = c->transposedB;
  mm.inType = def.tensor(c->a).dtype;
  mm.outType = def.dtype();
  mm.m = def.vars[0].extent;
  mm.n = def.vars[1].extent;
  mm.k = def.vars[2].extent;
  MatmulSchedule s = scheduleMatmul(mm, target, cores);
  CubeKernel k{lowerMatmul(mm, s, target), c->a, c->b};
  k.code.schedule = matmulTrace(mm, s).str();
  return k;
}

const Template computeTemplate{"te-compute", {"Compute"}, lowerComputeNode};

}  // namespace pyasc::codegen
