// te.compute definitions (the Compute operator of custom operators) as Halide functions.
#include "cpu/ComputeToHalide.h"

#include <algorithm>

#include "cpu/LowerSupport.h"
#include "cpu/TeToHalide.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::cpu {

using Halide::Expr;
using te::Op;

namespace {

const Halide::Type f32 = Halide::Float(32), f64 = Halide::Float(64);

// float16 values are carried as float32 (exact) and each operation rounded once to float16.
Halide::Type carried(DType t) { return t == DType::Float16 ? f32 : halideType(t); }
Expr rounded(const Expr& x, DType t) { return t == DType::Float16 ? castValue(f32, castValue(Halide::Float(16), x)) : x; }

Expr floorDiv(const Expr& a, const Expr& b) {
  if (a.type().is_float()) return Halide::floor(a / b);
  return Halide::select(b < 0, (-a) / (-b), a / b);  // Halide's integer division is Euclidean
}

struct Translator {
  const te::ComputeDef& def;
  std::vector<Lowered> tensors;  // inputs, then attached computes
  std::vector<Expr> vars;        // per IterVar: an output Var or a reduction variable
  std::vector<Halide::RVar> reduceVars;

  Expr operator()(const te::ComputeExpr& e) {
    std::vector<Expr> a;
    if (e->op != Op::Reduce) {
      for (const auto& arg : e->args) a.push_back((*this)(arg));
    }
    const DType t = e->dtype;
    switch (e->op) {
      case Op::Var: return vars.at(static_cast<size_t>(e->var));
      case Op::Int: return castValue(carried(t), Expr(e->ival));
      case Op::Float: return rounded(castValue(carried(t), Expr(e->fval)), t);
      case Op::Add: return rounded(a[0] + a[1], t);
      case Op::Sub: return rounded(a[0] - a[1], t);
      case Op::Mul: return rounded(a[0] * a[1], t);
      case Op::Div: return rounded(a[0] / a[1], t);
      case Op::FloorDiv: return rounded(floorDiv(a[0], a[1]), t);
      case Op::FloorMod: return rounded(a[0] - floorDiv(a[0], a[1]) * a[1], t);
      case Op::Min: return Halide::min(a[0], a[1]);
      case Op::Max: return Halide::max(a[0], a[1]);
      case Op::Neg: return -a[0];
      case Op::Lt: return compareOp(te::Cmp::LT, a[0], a[1]);
      case Op::Le: return compareOp(te::Cmp::LE, a[0], a[1]);
      case Op::Gt: return compareOp(te::Cmp::GT, a[0], a[1]);
      case Op::Ge: return compareOp(te::Cmp::GE, a[0], a[1]);
      case Op::Eq: return compareOp(te::Cmp::EQ, a[0], a[1]);
      case Op::Ne: return compareOp(te::Cmp::NE, a[0], a[1]);
      case Op::And: return a[0] && a[1];
      case Op::Or: return a[0] || a[1];
      case Op::Not: return !a[0];
      case Op::Select: return Halide::select(a[0], a[1], a[2]);
      case Op::Load: {
        const Lowered& tensor = tensors.at(static_cast<size_t>(e->tensor));
        std::vector<Expr> index;
        for (size_t k = 0; k < a.size(); ++k) {
          const int64_t extent = tensor.type.shape.at(k).extent;
          index.push_back(Halide::clamp(castValue(Halide::Int(32), a[k]), 0, static_cast<int32_t>(std::max<int64_t>(extent - 1, 0))));
        }
        Expr v = at(tensor, index);
        return tensor.type.dtype == DType::Float16 ? castValue(f32, v) : v;
      }
      case Op::Cast: {
        const DType from = e->args[0]->dtype;
        Expr x = from == DType::Float16 ? castValue(Halide::Float(16), a[0]) : a[0];
        Expr r = convert(x, from, t, isFloat(from) && !isFloat(t) ? RoundMode::Trunc : RoundMode::Rint);
        return t == DType::Float16 ? castValue(f32, r) : r;
      }
      case Op::Call: {
        const std::string& fn = e->fn;
        if (fn == "abs") return Halide::abs(a[0]);
        if (fn == "relu") return Halide::select(isNaN(a[0]) || a[0] > 0, a[0], castValue(a[0].type(), 0));
        Expr x = castValue(f64, a[0]);
        Expr r = fn == "exp" ? expDouble(x) : fn == "log" ? logDouble(x) : fn == "sqrt" ? Halide::sqrt(x)
                                                                            : Expr(1.0) / Halide::sqrt(x);
        return t == DType::Float16 ? castValue(f32, convert(r, DType::Float64, t, RoundMode::Rint)) : castValue(carried(t), r);
      }
      case Op::Reduce: {
        Halide::Region region;
        for (int axis : e->axes) {
          const te::IterVar& v = def.vars.at(static_cast<size_t>(axis));
          region.emplace_back(static_cast<int32_t>(v.lo), static_cast<int32_t>(v.extent));
        }
        Halide::RDom r(region);
        for (size_t k = 0; k < e->axes.size(); ++k) vars.at(static_cast<size_t>(e->axes[k])) = r[static_cast<int>(k)];
        Expr body = (*this)(e->args.at(0));
        if (e->fn == "sum") {
          Expr total = Halide::sum(castValue(isFloat(t) ? f64 : carried(t), body));
          return rounded(castValue(carried(t), total), t);
        }
        return e->fn == "max" ? Halide::maximum(body) : Halide::minimum(body);
      }
    }
    throw CompileError(SourceLocation{}, "internal error: te.compute operation " + std::string(te::opName(e->op)));
  }
};

// The points a compute's reduction visits per element (1: none).
int64_t reducedPoints(const te::ComputeDef& def) {
  int64_t points = 1;
  for (const te::IterVar& v : def.vars)
    if (v.reduce) points *= std::max<int64_t>(v.extent, 1);
  return points;
}

graph::TensorType typeOf(const te::ComputeInput& in) {
  graph::TensorType t;
  t.dtype = in.dtype;
  t.shape = graph::knownShape(in.shape);
  return t;
}

}  // namespace

