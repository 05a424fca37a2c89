// The te.compute template: a custom operator's te.compute definition through the loop-nest stages
// (codegen/loop), with the definition's explicit schedule or the default one.
#include "codegen/loop/LowerCompute.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

void lowerComputeNode(const graph::Node& n, Lowering& l, std::vector<Step>& out) {
  te::ComputeDef def = te::parseComputeDef(n.stringAttr("compute"));
  def.name += "_" + std::to_string(l.program.kernels.size());
  std::vector<int> args;
  for (graph::ValueId v : n.inputs) args.push_back(l.storageOf(v, n.loc));
  args.push_back(l.newIntermediate(n.outputs[0]));
  l.launch(out, lowerCompute(def, l.explicitScheduleOf(n), l.target, n.loc.line, n.loc, l.options.observeLoopNest),
           std::move(args));
}

}  // namespace

const Template computeTemplate{"te-compute", {"Compute"}, lowerComputeNode};

}  // namespace pyasc::codegen
