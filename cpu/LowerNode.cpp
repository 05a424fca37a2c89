// Graph operators as Halide functions: one definition per registry operator the CPU backend runs.
#include "cpu/LowerNode.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "cpu/ComputeToHalide.h"
#include "cpu/TeToHalide.h"
#include "ops/Elementwise.h"
#include "registry/PoolWindow.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::cpu {

using Halide::Expr;
using Index = std::vector<Expr>;  // NumPy axis order

namespace {

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

// ---- elementwise ------------------------------------------------------------------------------

// Integer (int64) and float64 operands, which the vector unit has no lanes for: the loop-counter
// arithmetic the NPU folds into its launches. NumPy's semantics in the widest type of the operands.
Lowered wideElementwise(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  bool anyFloat = isFloat(outType.dtype);
  for (const Lowered& l : in) anyFloat = anyFloat || isFloat(l.type.dtype);
  const Halide::Type common = anyFloat ? Halide::Float(64) : Halide::Int(64);
  const std::string& op = node.op;
  static const std::map<std::string, te::Cmp> comparisons = {{"Less", te::Cmp::LT}, {"LessEqual", te::Cmp::LE},
                                                              {"Greater", te::Cmp::GT}, {"GreaterEqual", te::Cmp::GE},
                                                              {"Equal", te::Cmp::EQ}, {"NotEqual", te::Cmp::NE}};
  static const std::set<std::string> known = {"Add", "Sub", "Mul", "Neg", "Abs", "Maximum", "Minimum", "Where",
                                              "LogicalAnd", "LogicalOr", "LogicalNot", "LogicalXor", "FloorDiv", "Mod", "Pow"};
  if (!comparisons.count(op) && !known.count(op)) {
    fail(node, "the CPU backend computes " + op + " only on float16, float32, int32 and bool operands");
  }
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    std::vector<Expr> x;
    for (const Lowered& l : in) {
      Expr v = at(l, broadcastIndex(i, l.type));
      x.push_back(l.type.dtype == DType::Bool || op == "Where" ? v : castValue(common, v));
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
    if (op == "Maximum") return Halide::max(x[0], x[1]);
    if (op == "Minimum") return Halide::min(x[0], x[1]);
    if (anyFloat) {
      if (op == "FloorDiv") return Halide::floor(x[0] / x[1]);
      if (op == "Mod") return x[0] - Halide::floor(x[0] / x[1]) * x[1];
      return Halide::pow(x[0], x[1]);
    }
    // floor division (Halide's integer division is Euclidean: the same for a positive divisor)
    Expr quotient = Halide::select(x[1] < 0, (-x[0]) / (-x[1]), x[0] / x[1]);
    if (op == "FloorDiv") return quotient;
    if (op == "Mod") return x[0] - quotient * x[1];
    Expr result = castValue(common, 1), base = x[0];  // x ** n by squaring, n < 2^63
    for (int bit = 0; bit < 63; ++bit) {
      result = Halide::select(((x[1] >> bit) & 1) == 1, result * base, result);
      base = base * base;
    }
    return result;
  });
}

Lowered elementwise(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::string name = graph.value(node.outputs[0]).name;
  // conversions the vector unit has no lanes for (int64, float64): NumPy's astype
  const bool vectorTypes = ops::isVectorDType(outType.dtype) &&
                           std::all_of(in.begin(), in.end(), [](const Lowered& l) { return ops::isVectorDType(l.type.dtype); });
  if (node.op == "Cast" && !vectorTypes) {
    const DType from = in[0].type.dtype;
    return define(name, outType, [&](const Index& i) {
      return convert(at(in[0], broadcastIndex(i, in[0].type)), from, outType.dtype, RoundMode::Trunc);
    });
  }
  // a one-element constant operand is a TE constant, as in the NPU's elementwise kernels (the scalar
  // of vadds, the exponent of an integer power)
  std::vector<te::ExprPtr> args;
  for (size_t k = 0; k < in.size(); ++k) {
    const graph::GraphConstant* c = graph.findConstant(node.inputs[k]);
    const DType t = in[k].type.dtype;
    if (c && graph::elementCount(in[k].type.shape) == 1 && in[k].type.rank() <= outType.rank()) {
      args.push_back(te::constant(graph::decodeConstant(t, c->bytes).at(0), t));
    } else {
      args.push_back(te::placeholder(static_cast<int>(k), t));
    }
  }
  std::string error;
  te::ExprPtr e = ops::elementwiseExpr(node, args, outType.dtype, error);
  if (!e && !vectorTypes) return wideElementwise(graph, node, in);
  if (!e) fail(node, "the CPU backend cannot compute " + node.op + ": " + error);
  return define(name, outType, [&](const Index& i) {
    std::vector<Expr> placeholders;
    for (const Lowered& l : in) placeholders.push_back(at(l, broadcastIndex(i, l.type)));
    return teToHalide(e, placeholders);
  });
}

// ---- data movement ----------------------------------------------------------------------------

