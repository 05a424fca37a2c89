// Compute: a tensor defined by a te.compute definition (sdk/te/Compute), carried as its text.
#include <stdexcept>

#include "registry/BuiltinOps.h"
#include "registry/EntryBuilders.h"
#include "sdk/te/Compute.h"

namespace pyasc::registry {

namespace {

using graph::TensorType;

bool inferCompute(InferContext& ctx) {
  te::ComputeDef def;
  try {
    def = te::parseComputeDef(ctx.node.stringAttr("compute"));
  } catch (const std::invalid_argument& e) {
    return ctx.fail(e.what());
  }
  if (def.inputs.size() != ctx.inputs.size()) {
    return ctx.fail("the compute reads " + std::to_string(def.inputs.size()) + " tensor(s) but the node has " +
                    std::to_string(ctx.inputs.size()) + " input(s)");
  }
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    TensorType want{def.inputs[i].dtype, {}, graph::Layout::ND};
    for (int64_t e : def.inputs[i].shape) want.shape.push_back(graph::Dim::known(e));
    if (ctx.inputs[i].dtype != want.dtype || ctx.inputs[i].shape != want.shape) {
      return ctx.fail("input " + std::to_string(i) + " is " + ctx.inputs[i].str() + " but the compute reads " + want.str());
    }
  }
  TensorType out{def.dtype(), {}, graph::Layout::ND};
  for (int64_t e : def.shape()) out.shape.push_back(graph::Dim::known(e));
  ctx.outputs.push_back(out);
  return true;
}

}  // namespace

void registerComputeOps(OpRegistry& r) {
  OpEntry e;
  e.name = "Compute";
  e.category = OpCategory::Compute;
  e.summary = "a tensor defined element by element by a te.compute definition";
  e.inputs = {variadicOperand("inputs")};
  e.outputs = {operand("out")};
  e.attrs = {requiredAttr("compute", graph::AttrKind::String, "the definition (sdk/te/Compute text)")};
  e.infer = inferCompute;
  r.add(std::move(e));
}

}  // namespace pyasc::registry
