// pyasc.nn operators: softmax, log_softmax, layer_norm, batch_norm (activations live with elementwise).
#include "registry/BuiltinOps.h"
#include "registry/EntryBuilders.h"
#include "registry/Promotion.h"
#include "registry/ShapeInference.h"

namespace pyasc::registry {

namespace {

using graph::TensorType;

bool checkAxis(InferContext& ctx, int64_t& axis) {
  const int rank = ctx.inputs[0].rank();
  if (!normalizeAxis(ctx.node.intAttr("axis"), rank, axis)) return ctx.fail(axisError(ctx.node.intAttr("axis"), rank));
  return true;
}

bool inferAlongAxis(InferContext& ctx) {
  int64_t axis;
  if (!checkAxis(ctx, axis)) return false;
  TensorType out = ctx.inputs[0];
  out.dtype = floatLoopDType(out.dtype);
  ctx.outputs.push_back(out);
  return true;
}

// Every parameter operand must broadcast against x without changing x's shape.
bool inferNormalization(InferContext& ctx) {
  int64_t axis;
  if (!checkAxis(ctx, axis)) return false;
  TensorType out = ctx.inputs[0];
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    graph::Shape merged;
    if (!broadcastShapes(out.shape, ctx.inputs[i].shape, merged) || merged != out.shape) {
      return ctx.fail("operand " + std::to_string(i) + " of shape " + numpyShape(ctx.inputs[i].shape) +
                      " does not broadcast to the input shape " + numpyShape(out.shape));
    }
    out.dtype = promoteTypes(out.dtype, ctx.inputs[i].dtype);
  }
  ctx.outputs.push_back(out);
  return true;
}

bool inferBatchNorm(InferContext& ctx) {
  int64_t axis;
  if (!checkAxis(ctx, axis)) return false;
  const graph::Dim channels = ctx.inputs[0].shape[static_cast<size_t>(axis)];
  TensorType out = ctx.inputs[0];
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    const TensorType& p = ctx.inputs[i];
    if (p.rank() != 1 || p.shape[0] != channels) {
      return ctx.fail("batch_norm parameter " + std::to_string(i) + " must have shape (" + channels.str() +
                      ",), found " + numpyShape(p.shape));
    }
    out.dtype = promoteTypes(out.dtype, p.dtype);
  }
  ctx.outputs.push_back(out);
  return true;
}

OpEntry nnEntry(const char* name, OpCategory category, const char* summary, std::vector<OperandSpec> inputs,
                std::vector<AttrSpec> attrs, InferFn infer) {
  OpEntry e;
  e.name = name;
  e.category = category;
  e.summary = summary;
  e.inputs = std::move(inputs);
  e.outputs = {operand("y", kFloatTypes)};
  e.attrs = std::move(attrs);
  e.infer = std::move(infer);
  return e;
}

}  // namespace

void registerNNOps(OpRegistry& r) {
  const AttrSpec lastAxis = attrWithDefault("axis", int64_t{-1}, "normalised axis");
  const AttrSpec epsilon = attrWithDefault("epsilon", 1e-5, "added to the variance");
  r.add(nnEntry("Softmax", OpCategory::Reduce, "exp(x - max) / sum(exp(x - max)) along axis", {operand("x")},
                {lastAxis}, inferAlongAxis));
  r.add(nnEntry("LogSoftmax", OpCategory::Reduce, "x - max - log(sum(exp(x - max))) along axis", {operand("x")},
                {lastAxis}, inferAlongAxis));
  r.add(nnEntry("LayerNorm", OpCategory::Reduce, "(x - mean) / sqrt(var + epsilon) * gamma + beta along axis",
                {operand("x", kFloatTypes), operand("gamma", kFloatTypes), operand("beta", kFloatTypes)},
                {lastAxis, epsilon}, inferNormalization));
  r.add(nnEntry("BatchNorm", OpCategory::Broadcast,
                "(x - mean) / sqrt(var + epsilon) * gamma + beta with per-channel statistics on axis",
                {operand("x", kFloatTypes), operand("mean", kFloatTypes), operand("var", kFloatTypes),
                 operand("gamma", kFloatTypes), operand("beta", kFloatTypes)},
                {attrWithDefault("axis", int64_t{1}, "channel axis"), epsilon}, inferBatchNorm));
  const NumpyParam axisParam = attrParam("axis", ParamKind::Int, "axis", int64_t{-1});
  r.addAlias(functionAlias("nn.softmax", "Softmax", {tensorParam("x"), axisParam}));
  r.addAlias(functionAlias("nn.log_softmax", "LogSoftmax", {tensorParam("x"), axisParam}));
  r.addAlias(functionAlias("nn.layer_norm", "LayerNorm",
                           {tensorParam("x"), tensorParam("gamma"), tensorParam("beta"), axisParam,
                            attrParam("eps", ParamKind::Float, "epsilon", 1e-5)}));
  r.addAlias(functionAlias("nn.batch_norm", "BatchNorm",
                           {tensorParam("x"), tensorParam("mean"), tensorParam("var"), tensorParam("gamma"),
                            tensorParam("beta"), attrParam("axis", ParamKind::Int, "axis", int64_t{1}),
                            attrParam("eps", ParamKind::Float, "epsilon", 1e-5)}));
}

}  // namespace pyasc::registry