// Same elements, another shape (Reshape, ExpandDims, Squeeze): axes of extent 1 aside, the same
// extents map axis to axis; otherwise through the flat index.
Lowered reshape(const std::string& name, const Lowered& in, const graph::TensorType& outType) {
  const std::vector<int64_t> from = extents(in.type), to = extents(outType);
  std::vector<size_t> fromAxes, toAxes;
  for (size_t k = 0; k < from.size(); ++k) if (from[k] != 1) fromAxes.push_back(k);
  for (size_t k = 0; k < to.size(); ++k) if (to[k] != 1) toAxes.push_back(k);
  bool direct = fromAxes.size() == toAxes.size();
  for (size_t j = 0; direct && j < fromAxes.size(); ++j) direct = from[fromAxes[j]] == to[toAxes[j]];
  return define(name, outType, [&](const Index& i) {
    Index src(from.size(), Expr(0));
    if (direct) {
      for (size_t j = 0; j < fromAxes.size(); ++j) src[fromAxes[j]] = i[toAxes[j]];
      return at(in, src);
    }
    Expr flat = castValue(Halide::Int(64), 0);
    for (size_t k = 0; k < to.size(); ++k) flat = flat * Expr(to[k]) + castValue(Halide::Int(64), i[k]);
    for (size_t k = from.size(); k-- > 0;) {
      src[k] = castValue(Halide::Int(32), flat % Expr(from[k]));
      flat = flat / Expr(from[k]);
    }
    return at(in, src);
  });
}

Lowered slice(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::vector<int64_t> axes = node.intListAttr("axes"), begin = node.intListAttr("begin"),
                             step = node.intListAttr("step"), dynamic = node.intListAttr("dynamic_axes");
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Index src = i;
    for (size_t j = 0; j < axes.size(); ++j) {
      const size_t axis = static_cast<size_t>(axes[j]);
      Expr start = Expr(static_cast<int32_t>(begin[j]));
      auto d = std::find(dynamic.begin(), dynamic.end(), axes[j]);
      if (d != dynamic.end()) start = start + castValue(Halide::Int(32), at(in.at(1 + static_cast<size_t>(d - dynamic.begin())), {}));
      src[axis] = clampIndex(start + i[axis] * static_cast<int32_t>(step[j]), in[0].type.shape[axis].extent);
    }
    return at(in[0], src);
  });
}

Lowered sliceUpdate(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::vector<int64_t> axes = node.intListAttr("axes"), begin = node.intListAttr("begin"),
                             end = node.intListAttr("end"), step = node.intListAttr("step"),
                             dynamic = node.intListAttr("dynamic_axes");
  // the slice's shape: update broadcasts to it
  std::vector<int64_t> sliceExtent = extents(outType);
  for (size_t j = 0; j < axes.size(); ++j) {
    const int64_t s = step[j], b = begin[j], e = end[j];
    sliceExtent[static_cast<size_t>(axes[j])] = s > 0 ? std::max<int64_t>(0, (e - b + s - 1) / s) : std::max<int64_t>(0, (b - e - s - 1) / -s);
  }
  graph::TensorType sliceType = outType;
  sliceType.shape = graph::knownShape(sliceExtent);
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Index u = i;
    Expr inside = castValue(Halide::Bool(), true);
    for (size_t j = 0; j < axes.size(); ++j) {
      const size_t axis = static_cast<size_t>(axes[j]);
      Expr start = Expr(static_cast<int32_t>(begin[j]));
      auto d = std::find(dynamic.begin(), dynamic.end(), axes[j]);
      if (d != dynamic.end()) start = start + castValue(Halide::Int(32), at(in.at(2 + static_cast<size_t>(d - dynamic.begin())), {}));
      const int32_t s = static_cast<int32_t>(step[j]);
      Expr rel = i[axis] - start;
      Expr pos = rel / s;
      inside = inside && rel % s == 0 && pos >= 0 && pos < static_cast<int32_t>(sliceExtent[axis]);
      u[axis] = clampIndex(pos, sliceExtent[axis]);
    }
    return Halide::select(inside, at(in[1], broadcastIndex(u, in[1].type)), at(in[0], i));
  });
}

Lowered concat(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in, bool stack) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  int64_t axis = node.intAttr("axis");
  if (axis < 0) axis += outType.rank();
  const size_t a = static_cast<size_t>(axis);
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    // input k from its offset on: select(i >= offset_k, input k, the inputs before it)
    Expr value;
    int64_t offset = 0;
    for (size_t k = 0; k < in.size(); ++k) {
      Index src = i;
      if (stack) src.erase(src.begin() + static_cast<long>(a));
      else src[a] = clampIndex(i[a] - static_cast<int32_t>(offset), in[k].type.shape[a].extent);
      Expr element = at(in[k], src);
      value = value.defined() ? Halide::select(i[a] >= static_cast<int32_t>(offset), element, value) : element;
      offset += stack ? 1 : in[k].type.shape[a].extent;
    }
    return value;
  });
}

