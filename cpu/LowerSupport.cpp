// What the CPU backend's operator lowerings share: defining functions by index expressions,
// reductions, broadcasting.
#include "cpu/LowerSupport.h"

#include <algorithm>

#include "cpu/TeToHalide.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::cpu {

using Halide::Expr;

[[noreturn]] void fail(const graph::Node& node, const std::string& message) {
  throw CompileError(node.loc, message);
}

std::vector<int64_t> extents(const graph::TensorType& t) {
  std::vector<int64_t> e;
  for (const auto& d : t.shape) e.push_back(d.extent);
  return e;
}

int32_t extent32(const graph::Node& node, int64_t e) {
  if (e < 0 || e > INT32_MAX) fail(node, "the CPU backend takes extents up to 2^31 - 1, found " + std::to_string(e));
  return static_cast<int32_t>(e);
}

// A function of `type` whose element at index i (NumPy order) is body(i).
Lowered define(const std::string& name, const graph::TensorType& type, const std::function<Expr(const Index&)>& body) {
  Halide::Func f(Halide::Internal::unique_name(name));
  std::vector<Halide::Var> vars;
  for (int k = 0; k < type.rank(); ++k) vars.emplace_back("d" + std::to_string(k));
  Index index(vars.begin(), vars.end());
  std::vector<Halide::Var> halideOrder(vars.rbegin(), vars.rend());
  Expr value = body(index);
  const Halide::Type want = halideType(type.dtype);
  f(halideOrder) = value.type() == want ? value : castValue(want, value);
  return Lowered{f, type};
}

// A function of `type` computed by a reduction: init(i) at every index i (NumPy order), then
// current = update(current, i) once per point of the reduction domain the update reads; the
// element is finish(current). Halide's update definitions cannot be pure, hence the wrapper.
Lowered accumulate(const std::string& name, const graph::TensorType& type, const std::function<Expr(const Index&)>& init,
                   const std::function<Expr(Expr, const Index&)>& update, const std::function<Expr(Expr)>& finish) {
  Halide::Func total(Halide::Internal::unique_name(name + "_total"));
  std::vector<Halide::Var> vars;
  for (int k = 0; k < type.rank(); ++k) vars.emplace_back("d" + std::to_string(k));
  const Index index(vars.begin(), vars.end());
  const std::vector<Expr> halideOrder(index.rbegin(), index.rend());
  total(std::vector<Halide::Var>(vars.rbegin(), vars.rend())) = init(index);
  total(halideOrder) = update(total(halideOrder), index);
  const Lowered t{total, type};
  return define(name, type, [&](const Index& i) { return finish(at(t, i)); });
}

Expr same(Expr e) { return e; }

// The index of an input broadcast (NumPy rules, trailing axes aligned) to an output index.
Index broadcastIndex(const Index& out, const graph::TensorType& in) {
  Index r;
  const size_t offset = out.size() - static_cast<size_t>(in.rank());
  for (int k = 0; k < in.rank(); ++k) r.push_back(in.shape[static_cast<size_t>(k)].extent == 1 ? Expr(0) : out[offset + static_cast<size_t>(k)]);
  return r;
}

Expr clampIndex(const Expr& i, int64_t extent) { return Halide::clamp(i, 0, static_cast<int32_t>(std::max<int64_t>(extent - 1, 0))); }

std::vector<int64_t> normalizedAxes(const graph::Node& node, const std::string& attr, int rank) {
  std::vector<int64_t> axes;
  if (!node.hasAttr(attr)) {
    for (int k = 0; k < rank; ++k) axes.push_back(k);
    return axes;
  }
  const graph::Attribute* a = node.attr(attr);
  if (std::holds_alternative<int64_t>(*a)) axes.push_back(std::get<int64_t>(*a));
  else axes = node.intListAttr(attr);
  for (auto& x : axes) {
    if (x < 0) x += rank;
    if (x < 0 || x >= rank) fail(node, "axis " + std::to_string(x) + " is out of range for rank " + std::to_string(rank));
  }
  return axes;
}

// Sums and products of floats accumulate in float64 (within NumPy's pairwise float32 error whatever
// their order), of integers and booleans in the result's integer type.
Halide::Type accumulatorType(DType in, DType out) {
  if (isFloat(in) || isFloat(out)) return Halide::Float(64);
  return halideType(out == DType::Bool ? DType::Int64 : out);
}

Expr nanMaxOf(Expr acc, Expr x) { return Halide::select(isNaN(acc) || (!isNaN(x) && x <= acc), acc, x); }
Expr nanMinOf(Expr acc, Expr x) { return Halide::select(isNaN(acc) || (!isNaN(x) && x >= acc), acc, x); }

}  // namespace pyasc::cpu
