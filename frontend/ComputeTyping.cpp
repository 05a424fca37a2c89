// NumPy-consistent typing of te.compute element expressions (python/te/compute.py applies the same rules).
#include "frontend/ComputeTyping.h"

#include <cmath>
#include <map>

#include "registry/Promotion.h"

namespace pyasc::frontend {

namespace {

using te::ComputeExpr;
using te::Op;

ComputeExpr immediate(double v, DType t) {
  if (isFloat(t)) return te::floatImm(v, t);
  return te::intImm(static_cast<int64_t>(v), t);
}

ComputeExpr as(const ComputeOperand& a, DType t) {
  if (!a.expr) return immediate(a.number, t);
  if (a.expr->dtype == t) return a.expr;
  if (a.expr->op == Op::Int || a.expr->op == Op::Float) {
    return immediate(a.expr->op == Op::Int ? static_cast<double>(a.expr->ival) : a.expr->fval, t);
  }
  return te::node(Op::Cast, t, {a.expr});
}

// The dtype two operands combine in, or Bool with `error` set.
DType common(const std::string& what, const ComputeOperand& a, const ComputeOperand& b, std::string& error) {
  DType t;
  if (a.expr && b.expr) {
    t = registry::promoteTypes(a.expr->dtype, b.expr->dtype);
  } else {
    const ComputeOperand& e = a.expr ? a : b;
    const ComputeOperand& n = a.expr ? b : a;
    t = registry::promoteWithScalar(e.expr->dtype, n.integral ? registry::ScalarKind::Int : registry::ScalarKind::Float);
  }
  if (t == DType::Float64 || t == DType::Int64) {
    auto name = [](const ComputeOperand& o) {
      return o.expr ? std::string(dtypeName(o.expr->dtype)) : std::string(o.integral ? "an int" : "a float");
    };
    error = what + " of " + name(a) + " and " + name(b) + " gives " + dtypeName(t) +
            ", which the NPU does not compute; convert an operand first, e.g. with .astype(\"" +
            (t == DType::Float64 ? "float32" : "int32") + "\")";
  }
  return t;
}

}  // namespace

ComputeExpr computeExpr(const ComputeOperand& a) {
  if (a.expr) return a.expr;
  return immediate(a.number, a.integral ? DType::Int32 : DType::Float32);
}

ComputeExpr computeBinary(const std::string& op, const ComputeOperand& a, const ComputeOperand& b, std::string& error) {
  static const std::map<std::string, Op> ops = {
      {"+", Op::Add}, {"-", Op::Sub}, {"*", Op::Mul},   {"/", Op::Div},  {"//", Op::FloorDiv}, {"%", Op::FloorMod},
      {"<", Op::Lt},  {"<=", Op::Le}, {">", Op::Gt},    {">=", Op::Ge},  {"==", Op::Eq},       {"!=", Op::Ne},
      {"&", Op::And}, {"|", Op::Or}};
  auto it = ops.find(op);
  if (it == ops.end()) {
    error = "operator '" + op + "' is not supported in an element function";
    return nullptr;
  }
  Op o = it->second;
  DType t = common("'" + op + "'", a, b, error);
  if (!error.empty()) return nullptr;
  if (o == Op::And || o == Op::Or) {
    if (t != DType::Bool) {
      error = "'" + op + "' combines conditions (bool), not " + std::string(dtypeName(t));
      return nullptr;
    }
  } else if (t == DType::Bool && !te::isComparison(o)) {
    error = "'" + op + "' of two bools is not supported; convert them with .astype(\"int32\") first";
    return nullptr;
  }
  if (o == Op::Div && !isFloat(t)) {
    error = "'/' of " + std::string(dtypeName(t)) + " values gives float64, which the NPU does not compute; use '//' "
            "for integer division, or convert to a float first";
    return nullptr;
  }
  if ((o == Op::FloorDiv || o == Op::FloorMod) && !isInteger(t)) {
    error = "'" + op + "' needs integers here, not " + std::string(dtypeName(t));
    return nullptr;
  }
  if ((o == Op::FloorDiv || o == Op::FloorMod) && !b.expr && b.number == 0) {
    error = "integer division by zero";
    return nullptr;
  }
  return te::node(o, te::isComparison(o) ? DType::Bool : t, {as(a, t), as(b, t)});
}

ComputeExpr computeMinMax(bool max, const ComputeOperand& a, const ComputeOperand& b, std::string& error) {
  DType t = common(max ? "te.max" : "te.min", a, b, error);
  if (!error.empty()) return nullptr;
  return te::node(max ? Op::Max : Op::Min, t, {as(a, t), as(b, t)});
}

ComputeExpr computeSelect(const ComputeOperand& cond, const ComputeOperand& a, const ComputeOperand& b, std::string& error) {
  if (!cond.expr || cond.expr->dtype != DType::Bool) {
    error = "te.if_then_else: the condition must be a comparison (bool)";
    return nullptr;
  }
  DType t = a.expr || b.expr ? common("te.if_then_else", a, b, error)
                             : (a.integral && b.integral ? DType::Int32 : DType::Float32);
  if (!error.empty()) return nullptr;
  return te::node(Op::Select, t, {cond.expr, as(a, t), as(b, t)});
}

ComputeExpr computeUnary(const std::string& op, const ComputeOperand& a, std::string& error) {
  ComputeExpr e = computeExpr(a);
  if (op == "~") {
    if (e->dtype != DType::Bool) {
      error = "'~' negates a condition (bool), not " + std::string(dtypeName(e->dtype));
      return nullptr;
    }
    return te::node(Op::Not, DType::Bool, {e});
  }
  if (op == "-") {
    if (e->dtype == DType::Bool) {
      error = "'-' of a bool is not supported";
      return nullptr;
    }
    return te::node(Op::Neg, e->dtype, {e});
  }
  if (op == "+") return e;
  error = "operator '" + op + "' is not supported in an element function";
  return nullptr;
}

}  // namespace pyasc::frontend