Lowered pad(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::vector<int64_t> pads = node.intListAttr("pads"), shape = extents(in.type);
  const bool edge = node.stringAttr("mode", "constant") == "edge";
  const double value = node.floatAttr("value", 0);
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Index src;
    Expr inside = castValue(Halide::Bool(), true);
    for (size_t k = 0; k < shape.size(); ++k) {
      Expr rel = i[k] - static_cast<int32_t>(pads.at(2 * k));
      inside = inside && rel >= 0 && rel < static_cast<int32_t>(shape[k]);
      src.push_back(clampIndex(rel, shape[k]));
    }
    Expr element = at(in, src);
    if (edge) return element;
    Expr fill = convert(Expr(value), DType::Float64, in.type.dtype, RoundMode::Trunc);
    return Halide::select(inside, element, fill);
  });
}

Lowered gather(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::vector<int64_t> indices = node.intListAttr("indices");
  int64_t axis = node.intAttr("axis");
  if (axis < 0) axis += in.type.rank();
  Halide::Buffer<int32_t> table(std::max<int>(1, static_cast<int>(indices.size())));
  for (size_t j = 0; j < indices.size(); ++j) table(static_cast<int>(j)) = static_cast<int32_t>(indices[j]);
  const size_t a = static_cast<size_t>(axis);
  const int64_t extent = in.type.shape[a].extent;
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Index src = i;
    src[a] = clampIndex(table(clampIndex(i[a], static_cast<int64_t>(indices.size()))), extent);
    return at(in, src);
  });
}

// ---- reductions -------------------------------------------------------------------------------

struct ReduceShape {
  std::vector<int64_t> axes;  // reduced input axes
  std::vector<bool> reduced;  // per input axis
  bool keepdims = false;
};

ReduceShape reduceShape(const graph::Node& node, const graph::TensorType& in, const std::string& axesAttr) {
  ReduceShape r;
  r.axes = normalizedAxes(node, axesAttr, in.rank());
  r.reduced.assign(static_cast<size_t>(in.rank()), false);
  for (int64_t a : r.axes) r.reduced[static_cast<size_t>(a)] = true;
  r.keepdims = node.boolAttr("keepdims", false);
  return r;
}

// The input index of output index `out` and reduction position `rv` (one per reduced axis).
Index inputIndex(const ReduceShape& s, const Index& out, const std::vector<Expr>& rv) {
  Index src;
  size_t o = 0, r = 0;
  for (size_t k = 0; k < s.reduced.size(); ++k) {
    if (s.reduced[k]) {
      src.push_back(rv[r++]);
      if (s.keepdims) ++o;
    } else {
      src.push_back(out[o++]);
    }
  }
  return src;
}

Halide::RDom reductionDomain(const graph::Node& node, const ReduceShape& s, const graph::TensorType& in) {
  Halide::Region region;
  for (int64_t a : s.axes) region.emplace_back(0, extent32(node, in.shape[static_cast<size_t>(a)].extent));
  return Halide::RDom(region);
}

std::vector<Expr> positions(const Halide::RDom& r, size_t n) {
  std::vector<Expr> p;
  for (size_t k = 0; k < n; ++k) p.push_back(r[static_cast<int>(k)]);
  return p;
}

// `name` of `outType`: the reduction `combine(acc, x)` from `init` of `in` over the axes of `s`,
// `finish` applied to the total.
Lowered reduceWith(const std::string& name, const graph::Node& node, const graph::TensorType& outType, const Lowered& in,
                   const ReduceShape& s, Halide::Type acc, Expr init, const std::function<Expr(Expr, Expr)>& combine,
                   const std::function<Expr(Expr)>& finish) {
  if (s.axes.empty()) return define(name, outType, [&](const Index& i) { return finish(castValue(acc, at(in, i))); });
  Halide::RDom r = reductionDomain(node, s, in.type);
  return accumulate(name, outType, [&](const Index&) { return castValue(acc, init); },
                    [&](Expr current, const Index& out) {
                      return combine(current, castValue(acc, at(in, inputIndex(s, out, positions(r, s.axes.size())))));
                    },
                    finish);
}

Lowered reduce(const graph::Graph& graph, const graph::Node& node, const Lowered& in, Halide::Type acc, Expr init,
               const std::function<Expr(Expr, Expr)>& combine, const std::function<Expr(Expr)>& finish) {
  return reduceWith(graph.value(node.outputs.at(0)).name, node, graph.type(node.outputs[0]), in,
                    reduceShape(node, in.type, "axes"), acc, init, combine, finish);
}

int64_t reducedCount(const graph::Node& node, const graph::TensorType& in, const std::string& axesAttr = "axes") {
  int64_t n = 1;
  for (int64_t a : reduceShape(node, in, axesAttr).axes) n *= in.shape[static_cast<size_t>(a)].extent;
  return n;
}

// NaN wins, as NumPy's max and min (comparisons only between numbers: see compareOp)
Expr nanMaxOf(Expr acc, Expr x) { return Halide::select(isNaN(acc) || (!isNaN(x) && x <= acc), acc, x); }
Expr nanMinOf(Expr acc, Expr x) { return Halide::select(isNaN(acc) || (!isNaN(x) && x >= acc), acc, x); }