Lowered computeToHalide(const std::string& name, const te::ComputeDef& def, const std::vector<Lowered>& inputs,
                        const graph::TensorType& outType) {
  Translator t{def, inputs, {}, {}};
  for (const te::ComputeDef& attached : def.attached) {
    graph::TensorType at = typeOf(te::ComputeInput{attached.dtype(), attached.shape()});
    t.tensors.push_back(computeToHalide(name + "_" + attached.name, attached, inputs, at));
    // a reduction (a softmax's row maxima and sums) is computed once over its extent, rows split
    // over the cores: inlined, every element reading it would reduce again; an elementwise compute
    // stays inlined into its readers
    const bool reduces = std::any_of(attached.vars.begin(), attached.vars.end(), [](const te::IterVar& v) { return v.reduce; });
    if (reduces && autoscheduler().empty()) {
      Halide::Func& f = t.tensors.back().func;
      f.compute_root();
      const std::vector<int64_t> shape = extents(at);
      int64_t elements = 1;
      for (int64_t e : shape) elements *= e;
      if (!shape.empty()) parallelOver(f, f.args().back(), shape.front(), elements / std::max<int64_t>(shape.front(), 1) * reducedPoints(attached));
    }
  }
  Halide::Func f(Halide::Internal::unique_name(name));
  std::vector<Halide::Var> axes;
  for (const te::IterVar& v : def.vars) {
    if (!v.reduce) axes.emplace_back(Halide::Internal::unique_name('v'));
  }
  size_t next = 0;
  for (const te::IterVar& v : def.vars) t.vars.push_back(v.reduce ? Expr(0) : Expr(axes[next++]));
  Expr body = t(def.body);
  if (def.dtype() == DType::Float16) body = castValue(Halide::Float(16), body);
  const Halide::Type want = halideType(outType.dtype);
  std::vector<Halide::Var> halideOrder(axes.rbegin(), axes.rend());
  f(halideOrder) = body.type() == want ? body : castValue(want, body);
  return Lowered{f, outType};
}

}  // namespace pyasc::cpu
