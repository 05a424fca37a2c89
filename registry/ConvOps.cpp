// pyasc.nn.conv2d: the Conv2D operator (NHWC or NCHW, strides, padding, dilation, groups), and
// FusedConv2D, an NHWC Conv2D with the epilogue fuse-conv-epilogue folds into it.
#include <optional>

#include "registry/BuiltinOps.h"
#include "registry/EntryBuilders.h"
#include "registry/Promotion.h"
#include "sdk/support/ShapeExpr.h"

namespace pyasc::registry {

namespace {

using graph::Dim;
using graph::TensorType;

bool pairAttr(InferContext& ctx, const char* name, size_t size, std::vector<int64_t>& out, int64_t minimum) {
  out = ctx.node.intListAttr(name);
  if (out.size() != size) return ctx.fail(std::string("conv2d ") + name + " needs " + std::to_string(size) + " values");
  for (int64_t v : out)
    if (v < minimum) return ctx.fail(std::string("conv2d ") + name + " must be at least " + std::to_string(minimum));
  return true;
}

// An output extent (in + pads - extent) // stride + 1, also of a symbolic input extent (a dynamic
// dimension, or an expression over them such as an earlier convolution's): then the expression's
// text, "(H-1)//2+1". Null when it is not an expression pyasc can evaluate.
std::optional<Dim> windowExtent(const Dim& in, int64_t pads, int64_t extent, int64_t stride) {
  if (in.isKnown()) return Dim::known((in.extent + pads - extent) / stride + 1);
  std::vector<std::string> names;
  ShapeExpr e = in.isSymbolic() ? shape::parse(in.symbol, names, true) : nullptr;
  if (!e) return std::nullopt;
  const int64_t shift = pads - extent;
  e = shift < 0 ? shape::sub(e, shape::constant(-shift)) : shape::add(e, shape::constant(shift));
  return Dim::symbolic(shape::compactText(shape::add(shape::floorDiv(e, shape::constant(stride)), shape::constant(1)), names));
}

bool inferConv2d(InferContext& ctx) {
  const TensorType& x = ctx.inputs[0];
  const TensorType& w = ctx.inputs[1];
  if (x.rank() != 4 || w.rank() != 4) {
    return ctx.fail("conv2d takes a 4-d input and 4-d weights, got " + x.str() + " and " + w.str());
  }
  std::vector<int64_t> strides, pads, dilations;
  if (!pairAttr(ctx, "strides", 2, strides, 1) || !pairAttr(ctx, "pads", 4, pads, 0) ||
      !pairAttr(ctx, "dilations", 2, dilations, 1)) {
    return false;
  }
  const std::string layout = ctx.node.stringAttr("layout", "NHWC");
  if (layout != "NHWC" && layout != "NCHW") return ctx.fail("conv2d layout must be 'NHWC' or 'NCHW', got '" + layout + "'");
  bool nchw = layout == "NCHW";
  // NHWC: x [N,H,W,C], w [KH,KW,C/g,Cout]; NCHW: x [N,C,H,W], w [Cout,C/g,KH,KW]
  const Dim& n = x.shape[0];
  const Dim& h = x.shape[nchw ? 2 : 1];
  const Dim& wd = x.shape[nchw ? 3 : 2];
  const Dim& c = x.shape[nchw ? 1 : 3];
  const Dim& kh = w.shape[nchw ? 2 : 0];
  const Dim& kw = w.shape[nchw ? 3 : 1];
  const Dim& cg = w.shape[nchw ? 1 : 2];
  const Dim& cout = w.shape[nchw ? 0 : 3];
  int64_t groups = ctx.node.intAttr("groups", 1);
  if (groups < 1) return ctx.fail("conv2d groups must be at least 1");
  if (!c.isKnown() || !cg.isKnown() || !cout.isKnown() || !kh.isKnown() || !kw.isKnown()) {
    return ctx.fail("conv2d needs known channel and kernel extents");
  }
  if (c.extent != cg.extent * groups) {
    return ctx.fail("conv2d input has " + std::to_string(c.extent) + " channels but the weights expect " +
                    std::to_string(cg.extent) + " × " + std::to_string(groups) + " groups");
  }
  if (cout.extent % groups != 0) return ctx.fail("conv2d output channels must divide into the groups");
  std::optional<Dim> oh = windowExtent(h, pads[0] + pads[1], (kh.extent - 1) * dilations[0] + 1, strides[0]);
  std::optional<Dim> ow = windowExtent(wd, pads[2] + pads[3], (kw.extent - 1) * dilations[1] + 1, strides[1]);
  if (!oh || !ow) return ctx.fail("conv2d needs spatial extents that are known or dynamic dimensions");
  if ((oh->isKnown() && oh->extent < 1) || (ow->isKnown() && ow->extent < 1))
    return ctx.fail("conv2d kernel is larger than the padded input");
  TensorType out;
  out.dtype = cubeResultDType(ctx, promoteTypes(x.dtype, w.dtype));
  out.shape = nchw ? graph::Shape{n, cout, *oh, *ow} : graph::Shape{n, *oh, *ow, cout};
  ctx.outputs.push_back(out);
  return true;
}

// FusedConv2D(x, w, [scale], [bias], [mean, var, gamma, beta], [residual]): which of the optional
// operands are present follows the `scale`, `bias`, `batch_norm` and `residual` attributes.
bool inferFusedConv2d(InferContext& ctx) {
  if (ctx.node.stringAttr("layout", "NHWC") != "NHWC") return ctx.fail("a fused conv2d is NHWC");
  const bool scale = ctx.node.boolAttr("scale"), bias = ctx.node.boolAttr("bias"),
             norm = ctx.node.boolAttr("batch_norm"), residual = ctx.node.boolAttr("residual");
  if ((scale || bias) && norm) return ctx.fail("a fused conv2d takes a scale and bias or a batch norm, not both");
  const size_t expected = 2 + (scale ? 1 : 0) + (bias ? 1 : 0) + (norm ? 4 : 0) + (residual ? 1 : 0);
  if (ctx.inputs.size() != expected)
    return ctx.fail("a fused conv2d with these attributes takes " + std::to_string(expected) + " operands, found " +
                    std::to_string(ctx.inputs.size()));
  if (!inferConv2d(ctx)) return false;
  const TensorType& y = ctx.outputs.back();
  for (size_t i = 2; i < 2 + (scale ? 1 : 0) + (bias ? 1 : 0); ++i) {
    const TensorType& b = ctx.inputs[i];
    if ((b.dtype != DType::Float32 && b.dtype != y.dtype) || b.rank() != 1 || b.shape[0] != y.shape[3])
      return ctx.fail(std::string("a fused conv2d's ") + (scale && i == 2 ? "scale" : "bias") +
                      " is a float32 vector, or one of its result's type, of its output channels, got " + b.str());
  }
  for (size_t i = 2; i < 6 && norm; ++i) {
    const TensorType& p = ctx.inputs[i];
    if (p.dtype != DType::Float32 || p.rank() != 1 || p.shape[0] != y.shape[3])
      return ctx.fail("a fused conv2d's batch-norm statistics are float32 vectors of its output channels, got " + p.str());
  }
  const TensorType& r = ctx.inputs.back();
  if (residual && (r.shape != y.shape || (r.dtype != DType::Float16 && r.dtype != DType::Float32)))
    return ctx.fail("a fused conv2d's residual is a float16 or float32 array of the result's shape " + y.str() + ", got " +
                    r.str());
  return true;
}

}  // namespace

void registerConvOps(OpRegistry& r) {
  OpEntry e;
  e.name = "Conv2D";
  e.category = OpCategory::Conv;
  e.summary = "2-d convolution (cross-correlation) by img2col on the cube";
  e.inputs = {operand("x", kFloatTypes), operand("w", kFloatTypes)};
  e.outputs = {operand("y", kFloatTypes)};
  e.attrs = {attrWithDefault("strides", std::vector<int64_t>{1, 1}, "vertical and horizontal stride"),
             attrWithDefault("pads", std::vector<int64_t>{0, 0, 0, 0}, "top, bottom, left, right zero padding"),
             attrWithDefault("dilations", std::vector<int64_t>{1, 1}, "vertical and horizontal dilation"),
             attrWithDefault("groups", int64_t{1}, "channel groups (groups = channels: depthwise)"),
             attrWithDefault("layout", std::string("NHWC"), "NHWC (weights KH,KW,C/g,Cout) or NCHW (weights Cout,C/g,KH,KW)"),
             outDTypeAttr()};
  e.infer = inferConv2d;
  r.add(e);
  OpEntry fused = e;
  fused.name = "FusedConv2D";
  fused.summary =
      "NHWC Conv2D whose kernel also applies a scale and bias or a batch norm, a residual add and ReLU to its accumulator";
  fused.inputs = {operand("x", kFloatTypes), operand("w", kFloatTypes), variadicOperand("epilogue", kFloatTypes)};
  fused.attrs.push_back(attrWithDefault("scale", false, "operand 3 is a row every position is multiplied by"));
  fused.attrs.push_back(attrWithDefault("bias", false, "the next operand is a row added to every position"));
  fused.attrs.push_back(attrWithDefault("batch_norm", false, "the next four operands are mean, var, gamma, beta"));
  fused.attrs.push_back(attrWithDefault("epsilon", 1e-5, "the batch norm's epsilon"));
  fused.attrs.push_back(attrWithDefault("residual", false, "the last operand is added"));
  fused.attrs.push_back(attrWithDefault("relu", false, "max(result, 0) last"));
  fused.infer = inferFusedConv2d;
  r.add(fused);
  r.addAlias(functionAlias("nn.conv2d", "Conv2D",
                           {tensorParam("x"), tensorParam("w"),
                            attrParam("stride", ParamKind::IntList, "strides", std::vector<int64_t>{1, 1}),
                            attrParam("padding", ParamKind::IntList, "pads", std::vector<int64_t>{0, 0, 0, 0}),
                            attrParam("dilation", ParamKind::IntList, "dilations", std::vector<int64_t>{1, 1}),
                            attrParam("groups", ParamKind::Int, "groups", int64_t{1}),
                            attrParam("layout", ParamKind::String, "layout", std::string("NHWC"))}));
}

}  // namespace pyasc::registry