Lowered reduction(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const DType outT = graph.type(node.outputs.at(0)).dtype, inT = in.type.dtype;
  const Halide::Type acc = accumulatorType(inT, outT);
  const std::string& op = node.op;
  if (op == "ReduceSum") return reduce(graph, node, in, acc, Expr(0), [](Expr a, Expr x) { return a + x; }, same);
  if (op == "ReduceProd") return reduce(graph, node, in, acc, Expr(1), [](Expr a, Expr x) { return a * x; }, same);
  if (op == "ReduceMean") {
    const double n = static_cast<double>(reducedCount(node, in.type));
    return reduce(graph, node, in, acc.is_float() ? acc : Halide::Float(64), Expr(0), [](Expr a, Expr x) { return a + x; },
                  [n](Expr t) { return t / castValue(t.type(), Expr(n)); });
  }
  if (op == "ReduceAny" || op == "ReduceAll") {
    const bool any = op == "ReduceAny";
    return reduce(graph, node, in, Halide::Bool(), castValue(Halide::Bool(), !any),
                  [any](Expr a, Expr x) { return any ? (a || x) : (a && x); }, same);
  }
  const bool isMax = op == "ReduceMax";
  Halide::Type t = isFloat(inT) ? acc : halideType(inT);
  Expr init = isMax ? t.min() : t.max();
  if (t.is_float()) init = castValue(t, isMax ? -INFINITY : INFINITY);
  if (inT == DType::Bool) {
    t = Halide::Bool();
    init = castValue(t, !isMax);
    return reduce(graph, node, in, t, init, [isMax](Expr a, Expr x) { return isMax ? (a || x) : (a && x); }, same);
  }
  if (!t.is_float()) {
    return reduce(graph, node, in, t, init, [isMax](Expr a, Expr x) { return isMax ? Halide::max(a, x) : Halide::min(a, x); }, same);
  }
  return reduce(graph, node, in, t, init, isMax ? nanMaxOf : nanMinOf, same);
}

// Variance and standard deviation: the mean, then the squared deviations over n - ddof.
Lowered varianceOf(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const std::string name = graph.value(node.outputs.at(0)).name;
  const Halide::Type acc = Halide::Float(64);
  const DType accType = DType::Float64;
  const double n = static_cast<double>(reducedCount(node, in.type)), ddof = static_cast<double>(node.intAttr("ddof", 0));
  auto add = [](Expr a, Expr x) { return a + x; };
  const ReduceShape s = reduceShape(node, in.type, "axes");
  ReduceShape kept = s;
  kept.keepdims = true;
  graph::TensorType meanType = in.type, deviationType = in.type;
  meanType.dtype = deviationType.dtype = accType;
  for (int64_t a : s.axes) meanType.shape[static_cast<size_t>(a)] = graph::Dim::known(1);
  const Lowered mean = reduceWith(name + "_mean", node, meanType, in, kept, acc, Expr(0), add,
                                  [n](Expr t) { return t / castValue(t.type(), Expr(n)); });
  const Lowered deviation = define(name + "_dev", deviationType, [&](const Index& i) {
    Expr d = castValue(acc, at(in, i)) - at(mean, broadcastIndex(i, meanType));
    return d * d;
  });
  const bool root = node.op == "ReduceStd";
  return reduceWith(name, node, graph.type(node.outputs[0]), deviation, s, acc, Expr(0), add, [n, ddof, root](Expr t) {
    Expr v = t / castValue(t.type(), Expr(std::max(n - ddof, 0.0)));
    return root ? Halide::sqrt(v) : v;
  });
}

// ArgMax / ArgMin: the first extreme (the first NaN, as NumPy) along the axis, or in the
// flattened array without one.
Lowered argExtreme(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::string name = graph.value(node.outputs[0]).name;
  const bool isMax = node.op == "ArgMax";
  const ReduceShape s = reduceShape(node, in.type, "axis");
  const std::vector<int64_t> shape = extents(in.type);
  graph::TensorType valueType = outType;  // float16 compared as float32, booleans as bytes
  valueType.dtype = in.type.dtype == DType::Float16 ? DType::Float32 : in.type.dtype == DType::Bool ? DType::UInt8 : in.type.dtype;
  const Halide::Type vt = halideType(valueType.dtype);
  Halide::RDom r = reductionDomain(node, s, in.type);
  const std::vector<Expr> pos = positions(r, s.axes.size()), zeros(s.axes.size(), Expr(0));
  auto element = [&](const Index& out, const std::vector<Expr>& at_) { return castValue(vt, at(in, inputIndex(s, out, at_))); };
  // the position: along the one axis, or the flat index over all of them
  Expr flat = castValue(Halide::Int(64), 0);
  int64_t count = 1;
  for (size_t k = 0; k < s.axes.size(); ++k) {
    flat = flat * Expr(shape[static_cast<size_t>(s.axes[k])]) + castValue(Halide::Int(64), pos[k]);
    count *= shape[static_cast<size_t>(s.axes[k])];
  }
  // two reductions (a tuple-valued one miscompiles under Halide 14's strict floats): the extreme,
  // then the first position holding it
  const Lowered extreme = accumulate(name + "_extreme", valueType, [&](const Index& o) { return element(o, zeros); },
                                     [&](Expr e, const Index& o) {
                                       Expr x = element(o, pos);
                                       Expr better = isMax ? x > e : x < e;
                                       if (vt.is_float()) better = !isNaN(e) && (isNaN(x) || compareOp(isMax ? te::Cmp::GT : te::Cmp::LT, x, e));
                                       return Halide::select(better, x, e);
                                     },
                                     same);
  return accumulate(name, outType, [&](const Index&) { return castValue(Halide::Int(64), Expr(count)); },
                    [&](Expr first, const Index& o) {
                      Expr x = element(o, pos), e = at(extreme, o);
                      Expr holds = vt.is_float() ? compareOp(te::Cmp::EQ, x, e) || (isNaN(x) && isNaN(e)) : x == e;
                      return Halide::select(first == Expr(count) && holds, flat, first);
                    },
                    same);
}

