// CPU lowerings of the reductions: sum, prod, mean, max, min, any, all, var, std, argmax, argmin.
#include "cpu/LowerSupport.h"

#include <cmath>

#include "cpu/TeToHalide.h"

namespace pyasc::cpu {

using Halide::Expr;

namespace {

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
  Lowered mean = reduceWith(name + "_mean", node, meanType, in, kept, acc, Expr(0), add,
                                  [n](Expr t) { return t / castValue(t.type(), Expr(n)); });
  mean.func.compute_root();  // once, not per element of the deviations
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
  Lowered extreme = accumulate(name + "_extreme", valueType, [&](const Index& o) { return element(o, zeros); },
                                     [&](Expr e, const Index& o) {
                                       Expr x = element(o, pos);
                                       Expr better = isMax ? x > e : x < e;
                                       if (vt.is_float()) better = !isNaN(e) && (isNaN(x) || compareOp(isMax ? te::Cmp::GT : te::Cmp::LT, x, e));
                                       return Halide::select(better, x, e);
                                     },
                                     same);
  extreme.func.compute_root();  // once, not per step of the search for its position
  return accumulate(name, outType, [&](const Index&) { return castValue(Halide::Int(64), Expr(count)); },
                    [&](Expr first, const Index& o) {
                      Expr x = element(o, pos), e = at(extreme, o);
                      Expr holds = vt.is_float() ? compareOp(te::Cmp::EQ, x, e) || (isNaN(x) && isNaN(e)) : x == e;
                      return Halide::select(first == Expr(count) && holds, flat, first);
                    },
                    same);
}

}  // namespace

void addReduceLowerings(LoweringTable& m) {
  for (const char* op : {"ReduceSum", "ReduceProd", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceAny", "ReduceAll"}) {
    m[op] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return reduction(g, n, in.at(0)); };
  }
  for (const char* op : {"ReduceVar", "ReduceStd"}) {
    m[op] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return varianceOf(g, n, in.at(0)); };
  }
  for (const char* op : {"ArgMax", "ArgMin"}) {
    m[op] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return argExtreme(g, n, in.at(0)); };
  }
}

}  // namespace pyasc::cpu
