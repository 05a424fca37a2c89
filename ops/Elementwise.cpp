// The elementwise family: arithmetic, min/max, comparisons, logic, select, clip, casts and the
// activation functions, each as a te.lang.cce expression.
#include "ops/Elementwise.h"

#include <cmath>
#include <functional>
#include <map>

namespace pyasc::ops {

using te::ExprPtr;
using te::Prim;

bool isVectorDType(DType t) { return t == DType::Float16 || t == DType::Float32 || t == DType::Int32; }

ExprPtr castTo(const ExprPtr& e, DType to) {
  if (e->dtype == to) return e;
  if (e->dtype == DType::Bool) return te::select(e, te::constant(1, to), te::constant(0, to));
  if (to == DType::Bool) return te::compare(te::Cmp::NE, e, te::constant(0, e->dtype));
  if (e->prim == Prim::Const) return te::constant(e->value, to);
  return te::cast(e, to);
}

namespace {

using Builder = std::function<ExprPtr(const graph::Node&, const std::vector<ExprPtr>&, DType)>;
using Reference = std::function<double(const graph::Node&, const std::vector<double>&)>;

struct Lowering {
  Builder build;
  Reference reference;
};

ExprPtr c(double v, DType t) { return te::constant(v, t); }

// The dtype both operands of a comparison meet in.
DType meet(const ExprPtr& a, const ExprPtr& b) {
  if (a->dtype == b->dtype) return a->dtype;
  if (a->prim == Prim::Const) return b->dtype;
  if (b->prim == Prim::Const) return a->dtype;
  if (isFloat(a->dtype) != isFloat(b->dtype)) return isFloat(a->dtype) ? a->dtype : b->dtype;
  return dtypeSize(a->dtype) >= dtypeSize(b->dtype) ? a->dtype : b->dtype;
}

Lowering binary(Prim prim, std::function<double(double, double)> ref) {
  return {[prim](const graph::Node&, const std::vector<ExprPtr>& a, DType t) {
            return te::binary(prim, castTo(a[0], t), castTo(a[1], t));
          },
          [ref](const graph::Node&, const std::vector<double>& v) { return ref(v[0], v[1]); }};
}

Lowering unary(std::function<ExprPtr(ExprPtr, DType)> build, std::function<double(double)> ref) {
  return {[build](const graph::Node&, const std::vector<ExprPtr>& a, DType t) { return build(castTo(a[0], t), t); },
          [ref](const graph::Node&, const std::vector<double>& v) { return ref(v[0]); }};
}

Lowering comparison(te::Cmp cmp, std::function<bool(double, double)> ref) {
  return {[cmp](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
            DType t = meet(a[0], a[1]);
            return te::compare(cmp, castTo(a[0], t), castTo(a[1], t));
          },
          [ref](const graph::Node&, const std::vector<double>& v) { return ref(v[0], v[1]) ? 1.0 : 0.0; }};
}

ExprPtr sigmoid(ExprPtr x, DType t) {
  // 1 / (1 + e^-x)
  return te::unary(Prim::VRec, te::withScalar(Prim::VAdds, te::unary(Prim::VExp, te::withScalar(Prim::VMuls, x, -1)), 1));
}

double sigmoidRef(double x) { return 1.0 / (1.0 + std::exp(-x)); }

ExprPtr tanhExpr(ExprPtr x, DType t) {
  // 2·sigmoid(2x) − 1
  return te::withScalar(Prim::VAdds, te::withScalar(Prim::VMuls, sigmoid(te::withScalar(Prim::VMuls, x, 2), t), 2), -1);
}

const std::map<std::string, Lowering>& table() {
  static const std::map<std::string, Lowering> t = {
      {"Add", binary(Prim::VAdd, [](double a, double b) { return a + b; })},
      {"Sub", binary(Prim::VSub, [](double a, double b) { return a - b; })},
      {"Mul", binary(Prim::VMul, [](double a, double b) { return a * b; })},
      {"Div", binary(Prim::VDiv, [](double a, double b) { return a / b; })},
      {"Maximum", binary(Prim::VMax, [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); })},
      {"Minimum", binary(Prim::VMin, [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b); })},
      {"Pow", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) {
                 ExprPtr x = castTo(a[0], t);
                 if (a[1]->prim == Prim::Const) {
                   double p = a[1]->value;
                   if (p == 1) return x;
                   if (p == 2) return te::binary(Prim::VMul, x, x);
                   if (p == 3) return te::binary(Prim::VMul, te::binary(Prim::VMul, x, x), x);
                   if (p == 0.5) return te::unary(Prim::VSqrt, x);
                   if (p == -1) return te::unary(Prim::VRec, x);
                   if (p == -0.5) return te::unary(Prim::VRsqrt, x);
                 }
                 // x ** y = e ** (y · ln x), for x > 0 as NumPy's float power
                 return te::unary(Prim::VExp, te::binary(Prim::VMul, castTo(a[1], t), te::unary(Prim::VLog, x)));
               },
               [](const graph::Node&, const std::vector<double>& v) { return std::pow(v[0], v[1]); }}},
      {"Neg", unary([](ExprPtr x, DType) { return te::withScalar(Prim::VMuls, x, -1); }, [](double x) { return -x; })},
      {"Abs", unary([](ExprPtr x, DType) { return te::unary(Prim::VAbs, x); }, [](double x) { return std::fabs(x); })},
      {"Square", unary([](ExprPtr x, DType) { return te::binary(Prim::VMul, x, x); }, [](double x) { return x * x; })},
      {"Reciprocal", unary([](ExprPtr x, DType) { return te::unary(Prim::VRec, x); }, [](double x) { return 1 / x; })},
      {"Exp", unary([](ExprPtr x, DType) { return te::unary(Prim::VExp, x); }, [](double x) { return std::exp(x); })},
      {"Log", unary([](ExprPtr x, DType) { return te::unary(Prim::VLog, x); }, [](double x) { return std::log(x); })},
      {"Exp2", unary([](ExprPtr x, DType) { return te::unary(Prim::VExp, te::withScalar(Prim::VMuls, x, M_LN2)); },
                     [](double x) { return std::exp2(x); })},
      {"Log2", unary([](ExprPtr x, DType) { return te::withScalar(Prim::VMuls, te::unary(Prim::VLog, x), 1 / M_LN2); },
                     [](double x) { return std::log2(x); })},
      {"Log10", unary([](ExprPtr x, DType) { return te::withScalar(Prim::VMuls, te::unary(Prim::VLog, x), 1 / M_LN10); },
                      [](double x) { return std::log10(x); })},
      {"Sqrt", unary([](ExprPtr x, DType) { return te::unary(Prim::VSqrt, x); }, [](double x) { return std::sqrt(x); })},
      {"Relu", unary([](ExprPtr x, DType) { return te::unary(Prim::VRelu, x); }, [](double x) { return std::max(x, 0.0); })},
      {"Sigmoid", unary(sigmoid, sigmoidRef)},
      {"Tanh", unary(tanhExpr, [](double x) { return std::tanh(x); })},
      {"Gelu", unary(
                   [](ExprPtr x, DType t) {
                     // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
                     ExprPtr cube = te::binary(Prim::VMul, te::binary(Prim::VMul, x, x), x);
                     ExprPtr inner = te::withScalar(Prim::VMuls, te::binary(Prim::VAdd, x, te::withScalar(Prim::VMuls, cube, 0.044715)),
                                                    std::sqrt(2 / M_PI));
                     return te::binary(Prim::VMul, te::withScalar(Prim::VMuls, x, 0.5),
                                       te::withScalar(Prim::VAdds, tanhExpr(inner, t), 1));
                   },
                   [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); })},
      {"LeakyRelu", {[](const graph::Node& n, const std::vector<ExprPtr>& a, DType t) {
                       return te::withScalar(Prim::VLRelu, castTo(a[0], t), n.floatAttr("alpha", 0.01));
                     },
                     [](const graph::Node& n, const std::vector<double>& v) {
                       return v[0] >= 0 ? v[0] : v[0] * n.floatAttr("alpha", 0.01);
                     }}},
      {"Equal", comparison(te::Cmp::EQ, [](double a, double b) { return a == b; })},
      {"NotEqual", comparison(te::Cmp::NE, [](double a, double b) { return a != b; })},
      {"Less", comparison(te::Cmp::LT, [](double a, double b) { return a < b; })},
      {"LessEqual", comparison(te::Cmp::LE, [](double a, double b) { return a <= b; })},
      {"Greater", comparison(te::Cmp::GT, [](double a, double b) { return a > b; })},
      {"GreaterEqual", comparison(te::Cmp::GE, [](double a, double b) { return a >= b; })},
      {"LogicalNot", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                        return te::compare(te::Cmp::EQ, castTo(a[0], DType::Float16), c(0, DType::Float16));
                      },
                      [](const graph::Node&, const std::vector<double>& v) { return v[0] == 0 ? 1.0 : 0.0; }}},
      {"LogicalAnd", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                        ExprPtr p = te::binary(Prim::VMul, castTo(castTo(a[0], DType::Bool), DType::Float16),
                                               castTo(castTo(a[1], DType::Bool), DType::Float16));
                        return te::compare(te::Cmp::NE, p, c(0, DType::Float16));
                      },
                      [](const graph::Node&, const std::vector<double>& v) { return v[0] != 0 && v[1] != 0 ? 1.0 : 0.0; }}},
      {"LogicalOr", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                       ExprPtr p = te::binary(Prim::VMax, castTo(castTo(a[0], DType::Bool), DType::Float16),
                                              castTo(castTo(a[1], DType::Bool), DType::Float16));
                       return te::compare(te::Cmp::NE, p, c(0, DType::Float16));
                     },
                     [](const graph::Node&, const std::vector<double>& v) { return v[0] != 0 || v[1] != 0 ? 1.0 : 0.0; }}},
      {"BitwiseAnd", {[](const graph::Node& n, const std::vector<ExprPtr>& a, DType t) {
                        return table().at("LogicalAnd").build(n, a, t);
                      },
                      [](const graph::Node&, const std::vector<double>& v) { return v[0] != 0 && v[1] != 0 ? 1.0 : 0.0; }}},
      {"BitwiseOr", {[](const graph::Node& n, const std::vector<ExprPtr>& a, DType t) {
                       return table().at("LogicalOr").build(n, a, t);
                     },
                     [](const graph::Node&, const std::vector<double>& v) { return v[0] != 0 || v[1] != 0 ? 1.0 : 0.0; }}},
      {"Where", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) {
                   return te::select(castTo(a[0], DType::Bool), castTo(a[1], t), castTo(a[2], t));
                 },
                 [](const graph::Node&, const std::vector<double>& v) { return v[0] != 0 ? v[1] : v[2]; }}},
      {"Clip", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) {
                  return te::binary(Prim::VMin, te::binary(Prim::VMax, castTo(a[0], t), castTo(a[1], t)), castTo(a[2], t));
                },
                [](const graph::Node&, const std::vector<double>& v) { return std::min(std::max(v[0], v[1]), v[2]); }}},
      {"Cast", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) { return castTo(a[0], t); },
                [](const graph::Node&, const std::vector<double>& v) { return v[0]; }}},
      {"Identity", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) { return castTo(a[0], t); },
                    [](const graph::Node&, const std::vector<double>& v) { return v[0]; }}},
  };
  return t;
}

}  // namespace