// ---- contractions -----------------------------------------------------------------------------

// out(labels of the output) = sum over the other labels of the product of the operands.
Lowered contraction(const std::string& name, const graph::Node& node, const graph::TensorType& outType,
                    const std::vector<Lowered>& in, const std::vector<std::string>& terms, const std::string& outLabels) {
  std::map<char, int64_t> extent;
  for (size_t k = 0; k < in.size(); ++k)
    for (size_t d = 0; d < terms[k].size(); ++d) extent[terms[k][d]] = in[k].type.shape[d].extent;
  std::string summed;
  for (const auto& [label, e] : extent) if (outLabels.find(label) == std::string::npos) summed += label;
  const Halide::Type acc = accumulatorType(in[0].type.dtype, outType.dtype);
  auto product = [&](const std::map<char, Expr>& index) {
    Expr p;
    for (size_t k = 0; k < in.size(); ++k) {
      Index src;
      for (char label : terms[k]) src.push_back(index.at(label));
      Expr x = castValue(acc, at(in[k], src));
      p = p.defined() ? p * x : x;
    }
    return p;
  };
  auto labelled = [&](const Index& out) {
    std::map<char, Expr> index;
    for (size_t k = 0; k < outLabels.size(); ++k) index[outLabels[k]] = out[k];
    return index;
  };
  if (summed.empty()) return define(name, outType, [&](const Index& out) { return product(labelled(out)); });
  Halide::Region region;
  for (char label : summed) region.emplace_back(0, extent32(node, extent[label]));
  Halide::RDom r(region);
  return accumulate(name, outType, [&](const Index&) { return castValue(acc, 0); },
                    [&](Expr total, const Index& out) {
                      std::map<char, Expr> index = labelled(out);
                      for (size_t k = 0; k < summed.size(); ++k) index[summed[k]] = r[static_cast<int>(k)];
                      return total + product(index);
                    },
                    same);
}

Lowered matmul(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const int ra = in[0].type.rank(), rb = in[1].type.rank();
  // labels: batch axes a.., then i (rows of a), k (contracted), j (columns of b)
  const std::string batch = "abcdefgh";
  const int batchRank = outType.rank() - (ra > 1 ? 1 : 0) - (rb > 1 ? 1 : 0);
  if (batchRank > static_cast<int>(batch.size())) fail(node, "the CPU backend takes matmuls of up to 8 batch axes");
  std::string ta, tb, to = batch.substr(0, static_cast<size_t>(batchRank));
  ta = ra > 1 ? batch.substr(static_cast<size_t>(batchRank - (ra - 2)), static_cast<size_t>(ra - 2)) + "ik" : "k";
  tb = rb > 1 ? batch.substr(static_cast<size_t>(batchRank - (rb - 2)), static_cast<size_t>(rb - 2)) + "kj" : "k";
  if (ra > 1) to += "i";
  if (rb > 1) to += "j";
  // an operand whose batch axes broadcast (extent 1 against the result's) is read through a view
  // with the result's batch extents
  std::vector<Lowered> views = in;
  for (size_t side = 0; side < 2; ++side) {
    const std::string& term = side == 0 ? ta : tb;
    const Lowered& source = in[side];
    const size_t batchAxes = term.size() > 2 ? term.size() - 2 : 0;
    graph::TensorType viewType = source.type;
    for (size_t d = 0; d < batchAxes; ++d) viewType.shape[d] = outType.shape[batch.find(term[d])];
    if (viewType == source.type) continue;
    views[side] = define(graph.value(node.outputs[0]).name + (side ? "_b" : "_a"), viewType,
                         [&](const Index& i) { return at(source, broadcastIndex(i, source.type)); });
  }
  return contraction(graph.value(node.outputs[0]).name, node, outType, views, {ta, tb}, to);
}

