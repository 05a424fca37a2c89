// Inference for descriptor-defined operators: type columns for dtypes, the shape rule for shapes.
#include "registry/DescriptorInference.h"

#include "registry/ShapeInference.h"

namespace pyasc::registry {

namespace {

using graph::Shape;
using graph::TensorType;

std::string combinationText(const std::vector<const TensorDesc*>& operands, size_t column) {
  std::string s = "(";
  for (size_t i = 0; i < operands.size(); ++i) s += (i ? ", " : "") + std::string(dtypeName(operands[i]->types[column]));
  return s + ")";
}

// The first type column matched by every operand's dtype, or -1.
int matchColumn(const OpDescriptor& d, const std::vector<const TensorDesc*>& operands, InferContext& ctx) {
  const size_t columns = d.outputs[0].types.size();
  for (size_t c = 0; c < columns; ++c) {
    bool all = true;
    for (size_t i = 0; i < operands.size(); ++i) all &= ctx.inputs[i].dtype == operands[i]->types[c];
    if (all) return static_cast<int>(c);
  }
  std::string found = "(";
  for (size_t i = 0; i < operands.size(); ++i) found += (i ? ", " : "") + std::string(dtypeName(ctx.inputs[i].dtype));
  std::string supported;
  for (size_t c = 0; c < columns; ++c) supported += (c ? ", " : "") + combinationText(operands, c);
  ctx.fail(d.op + " supports the input types " + supported + ", found " + found + ")");
  return -1;
}

bool reduceShape(const OpDescriptor& d, InferContext& ctx, Shape& out) {
  const Shape& in = ctx.inputs[0].shape;
  const int rank = static_cast<int>(in.size());
  std::vector<int64_t> axes;
  const graph::Attribute* attr = ctx.node.attr(d.shapeRule.operand);
  if (!attr) {
    for (int i = 0; i < rank; ++i) axes.push_back(i);
  } else if (std::holds_alternative<int64_t>(*attr)) {
    axes.push_back(std::get<int64_t>(*attr));
  } else {
    axes = std::get<std::vector<int64_t>>(*attr);
  }
  std::vector<bool> reduced(in.size(), false);
  for (int64_t axis : axes) {
    int64_t a;
    if (!normalizeAxis(axis, rank, a)) return ctx.fail(axisError(axis, rank));
    reduced[static_cast<size_t>(a)] = true;
  }
  const bool keepdims = d.findAttr("keepdims") && ctx.node.boolAttr("keepdims");
  for (size_t i = 0; i < in.size(); ++i) {
    if (!reduced[i]) {
      out.push_back(in[i]);
    } else if (keepdims) {
      out.push_back(graph::Dim::known(1));
    }
  }
  return true;
}

bool matmulShape(const OpDescriptor& d, InferContext& ctx, Shape& out) {
  const Shape& a = ctx.inputs[0].shape;
  const Shape& b = ctx.inputs[1].shape;
  if (a.size() < 2 || b.size() < 2) return ctx.fail(d.op + " multiplies matrices: both operands need rank 2 or more");
  const graph::Dim& ka = a[a.size() - 1];
  const graph::Dim& kb = b[b.size() - 2];
  if (ka.isKnown() && kb.isKnown() && ka.extent != kb.extent) {
    return ctx.fail(d.op + ": inner dimensions differ: " + numpyShape(a) + " @ " + numpyShape(b));
  }
  if (!broadcastShapes(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2), out)) {
    return ctx.fail(d.op + ": batch dimensions could not be broadcast: " + numpyShape(a) + " @ " + numpyShape(b));
  }
  out.push_back(a[a.size() - 2]);
  out.push_back(b[b.size() - 1]);
  return true;
}

bool explicitShape(const OpDescriptor& d, const std::vector<ShapeRuleDim>& dims, InferContext& ctx, Shape& out) {
  for (const auto& dim : dims) {
    if (dim.extent >= 0) {
      out.push_back(graph::Dim::known(dim.extent));
      continue;
    }
    size_t input = 0;
    while (d.inputs[input].name != dim.input) ++input;
    const Shape& shape = ctx.inputs[input].shape;
    int64_t axis;
    if (!normalizeAxis(dim.axis, static_cast<int>(shape.size()), axis)) {
      return ctx.fail(d.op + " shape_rule " + dim.input + "." + std::to_string(dim.axis) + ": " +
                      axisError(dim.axis, static_cast<int>(shape.size())));
    }
    out.push_back(shape[static_cast<size_t>(axis)]);
  }
  return true;
}

bool outputShape(const OpDescriptor& d, size_t output, InferContext& ctx, Shape& out) {
  const ShapeRule& rule = d.shapeRule;
  switch (rule.kind) {
    case ShapeRuleKind::SameAs:
      for (size_t i = 0; i < d.inputs.size(); ++i) {
        if (d.inputs[i].name == rule.operand) out = ctx.inputs[i].shape;
      }
      return true;
    case ShapeRuleKind::Broadcast:
      for (const auto& in : ctx.inputs) {
        Shape merged;
        if (!broadcastShapes(out, in.shape, merged)) {
          std::string shapes;
          for (const auto& t : ctx.inputs) shapes += " " + numpyShape(t.shape);
          return ctx.fail("operands could not be broadcast together with shapes" + shapes);
        }
        out = merged;
      }
      return true;
    case ShapeRuleKind::Reduce: return reduceShape(d, ctx, out);
    case ShapeRuleKind::Matmul: return matmulShape(d, ctx, out);
    case ShapeRuleKind::Explicit:
      return explicitShape(d, rule.outputShapes[rule.outputShapes.size() == 1 ? 0 : output], ctx, out);
    case ShapeRuleKind::Compute: return true;  // the definition gives it (frontend/CustomOps wraps this inference)
  }
  return false;
}

}  // namespace

InferFn descriptorInfer(const OpDescriptor& descriptor) {
  return [d = descriptor](InferContext& ctx) {
    // Operands past the declared inputs repeat the last (dynamic) one.
    std::vector<const TensorDesc*> operands;
    for (size_t i = 0; i < ctx.inputs.size(); ++i) operands.push_back(&d.inputs[std::min(i, d.inputs.size() - 1)]);
    const int column = matchColumn(d, operands, ctx);
    if (column < 0) return false;
    for (size_t o = 0; o < d.outputs.size(); ++o) {
      TensorType out;
      out.dtype = d.outputs[o].types[static_cast<size_t>(column)];
      if (!outputShape(d, o, ctx, out.shape)) return false;
      ctx.outputs.push_back(out);
    }
    return true;
  };
}

}  // namespace pyasc::registry