ExprPtr elementwiseExpr(const graph::Node& node, const std::vector<ExprPtr>& args, DType outType, std::string& error) {
  auto it = table().find(node.op);
  if (it == table().end()) {
    error = "operator '" + node.op + "' has no vector lowering yet";
    return nullptr;
  }
  if ((node.op == "BitwiseAnd" || node.op == "BitwiseOr") && outType != DType::Bool) {
    error = "operator '" + node.op + "' on integers has no vector lowering yet (booleans are supported)";
    return nullptr;
  }
  DType computeType = outType == DType::Bool ? DType::Float16 : outType;
  if (!isVectorDType(computeType)) {
    error = std::string("operator '") + node.op + "' on " + dtypeName(outType) +
            " is not supported by the vector unit (float16, float32, int32)";
    return nullptr;
  }
  ExprPtr e = it->second.build(node, args, computeType);
  return castTo(e, outType);
}

bool isElementwiseOp(const std::string& op) { return table().count(op) > 0; }

std::vector<std::string> elementwiseOpNames() {
  std::vector<std::string> names;
  for (const auto& [name, lowering] : table()) names.push_back(name);
  return names;
}

double elementwiseReference(const graph::Node& node, const std::vector<double>& args) {
  return table().at(node.op).reference(node, args);
}

}  // namespace pyasc::ops