Lowered einsum(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  std::string equation;
  for (char c : node.stringAttr("equation")) if (c != ' ') equation += c;
  const size_t arrow = equation.find("->");
  std::vector<std::string> terms(1);
  for (char c : equation.substr(0, arrow)) {
    if (c == ',') terms.emplace_back();
    else terms.back() += c;
  }
  std::string out;
  if (arrow != std::string::npos) {
    out = equation.substr(arrow + 2);
  } else {  // NumPy's implicit output: the labels used once, in alphabetical order
    std::map<char, int> uses;
    for (const auto& t : terms) for (char c : t) ++uses[c];
    for (const auto& [label, n] : uses) if (n == 1) out += label;
  }
  return contraction(graph.value(node.outputs[0]).name, node, graph.type(node.outputs[0]), in, terms, out);
}

Lowered tensordot(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  std::vector<int64_t> axesA = node.intListAttr("axes_a"), axesB = node.intListAttr("axes_b");
  const int ra = in[0].type.rank(), rb = in[1].type.rank();
  std::string ta(static_cast<size_t>(ra), ' '), tb(static_cast<size_t>(rb), ' '), out;
  char next = 'a';
  for (size_t k = 0; k < axesA.size(); ++k) {
    const int64_t a = axesA[k] < 0 ? axesA[k] + ra : axesA[k], b = axesB[k] < 0 ? axesB[k] + rb : axesB[k];
    ta[static_cast<size_t>(a)] = tb[static_cast<size_t>(b)] = next++;
  }
  for (char& c : ta) if (c == ' ') out += (c = next++);
  for (char& c : tb) if (c == ' ') out += (c = next++);
  return contraction(graph.value(node.outputs[0]).name, node, graph.type(node.outputs[0]), in, {ta, tb}, out);
}

// ---- normalisations ---------------------------------------------------------------------------

// Softmax, LogSoftmax and LayerNorm along one axis, in float32 (float64 for float64 input).
Lowered alongAxis(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::string name = graph.value(node.outputs[0]).name;
  const Halide::Type acc = in[0].type.dtype == DType::Float64 ? Halide::Float(64) : Halide::Float(32);
  int64_t axis = node.intAttr("axis", -1);
  if (axis < 0) axis += in[0].type.rank();
  const size_t a = static_cast<size_t>(axis);
  const int32_t n = extent32(node, in[0].type.shape[a].extent);
  Halide::RDom r(0, n);
  auto along = [&](const Index& i, Expr k) {
    Index src = i;
    src[a] = k;
    return castValue(acc, at(in[0], src));
  };
  graph::TensorType rowType = in[0].type;
  rowType.shape[a] = graph::Dim::known(1);
  auto rowFunc = [&](const std::string& suffix, const std::function<Expr(const Index&)>& body) {
    graph::TensorType t = rowType;
    t.dtype = acc.bits() == 64 ? DType::Float64 : DType::Float32;
    return define(name + suffix, t, body);
  };
  if (node.op == "LayerNorm") {
    const double eps = node.floatAttr("epsilon", 1e-5);
    Lowered mean = rowFunc("_mean", [&](const Index& i) { return Halide::sum(along(i, r.x)) / n; });
    Lowered var = rowFunc("_var", [&](const Index& i) {
      Expr d = along(i, r.x) - at(mean, i);
      return Halide::sum(d * d) / n;
    });
    return define(name, outType, [&](const Index& i) {
      Index row = i;
      row[a] = 0;
      Expr y = (castValue(acc, at(in[0], i)) - at(mean, row)) / Halide::sqrt(at(var, row) + castValue(acc, Expr(eps)));
      return y * castValue(acc, at(in[1], broadcastIndex(i, in[1].type))) + castValue(acc, at(in[2], broadcastIndex(i, in[2].type)));
    });
  }
  Lowered top = rowFunc("_max", [&](const Index& i) { return Halide::maximum(along(i, r.x)); });
  Lowered total = rowFunc("_sum", [&](const Index& i) {
    return Halide::sum(castValue(acc, expDouble(castValue(Halide::Float(64), along(i, r.x) - at(top, i)))));
  });
  const bool log = node.op == "LogSoftmax";
  return define(name, outType, [&](const Index& i) {
    Index row = i;
    row[a] = 0;
    Expr shifted = castValue(acc, at(in[0], i)) - at(top, row);
    auto f64 = [](const Expr& v) { return castValue(Halide::Float(64), v); };
    return log ? castValue(acc, f64(shifted) - logDouble(f64(at(total, row))))
               : castValue(acc, expDouble(f64(shifted)) / f64(at(total, row)));
  });
}

Lowered batchNorm(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const Halide::Type acc = in[0].type.dtype == DType::Float64 ? Halide::Float(64) : Halide::Float(32);
  int64_t axis = node.intAttr("axis", 1);
  if (axis < 0) axis += in[0].type.rank();
  const double eps = node.floatAttr("epsilon", 1e-5);
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    auto channel = [&](size_t k) { return castValue(acc, at(in[k], {i[static_cast<size_t>(axis)]})); };
    Expr x = castValue(acc, at(in[0], i));
    return (x - channel(1)) / Halide::sqrt(channel(2) + castValue(acc, Expr(eps))) * channel(3) + channel(4);
  });
}

