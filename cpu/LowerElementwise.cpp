// CPU lowerings of the elementwise operators: their TE computes, and NumPy's semantics for int64/float64.
#include "cpu/LowerSupport.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "cpu/TeToHalide.h"
#include "ops/Elementwise.h"

namespace pyasc::cpu {

using Halide::Expr;

namespace {

// base ** n by squaring, 0 <= n < 2^63, in uint64, where Halide wraps as NumPy does (and folds the
// squares of a constant base, which it does not for an overflowing signed product).
Expr powerBySquaring(const Expr& signedBase, const Expr& n, const Expr& signedOne) {
  const Halide::Type t = Halide::UInt(64);
  Expr base = Halide::reinterpret(t, signedBase), result = Halide::reinterpret(t, signedOne);
  const Expr bits = Halide::reinterpret(t, n);
  for (int bit = 0; bit < 63; ++bit) {
    result = Halide::select((bits & Expr(uint64_t{1} << bit)) != Expr(uint64_t{0}), result * base, result);
    base = base * base;
  }
  return Halide::reinterpret(signedBase.type(), result);
}

// Integer (int64) and float64 operands, which the vector unit has no lanes for: what the NPU computes
// on its scalar unit or folds into its launches. NumPy's semantics in the widest type of the operands.
Combiner wideElementwise(const graph::Graph& graph, const graph::Node& node, const std::vector<graph::TensorType>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  bool anyFloat = isFloat(outType.dtype);
  for (const graph::TensorType& l : in) anyFloat = anyFloat || isFloat(l.dtype);
  const Halide::Type common = anyFloat ? Halide::Float(64) : Halide::Int(64);
  const std::string& op = node.op;
  static const std::map<std::string, te::Cmp> comparisons = {{"Less", te::Cmp::LT}, {"LessEqual", te::Cmp::LE},
                                                              {"Greater", te::Cmp::GT}, {"GreaterEqual", te::Cmp::GE},
                                                              {"Equal", te::Cmp::EQ}, {"NotEqual", te::Cmp::NE}};
  static const std::set<std::string> known = {"Add", "Sub", "Mul", "Neg", "Abs", "Maximum", "Minimum", "Where",
                                              "LogicalAnd", "LogicalOr", "LogicalNot", "LogicalXor", "FloorDiv", "Mod", "Pow",
                                              "Clip", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift",
                                              "RightShift", "Square", "Sign", "Relu", "Reciprocal", "IsNan", "IsInf",
                                              "IsFinite"};
  if (!comparisons.count(op) && !known.count(op)) {
    fail(node, "the CPU backend computes " + op + " only on float16, float32, int32 and bool operands");
  }
  return [in, op, outType, common, anyFloat](const std::vector<Expr>& values) {
    std::vector<Expr> x;
    for (size_t k = 0; k < values.size(); ++k) {
      x.push_back(in[k].dtype == DType::Bool || op == "Where" ? values[k] : castValue(common, values[k]));
    }
    auto truth = [](const Expr& v) { return v.type().is_bool() ? v : v != castValue(v.type(), 0); };
    auto comparison = comparisons.find(op);
    if (comparison != comparisons.end()) return compareOp(comparison->second, x[0], x[1]);
    if (op == "LogicalAnd") return truth(x[0]) && truth(x[1]);
    if (op == "LogicalOr") return truth(x[0]) || truth(x[1]);
    if (op == "LogicalXor") return truth(x[0]) != truth(x[1]);
    if (op == "LogicalNot") return !truth(x[0]);
    if (op == "Where") {
      const Halide::Type t = halideType(outType.dtype);
      return Halide::select(truth(x[0]), castValue(t, x[1]), castValue(t, x[2]));
    }
    if (op == "Add") return x[0] + x[1];
    if (op == "Sub") return x[0] - x[1];
    if (op == "Mul") return x[0] * x[1];
    if (op == "Neg") return -x[0];
    if (op == "Abs") return Halide::select(x[0] < 0, -x[0], x[0]);
    if (op == "IsNan") return anyFloat ? isNaN(x[0]) : Expr(false);
    if (op == "IsInf") return anyFloat ? isInf(x[0]) : Expr(false);
    if (op == "IsFinite") return anyFloat ? !isNaN(x[0]) && !isInf(x[0]) : Expr(true);
    if (op == "Square") return x[0] * x[0];
    if (op == "Sign") return Halide::select(x[0] > 0, castValue(common, 1), x[0] < 0, castValue(common, -1), castValue(common, 0));
    if (op == "Relu") return Halide::max(x[0], castValue(common, 0));
    if (op == "Reciprocal" && !anyFloat) {  // 1 / x truncated: x itself for -1, 0 and 1, else 0
      return Halide::select(x[0] >= -1 && x[0] <= 1, x[0], castValue(common, 0));
    }
    if (op == "Reciprocal") return castValue(common, 1) / x[0];
    if (op == "Maximum") return Halide::max(x[0], x[1]);
    if (op == "Clip") return Halide::min(Halide::max(x[0], x[1]), x[2]);  // NumPy's minimum(maximum(a, lo), hi)
    if (op == "Minimum") return Halide::min(x[0], x[1]);
    if (anyFloat) {
      if (op == "FloorDiv") return Halide::floor(x[0] / x[1]);
      if (op == "Mod") return x[0] - Halide::floor(x[0] / x[1]) * x[1];
      return Halide::pow(x[0], x[1]);
    }
    if (op == "BitwiseAnd") return x[0] & x[1];
    if (op == "BitwiseOr") return x[0] | x[1];
    if (op == "BitwiseXor") return x[0] ^ x[1];
    if (op == "Invert") return ~x[0];
    // a count outside 0..63 shifts everything out (the narrower result keeps the low bits)
    const Expr inRange = x.size() > 1 ? x[1] >= 0 && x[1] < 64 : Expr(true);
    if (op == "LeftShift") return Halide::select(inRange, x[0] << x[1], castValue(common, 0));
    if (op == "RightShift") return Halide::select(inRange, x[0] >> x[1], x[0] >> 63);
    // floor division: Halide's integer division is Euclidean (a non-negative remainder), one less
    // for a negative divisor that leaves a remainder; a zero divisor gives 0 for both, as NumPy
    const Expr euclidean = x[0] / x[1];
    const Expr quotient = Halide::select(x[1] < 0 && x[0] - euclidean * x[1] != 0, euclidean - 1, euclidean);
    if (op == "FloorDiv") return quotient;
    if (op == "Mod") return Halide::select(x[1] == 0, castValue(common, 0), x[0] - quotient * x[1]);
    const Expr result = powerBySquaring(x[0], x[1], castValue(common, 1));
    // a negative exponent (which NumPy refuses) truncates 1 / x^-n, as the NPU's scalar unit
    const Expr negative = Halide::select(x[0] == 1, castValue(common, 1),
                                         x[0] == -1, Halide::select(x[1] % 2 == 0, castValue(common, 1), castValue(common, -1)),
                                         castValue(common, 0));
    return Halide::select(x[1] < 0, negative, result);
  };
}

// The conversions the vector unit has no lanes for (int64, float64): NumPy's astype.
bool onVectorTypes(const graph::Graph& graph, const graph::Node& node, const std::vector<graph::TensorType>& in) {
  return ops::isVectorDType(graph.type(node.outputs.at(0)).dtype) &&
         std::all_of(in.begin(), in.end(), [](const graph::TensorType& t) { return ops::isVectorDType(t.dtype); });
}

}  // namespace

Combiner elementwiseCombiner(const graph::Graph& graph, const graph::Node& node, const std::vector<graph::TensorType>& in,
                             const std::vector<bool>& inlineConstants) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const bool vectorTypes = onVectorTypes(graph, node, in);
  if (node.op == "Cast" && !vectorTypes) {
    const DType from = in[0].dtype, to = outType.dtype;
    return [from, to](const std::vector<Expr>& x) { return convert(x.at(0), from, to, RoundMode::Trunc); };
  }
  // a one-element constant operand is a TE constant, as in the NPU's elementwise kernels (the scalar
  // of vadds, the exponent of an integer power)
  std::vector<te::ExprPtr> args;
  for (size_t k = 0; k < in.size(); ++k) {
    const graph::GraphConstant* c = graph.findConstant(node.inputs[k]);
    const DType t = in[k].dtype;
    if (k < inlineConstants.size() && inlineConstants[k] && c && graph::elementCount(in[k].shape) == 1 && in[k].rank() <= outType.rank()) {
      args.push_back(te::constant(graph::decodeConstant(t, c->bytes).at(0), t));
    } else {
      args.push_back(te::placeholder(static_cast<int>(k), t));
    }
  }
  std::string error;
  te::ExprPtr e = ops::elementwiseExpr(node, args, outType.dtype, error);
  // integers the vector unit has no lanes or no instructions for: the NPU's scalar unit, in int64
  if (!e && (!vectorTypes || isInteger(outType.dtype))) return wideElementwise(graph, node, in);
  if (!e) fail(node, "the CPU backend cannot compute " + node.op + ": " + error);
  return [e](const std::vector<Expr>& x) { return teToHalide(e, x); };
}

namespace {

Lowered elementwiseOf(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  std::vector<graph::TensorType> types;
  for (const Lowered& l : in) types.push_back(l.type);
  const Combiner value = elementwiseCombiner(graph, node, types, std::vector<bool>(in.size(), true));
  return define(graph.value(node.outputs[0]).name, graph.type(node.outputs[0]), [&](const Index& i) {
    std::vector<Expr> operands;
    for (const Lowered& l : in) operands.push_back(at(l, broadcastIndex(i, l.type)));
    return value(operands);
  });
}

}  // namespace

Lowered lowerElementwise(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  return elementwiseOf(graph, node, in);
}

}  // namespace pyasc::cpu
