// The te.compute template: a custom operator's te.compute definition through the loop-nest stages
// (codegen/loop), with the definition's explicit schedule or the default one; a contraction
// (te.sum(a[i, k] * b[k, j], axis=k)) the schedule tensorizes, or that has no schedule, through the
// cube's mmad pipeline of the matmul template.
#include "codegen/templates/ComputeTemplate.h"

#include "codegen/loop/LowerCompute.h"
#include "codegen/lower/MatmulKernel.h"
#include "codegen/schedule/PatternSchedules.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

// A matrix product as `def` writes it: out[i, j] = sum over k of a[i, k] * b[k, j] (or b[j, k]),
// operands float16 or float32 (cast or not to the sum's type), the sum maybe cast to the output's.
struct Contraction {
  MatmulCompute compute;
  int a = 0, b = 0;  // the inputs holding A and B
};

std::optional<Contraction> contractionOf(const te::ComputeDef& def) {
  using te::Op;
  if (def.rank() != 2 || def.vars.size() != 3 || def.vars[2].lo != 0 || !def.attached.empty()) return std::nullopt;
  te::ComputeExpr sum = def.body->op == Op::Cast ? def.body->args[0] : def.body;
  if (sum->op != Op::Reduce || sum->fn != "sum" || sum->args[0]->op != Op::Mul) return std::nullopt;
  auto operand = [](te::ComputeExpr e) { return e->op == Op::Cast ? e->args[0] : e; };
  te::ComputeExpr x = operand(sum->args[0]->args[0]), y = operand(sum->args[0]->args[1]);
  if (x->op != Op::Load || y->op != Op::Load || x->args.size() != 2 || y->args.size() != 2) return std::nullopt;
  auto at = [](const te::ComputeExpr& load, int first, int second) {
    return load->args[0]->op == Op::Var && load->args[0]->var == first && load->args[1]->op == Op::Var &&
           load->args[1]->var == second;
  };
  if (!at(x, 0, 2)) std::swap(x, y);  // A is read at [i, k]
  if (!at(x, 0, 2) || !(at(y, 2, 1) || at(y, 1, 2)) || x->dtype != y->dtype) return std::nullopt;
  if (x->dtype != DType::Float16 && x->dtype != DType::Float32) return std::nullopt;
  Contraction c;
  c.a = x->tensor;
  c.b = y->tensor;
  c.compute.transB = at(y, 1, 2);
  c.compute.inType = x->dtype;
  c.compute.outType = def.dtype();
  c.compute.m = def.vars[0].extent;
  c.compute.n = def.vars[1].extent;
  c.compute.k = def.vars[2].extent;
  return c;
}

// The schedule with the definition's axis names as the matmul template names them (i0, i1, r0).
te::Schedule templateNames(const te::Schedule& s, const te::ComputeDef& def) {
  te::Schedule out = s;
  for (auto& step : out.steps) {
    if (step.primitive == te::Primitive::CacheRead || step.primitive == te::Primitive::CacheWrite) continue;
    for (auto& name : step.names) {
      if (name == def.vars[0].name) name = "i0";
      if (name == def.vars[1].name) name = "i1";
      if (name == def.vars[2].name) name = "r0";
    }
  }
  return out;
}

void lowerComputeNode(const graph::Node& n, Lowering& l, std::vector<Step>& out) {
  te::ComputeDef def = te::parseComputeDef(n.stringAttr("compute"));
  def.name += "_" + std::to_string(l.program.kernels.size());
  std::vector<int> args;
  for (graph::ValueId v : n.inputs) args.push_back(l.storageOf(v, n.loc));
  args.push_back(l.newIntermediate(n.outputs[0]));
  const te::Schedule* schedule = l.explicitScheduleOf(n);
  if (std::optional<CubeKernel> cube = tensorizedKernel(def, schedule, l.target, n.loc.line, l.cores(true))) {
    l.launch(out, std::move(cube->code), {args[static_cast<size_t>(cube->a)], args[static_cast<size_t>(cube->b)], args.back()});
    return;
  }
  l.launch(out, lowerCompute(def, schedule, l.target, n.loc.line, n.loc, l.options.observeLoopNest), std::move(args));
}

}  // namespace

std::optional<CubeKernel> tensorizedKernel(const te::ComputeDef& def, const te::Schedule* schedule, const Target& target,
                                           int sourceLine, int cores) {
  std::vector<const te::ScheduleStep*> tensorize = schedule ? schedule->find(te::Primitive::Tensorize) : std::vector<const te::ScheduleStep*>{};
  if (schedule && tensorize.empty()) return std::nullopt;
  std::optional<Contraction> c = contractionOf(def);
  if (!c && schedule) {
    throw CompileError(tensorize[0]->loc, "tensorize: mmad takes a te.compute of the form te.sum(a[i, k] * b[k, j], axis=k) "
                                          "(or b[j, k]) over float16 or float32 matrices");
  }
  if (!c) return std::nullopt;
  c->compute.name = def.name;
  c->compute.sourceLine = sourceLine;
  MatmulSchedule s = scheduleMatmul(c->compute, target, cores);
  if (schedule) s = replayMatmul(templateNames(*schedule, def), c->compute, s, target, cores);
  CubeKernel k{lowerMatmul(c->compute, s, target), c->a, c->b};
  k.code.schedule = matmulTrace(c->compute, s).str();
  return k;
}

const Template computeTemplate{"te-compute", {"Compute"}, lowerComputeNode};

}  // namespace pyasc::codegen