// ---- windows -----------------------------------------------------------------------------------

// Conv2D: y[n, oh, ow, co] = sum over kh, kw and the group's input channels of
// x[n, oh*sh - pt + kh*dh, ow*sw - pl + kw*dw, c] * w[kh, kw, c, co] (NHWC; NCHW alike), zero padding.
Lowered conv2d(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const bool nchw = node.stringAttr("layout", "NHWC") == "NCHW";
  const std::vector<int64_t> strides = node.intListAttr("strides").empty() ? std::vector<int64_t>{1, 1} : node.intListAttr("strides");
  const std::vector<int64_t> pads = node.intListAttr("pads").empty() ? std::vector<int64_t>{0, 0, 0, 0} : node.intListAttr("pads");
  const std::vector<int64_t> dil = node.intListAttr("dilations").empty() ? std::vector<int64_t>{1, 1} : node.intListAttr("dilations");
  const int64_t groups = node.intAttr("groups", 1);
  const std::vector<int64_t> x = extents(in[0].type), w = extents(in[1].type);
  const int64_t h = nchw ? x[2] : x[1], wd = nchw ? x[3] : x[2];
  const int64_t kh = nchw ? w[2] : w[0], kw = nchw ? w[3] : w[1], cg = nchw ? w[1] : w[2], cout = nchw ? w[0] : w[3];
  const int64_t outPerGroup = cout / std::max<int64_t>(groups, 1);
  const Halide::Type acc = accumulatorType(in[0].type.dtype, outType.dtype);
  Halide::RDom r(0, extent32(node, kh), 0, extent32(node, kw), 0, extent32(node, cg));
  return accumulate(graph.value(node.outputs[0]).name, outType, [&](const Index&) { return castValue(acc, 0); },
                    [&](Expr total, const Index& o) {
                      const Expr n = o[0], oy = nchw ? o[2] : o[1], ox = nchw ? o[3] : o[2], co = nchw ? o[1] : o[3];
                      Expr iy = oy * static_cast<int32_t>(strides[0]) - static_cast<int32_t>(pads[0]) + r.x * static_cast<int32_t>(dil[0]);
                      Expr ix = ox * static_cast<int32_t>(strides[1]) - static_cast<int32_t>(pads[2]) + r.y * static_cast<int32_t>(dil[1]);
                      Expr c = (co / static_cast<int32_t>(outPerGroup)) * static_cast<int32_t>(cg) + r.z;
                      Expr inside = iy >= 0 && iy < static_cast<int32_t>(h) && ix >= 0 && ix < static_cast<int32_t>(wd);
                      Expr cy = clampIndex(iy, h), cx = clampIndex(ix, wd);
                      Expr xv = at(in[0], nchw ? Index{n, c, cy, cx} : Index{n, cy, cx, c});
                      Expr wv = at(in[1], nchw ? Index{co, r.z, r.x, r.y} : Index{r.x, r.y, r.z, co});
                      return total + Halide::select(inside, castValue(acc, xv) * castValue(acc, wv), castValue(acc, 0));
                    },
                    same);
}

// MaxPool2D and AvgPool2D: padded positions never win a maximum and count as zeros in an average
// over the whole window (pyasc.nn's definition).
Lowered pool2d(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  registry::PoolWindow win;
  std::string error;
  if (!registry::poolWindow(node, win, error)) fail(node, error);
  const std::vector<int64_t> x = extents(in.type);
  const int64_t h = win.nchw ? x[2] : x[1], wd = win.nchw ? x[3] : x[2];
  const bool isMax = node.op == "MaxPool2D";
  const Halide::Type acc = isMax ? (in.type.dtype == DType::Float16 ? Halide::Float(32) : halideType(in.type.dtype)) : Halide::Float(64);
  Halide::RDom r(0, extent32(node, win.kh), 0, extent32(node, win.kw));
  const double count = static_cast<double>(win.kh * win.kw);
  return accumulate(graph.value(node.outputs[0]).name, outType,
                    [&](const Index&) { return castValue(acc, Expr(isMax ? -INFINITY : 0.0)); },
                    [&](Expr total, const Index& o) {
                      const Expr n = o[0], c = win.nchw ? o[1] : o[3], oy = win.nchw ? o[2] : o[1], ox = win.nchw ? o[3] : o[2];
                      Expr iy = oy * static_cast<int32_t>(win.strideH) - static_cast<int32_t>(win.padTop) + r.x;
                      Expr ix = ox * static_cast<int32_t>(win.strideW) - static_cast<int32_t>(win.padLeft) + r.y;
                      Expr inside = iy >= 0 && iy < static_cast<int32_t>(h) && ix >= 0 && ix < static_cast<int32_t>(wd);
                      Expr v = castValue(acc, at(in, win.nchw ? Index{n, c, clampIndex(iy, h), clampIndex(ix, wd)}
                                                             : Index{n, clampIndex(iy, h), clampIndex(ix, wd), c}));
                      return Halide::select(inside, isMax ? nanMaxOf(total, v) : total + v, total);
                    },
                    [&](Expr total) { return isMax ? total : total / Expr(count); });
}

