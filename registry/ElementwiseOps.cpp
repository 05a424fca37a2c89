// Elementwise operators: unary math, broadcasting binary arithmetic and comparisons, where, clip, cast.
#include "registry/BuiltinOps.h"
#include "registry/EntryBuilders.h"
#include "registry/Promotion.h"
#include "registry/ShapeInference.h"

namespace pyasc::registry {

namespace {

using graph::TensorType;

// How an operator's result dtype follows from its operands'.
enum class ResultDType { Same, FloatLoop, Bool };

DType resultDType(ResultDType rule, DType promoted) {
  switch (rule) {
    case ResultDType::Same: return promoted;
    case ResultDType::FloatLoop: return floatLoopDType(promoted);
    case ResultDType::Bool: return DType::Bool;
  }
  return promoted;
}

// Broadcasts every input together and promotes their dtypes.
bool broadcastAll(InferContext& ctx, size_t first, TensorType& out) {
  out = ctx.inputs[first];
  out.layout = graph::Layout::ND;
  for (size_t i = first + 1; i < ctx.inputs.size(); ++i) {
    graph::Shape shape;
    if (!broadcastShapes(out.shape, ctx.inputs[i].shape, shape)) {
      std::string shapes;
      for (size_t j = first; j < ctx.inputs.size(); ++j) shapes += " " + numpyShape(ctx.inputs[j].shape);
      return ctx.fail("operands could not be broadcast together with shapes" + shapes);
    }
    out.shape = shape;
    out.dtype = promoteTypes(out.dtype, ctx.inputs[i].dtype);
  }
  return true;
}

InferFn broadcastInfer(ResultDType rule) {
  return [rule](InferContext& ctx) {
    TensorType out;
    if (!broadcastAll(ctx, 0, out)) return false;
    out.dtype = resultDType(rule, out.dtype);
    ctx.outputs.push_back(out);
    return true;
  };
}

struct UnarySpec {
  const char* op;
  const char* summary;
  ResultDType rule;
  DTypeSet dtypes;
  std::vector<const char*> numpyNames;
};

struct BinarySpec {
  const char* op;
  const char* summary;
  ResultDType rule;
  DTypeSet dtypes;
  std::vector<const char*> numpyNames;
  const char* symbol;  // Python operator, or nullptr
};

}  // namespace

void registerElementwiseOps(OpRegistry& r) {
  const std::vector<UnarySpec> unary = {
      {"Neg", "-x", ResultDType::Same, kNumericTypes, {"negative"}},
      {"Abs", "|x|", ResultDType::Same, kNumericTypes | kBoolTypes, {"abs", "absolute"}},
      {"Square", "x * x", ResultDType::Same, kNumericTypes | kBoolTypes, {"square"}},
      {"Sign", "-1, 0 or 1 by the sign of x", ResultDType::Same, kNumericTypes, {"sign"}},
      {"Reciprocal", "1 / x (integer division for integers)", ResultDType::Same, kNumericTypes, {"reciprocal"}},
      {"Exp", "e ** x", ResultDType::FloatLoop, kAllTypes, {"exp"}},
      {"Exp2", "2 ** x", ResultDType::FloatLoop, kAllTypes, {"exp2"}},
      {"Expm1", "e ** x - 1", ResultDType::FloatLoop, kAllTypes, {"expm1"}},
      {"Log", "natural logarithm", ResultDType::FloatLoop, kAllTypes, {"log"}},
      {"Log2", "base-2 logarithm", ResultDType::FloatLoop, kAllTypes, {"log2"}},
      {"Log10", "base-10 logarithm", ResultDType::FloatLoop, kAllTypes, {"log10"}},
      {"Log1p", "log(1 + x)", ResultDType::FloatLoop, kAllTypes, {"log1p"}},
      {"Sqrt", "square root", ResultDType::FloatLoop, kAllTypes, {"sqrt"}},
      {"Sin", "sine", ResultDType::FloatLoop, kAllTypes, {"sin"}},
      {"Cos", "cosine", ResultDType::FloatLoop, kAllTypes, {"cos"}},
      {"Tan", "tangent", ResultDType::FloatLoop, kAllTypes, {"tan"}},
      {"Asin", "inverse sine", ResultDType::FloatLoop, kAllTypes, {"arcsin"}},
      {"Acos", "inverse cosine", ResultDType::FloatLoop, kAllTypes, {"arccos"}},
      {"Atan", "inverse tangent", ResultDType::FloatLoop, kAllTypes, {"arctan"}},
      {"Sinh", "hyperbolic sine", ResultDType::FloatLoop, kAllTypes, {"sinh"}},
      {"Cosh", "hyperbolic cosine", ResultDType::FloatLoop, kAllTypes, {"cosh"}},
      {"Tanh", "hyperbolic tangent", ResultDType::FloatLoop, kAllTypes, {"tanh", "nn.tanh"}},
      {"Asinh", "inverse hyperbolic sine", ResultDType::FloatLoop, kAllTypes, {"arcsinh"}},
      {"Acosh", "inverse hyperbolic cosine", ResultDType::FloatLoop, kAllTypes, {"arccosh"}},
      {"Atanh", "inverse hyperbolic tangent", ResultDType::FloatLoop, kAllTypes, {"arctanh"}},
      {"Floor", "round toward -inf", ResultDType::FloatLoop, kAllTypes, {"floor"}},
      {"Ceil", "round toward +inf", ResultDType::FloatLoop, kAllTypes, {"ceil"}},
      {"Trunc", "round toward 0", ResultDType::FloatLoop, kAllTypes, {"trunc"}},
      {"Rint", "round half to even", ResultDType::FloatLoop, kAllTypes, {"rint", "round", "around"}},
      {"Sigmoid", "1 / (1 + e ** -x)", ResultDType::FloatLoop, kAllTypes, {"nn.sigmoid"}},
      {"Relu", "max(x, 0)", ResultDType::Same, kNumericTypes, {"nn.relu"}},
      {"Gelu", "x * Phi(x), tanh approximation", ResultDType::FloatLoop, kAllTypes, {"nn.gelu"}},
      {"LogicalNot", "not x", ResultDType::Bool, kAllTypes, {"logical_not"}},
      {"Invert", "~x (bitwise not; not x for bools)", ResultDType::Same, kIntTypes | kBoolTypes, {"invert", "bitwise_not"}},
      {"IsNan", "x is NaN", ResultDType::Bool, kAllTypes, {"isnan"}},
      {"IsInf", "x is +-inf", ResultDType::Bool, kAllTypes, {"isinf"}},
      {"IsFinite", "x is neither NaN nor inf", ResultDType::Bool, kAllTypes, {"isfinite"}},
  };
  for (const auto& u : unary) {
    OpEntry e;
    e.name = u.op;
    e.category = OpCategory::Elementwise;
    e.summary = u.summary;
    e.inputs = {operand("x", u.dtypes)};
    e.outputs = {operand("y", u.rule == ResultDType::Bool ? kBoolTypes : kAllTypes)};
    e.infer = broadcastInfer(u.rule);
    r.add(std::move(e));
    for (const char* name : u.numpyNames) {
      const std::string spelled = name;
      r.addAlias(functionAlias(name, u.op, {tensorParam("x")}, {},
                               spelled == "round" || spelled == "around" ? "decimals=0 only" : ""));
    }
  }
  r.addAlias(operatorAlias("-", "Neg", 1));
  {
    NumpyAlias invert = operatorAlias("~", "LogicalNot", 1);  // the frontend takes Invert for integer arrays
    invert.note = "logical not on bools; bitwise not (Invert) on integers";
    r.addAlias(std::move(invert));
  }
  r.addAlias(functionAlias("nn.leaky_relu", "LeakyRelu",
                           {tensorParam("x"), attrParam("alpha", ParamKind::Float, "alpha", 0.01)}));
  {
    OpEntry e;
    e.name = "LeakyRelu";
    e.category = OpCategory::Elementwise;
    e.summary = "x if x > 0 else alpha * x";
    e.inputs = {operand("x", kFloatTypes)};
    e.outputs = {operand("y", kFloatTypes)};
    e.attrs = {attrWithDefault("alpha", 0.01, "slope for negative x")};
    e.infer = broadcastInfer(ResultDType::Same);
    r.add(std::move(e));
  }

  const std::vector<BinarySpec> binary = {
      {"Add", "x1 + x2", ResultDType::Same, kAllTypes, {"add"}, "+"},
      {"Sub", "x1 - x2", ResultDType::Same, kNumericTypes, {"subtract"}, "-"},
      {"Mul", "x1 * x2", ResultDType::Same, kAllTypes, {"multiply"}, "*"},
      {"Div", "x1 / x2 (true division)", ResultDType::FloatLoop, kAllTypes, {"divide", "true_divide"}, "/"},
      {"FloorDiv", "x1 // x2", ResultDType::Same, kNumericTypes, {"floor_divide"}, "//"},
      {"Mod", "x1 % x2 with the sign of x2", ResultDType::Same, kNumericTypes, {"mod", "remainder"}, "%"},
      {"Pow", "x1 ** x2", ResultDType::Same, kNumericTypes, {"power"}, "**"},
      {"Maximum", "elementwise max, NaN-propagating", ResultDType::Same, kAllTypes, {"maximum"}, nullptr},
      {"Minimum", "elementwise min, NaN-propagating", ResultDType::Same, kAllTypes, {"minimum"}, nullptr},
      {"Arctan2", "the angle of the point (x2, x1), in [-pi, pi]", ResultDType::FloatLoop, kAllTypes, {"arctan2"}, nullptr},
      {"Hypot", "sqrt(x1 ** 2 + x2 ** 2), without overflow", ResultDType::FloatLoop, kAllTypes, {"hypot"}, nullptr},
      {"Equal", "x1 == x2", ResultDType::Bool, kAllTypes, {"equal"}, "=="},
      {"NotEqual", "x1 != x2", ResultDType::Bool, kAllTypes, {"not_equal"}, "!="},
      {"Less", "x1 < x2", ResultDType::Bool, kAllTypes, {"less"}, "<"},
      {"LessEqual", "x1 <= x2", ResultDType::Bool, kAllTypes, {"less_equal"}, "<="},
      {"Greater", "x1 > x2", ResultDType::Bool, kAllTypes, {"greater"}, ">"},
      {"GreaterEqual", "x1 >= x2", ResultDType::Bool, kAllTypes, {"greater_equal"}, ">="},
      {"LogicalAnd", "x1 and x2, elementwise", ResultDType::Bool, kAllTypes, {"logical_and"}, nullptr},
      {"LogicalOr", "x1 or x2, elementwise", ResultDType::Bool, kAllTypes, {"logical_or"}, nullptr},
      {"LogicalXor", "x1 xor x2, elementwise", ResultDType::Bool, kAllTypes, {"logical_xor"}, nullptr},
      {"BitwiseAnd", "x1 & x2", ResultDType::Same, kIntTypes | kBoolTypes, {"bitwise_and"}, "&"},
      {"BitwiseOr", "x1 | x2", ResultDType::Same, kIntTypes | kBoolTypes, {"bitwise_or"}, "|"},
      {"BitwiseXor", "x1 ^ x2", ResultDType::Same, kIntTypes | kBoolTypes, {"bitwise_xor"}, "^"},
      {"LeftShift", "x1 << x2 (0 for a count outside 0..bits-1)", ResultDType::Same, kIntTypes, {"left_shift"}, "<<"},
      {"RightShift", "x1 >> x2, arithmetic (0 or -1 for a count outside 0..bits-1)", ResultDType::Same, kIntTypes,
       {"right_shift"}, ">>"},
  };
  for (const auto& b : binary) {
    OpEntry e;
    e.name = b.op;
    e.category = OpCategory::Broadcast;
    e.summary = b.summary;
    e.inputs = {operand("x1", b.dtypes), operand("x2", b.dtypes)};
    e.outputs = {operand("y", b.rule == ResultDType::Bool ? kBoolTypes : kAllTypes)};
    e.infer = broadcastInfer(b.rule);
    r.add(std::move(e));
    for (const char* name : b.numpyNames) {
      r.addAlias(functionAlias(name, b.op, {tensorParam("x1"), tensorParam("x2")}));
    }
    if (b.symbol) r.addAlias(operatorAlias(b.symbol, b.op, 2));
  }

  {
    OpEntry e;
    e.name = "Where";
    e.category = OpCategory::Broadcast;
    e.summary = "x where condition else y";
    e.inputs = {operand("condition", kBoolTypes), operand("x"), operand("y")};
    e.outputs = {operand("out")};
    e.infer = [](InferContext& ctx) {
      TensorType out;
      if (!broadcastAll(ctx, 0, out)) return false;
      out.dtype = promoteTypes(ctx.inputs[1].dtype, ctx.inputs[2].dtype);
      ctx.outputs.push_back(out);
      return true;
    };
    r.add(std::move(e));
    r.addAlias(functionAlias("where", "Where", {tensorParam("condition"), tensorParam("x"), tensorParam("y")}, {},
                             "three-argument form only"));
  }
  {
    OpEntry e;
    e.name = "Clip";
    e.category = OpCategory::Broadcast;
    e.summary = "min(max(x, lo), hi)";
    e.inputs = {operand("x", kNumericTypes), operand("lo", kNumericTypes), operand("hi", kNumericTypes)};
    e.outputs = {operand("out", kNumericTypes)};
    e.infer = broadcastInfer(ResultDType::Same);
    r.add(std::move(e));
    r.addAlias(functionAlias("clip", "Clip", {tensorParam("a"), tensorParam("a_min"), tensorParam("a_max")}));
    r.addAlias(methodAlias("clip", "Clip", {tensorParam("a"), tensorParam("min"), tensorParam("max")}));
  }
  {
    OpEntry e;
    e.name = "Cast";
    e.category = OpCategory::Elementwise;
    e.summary = "convert to another dtype (floats to ints truncate, like astype)";
    e.inputs = {operand("x")};
    e.outputs = {operand("y")};
    e.attrs = {requiredAttr("dtype", graph::AttrKind::String, "NumPy dtype name")};
    e.infer = [](InferContext& ctx) {
      TensorType out = ctx.inputs[0];
      const std::string name = ctx.node.stringAttr("dtype");
      if (!parseDType(name, out.dtype)) return ctx.fail("unknown dtype '" + name + "'");
      ctx.outputs.push_back(out);
      return true;
    };
    r.add(std::move(e));
    r.addAlias(methodAlias("astype", "Cast", {tensorParam("a"), attrParam("dtype", ParamKind::DType, "dtype")}, {},
                           "floats become integers toward zero, saturating at the integer type's bounds, NaN giving 0 "
                           "(out of range, NumPy's result is undefined: the smallest integer on x86)"));
  }
}

}  // namespace pyasc::registry