// ---- creation ---------------------------------------------------------------------------------

Lowered fill(const graph::Graph& graph, const graph::Node& node) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const double value = node.floatAttr("value");
  return define(graph.value(node.outputs[0]).name, outType,
                [&](const Index&) { return convert(Expr(value), DType::Float64, outType.dtype, RoundMode::Trunc); });
}

Lowered range(const graph::Graph& graph, const graph::Node& node) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const double start = node.floatAttr("start"), step = node.floatAttr("step");
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Expr v = Expr(start) + castValue(Halide::Float(64), i[0]) * Expr(step);
    return convert(v, DType::Float64, outType.dtype, RoundMode::Rint);
  });
}

using Lowering = std::function<Lowered(const graph::Graph&, const graph::Node&, const std::vector<Lowered>&)>;

const std::map<std::string, Lowering>& table() {
  static const std::map<std::string, Lowering> t = [] {
    std::map<std::string, Lowering> m;
    auto shapeOnly = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) {
      return reshape(g.value(n.outputs.at(0)).name, in.at(0), g.type(n.outputs[0]));
    };
    for (const char* op : {"Reshape", "ExpandDims", "Squeeze"}) m[op] = shapeOnly;
    m["Transpose"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) {
      std::vector<int64_t> perm = n.intListAttr("perm");
      if (perm.empty()) for (int k = in[0].type.rank(); k-- > 0;) perm.push_back(k);
      return define(g.value(n.outputs.at(0)).name, g.type(n.outputs[0]), [&](const Index& i) {
        Index src(i.size());
        for (size_t k = 0; k < perm.size(); ++k) src[static_cast<size_t>(perm[k])] = i[k];
        return at(in[0], src);
      });
    };
    m["BroadcastTo"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) {
      return define(g.value(n.outputs.at(0)).name, g.type(n.outputs[0]), [&](const Index& i) { return at(in[0], broadcastIndex(i, in[0].type)); });
    };
    m["Slice"] = slice;
    m["SliceUpdate"] = sliceUpdate;
    m["Concat"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return concat(g, n, in, false); };
    m["Stack"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return concat(g, n, in, true); };
    m["Pad"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return pad(g, n, in.at(0)); };
    m["Gather"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return gather(g, n, in.at(0)); };
    for (const char* op : {"ReduceSum", "ReduceProd", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceAny", "ReduceAll"}) {
      m[op] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return reduction(g, n, in.at(0)); };
    }
    for (const char* op : {"ReduceVar", "ReduceStd"}) {
      m[op] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return varianceOf(g, n, in.at(0)); };
    }
    for (const char* op : {"ArgMax", "ArgMin"}) {
      m[op] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return argExtreme(g, n, in.at(0)); };
    }
    m["MatMul"] = matmul;
    m["Einsum"] = einsum;
    m["TensorDot"] = tensordot;
    for (const char* op : {"Softmax", "LogSoftmax", "LayerNorm"}) m[op] = alongAxis;
    m["BatchNorm"] = batchNorm;
    m["Conv2D"] = conv2d;
    m["Compute"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) {
      te::ComputeDef def;
      try {
        def = te::parseComputeDef(n.stringAttr("compute"));
      } catch (const std::invalid_argument& e) {
        fail(n, std::string("te.compute definition: ") + e.what());
      }
      const std::string problem = te::verifyComputeDef(def);
      if (!problem.empty()) fail(n, "te.compute definition: " + problem);
      return computeToHalide(g.value(n.outputs.at(0)).name, def, in, g.type(n.outputs[0]));
    };
    for (const char* op : {"MaxPool2D", "AvgPool2D"}) {
      m[op] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return pool2d(g, n, in.at(0)); };
    }
    m["Fill"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>&) { return fill(g, n); };
    m["Range"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>&) { return range(g, n); };
    return m;
  }();
  return t;
}

}  // namespace

Expr at(const Lowered& v, const std::vector<Expr>& index) {
  std::vector<Expr> halideOrder(index.rbegin(), index.rend());
  return v.func(halideOrder);
}

bool lowersOnCpu(const std::string& op) { return ops::isElementwiseOp(op) || table().count(op) > 0; }

std::vector<Lowered> lowerNode(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& inputs) {
  for (graph::ValueId out : node.outputs) {
    if (!graph::isStaticShape(graph.type(out).shape)) {
      fail(node, "the CPU backend needs static shapes; '" + graph.value(out).name + "' is " + graph.type(out).str());
    }
  }
  if (node.outputs.size() != 1) fail(node, "the CPU backend does not lower " + node.op + " (" + std::to_string(node.outputs.size()) + " results) yet");
  auto lowering = table().find(node.op);
  if (lowering != table().end()) return {lowering->second(graph, node, inputs)};
  if (ops::isElementwiseOp(node.op)) return {elementwise(graph, node, inputs)};
  fail(node, "the CPU backend does not lower " + node.op + " yet (docs/cpu-backend.md lists what it runs)");
}

}  // namespace pyasc::cpu
