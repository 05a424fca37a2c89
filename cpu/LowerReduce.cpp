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

// The domain of the reduced axes, the last (innermost) first: Halide's first reduction variable is
// its innermost loop.
Halide::RDom reductionDomain(const graph::Node& node, const ReduceShape& s, const graph::TensorType& in) {
  Halide::Region region;
  for (size_t k = s.axes.size(); k-- > 0;) region.emplace_back(0, extent32(node, in.shape[static_cast<size_t>(s.axes[k])].extent));
  return Halide::RDom(region);
}

// The positions along the reduced axes, in their order.
std::vector<Expr> positions(const Halide::RDom& r, size_t n) {
  std::vector<Expr> p;
  for (size_t k = n; k-- > 0;) p.push_back(r[static_cast<int>(k)]);
  return p;
}

// `name` of `outType`: the reduction `combine(acc, x)` from `init` of `in` over the axes of `s`,
// `finish` applied to the total; an element enters as `prepare(element)` (by default converted to
// the accumulator's type). `combine` is one Halide proves associative (+, *, min, max), so that
// the reduction can be split over vector lanes.
Lowered reduceWith(const std::string& name, const graph::Node& node, const graph::TensorType& outType, const Lowered& in,
                   const ReduceShape& s, Halide::Type acc, Expr init, const std::function<Expr(Expr, Expr)>& combine,
                   const std::function<Expr(Expr)>& finish, std::function<Expr(Expr)> prepare = nullptr) {
  if (!prepare) prepare = [acc](Expr x) { return castValue(acc, x); };
  if (s.axes.empty()) return define(name, outType, [&](const Index& i) { return finish(prepare(at(in, i))); });
  Halide::RDom r = reductionDomain(node, s, in.type);
  const Walk walk = s.reduced.back() ? Walk::AlongInner : Walk::Across;
  return accumulate(name, outType, walk, [&](const Index&) { return castValue(acc, init); },
                    [&](Expr current, const Index& out) {
                      return combine(current, prepare(at(in, inputIndex(s, out, positions(r, s.axes.size())))));
                    },
                    finish);
}

Lowered reduce(const graph::Graph& graph, const graph::Node& node, const Lowered& in, Halide::Type acc, Expr init,
               const std::function<Expr(Expr, Expr)>& combine, const std::function<Expr(Expr)>& finish,
               std::function<Expr(Expr)> prepare = nullptr) {
  return reduceWith(graph.value(node.outputs.at(0)).name, node, graph.type(node.outputs[0]), in,
                    reduceShape(node, in.type, "axes"), acc, init, combine, finish, std::move(prepare));
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
  // any and max of booleans are the maximum of bytes, all and min their minimum
  const bool isMax = op == "ReduceMax" || op == "ReduceAny";
  auto extreme = [isMax](Expr a, Expr x) { return isMax ? Halide::max(a, x) : Halide::min(a, x); };
  if (inT == DType::Bool || op == "ReduceAny" || op == "ReduceAll") {
    const Halide::Type byte = Halide::UInt(8);
    return reduce(graph, node, in, byte, castValue(byte, isMax ? 0 : 1), extreme,
                  [](Expr t) { return castValue(Halide::Bool(), t); }, [byte](Expr x) { return castValue(byte, castValue(Halide::Bool(), x)); });
  }
  if (!isFloat(inT)) {
    const Halide::Type t = halideType(inT);
    return reduce(graph, node, in, t, isMax ? t.min() : t.max(), extreme, same);
  }
  // floats by their ordered keys, NaN beyond the infinity the reduction starts from (NaN wins)
  const Halide::Type t = halideType(inT == DType::Float16 ? DType::Float32 : inT), key = Halide::Int(t.bits());
  return reduce(graph, node, in, key, orderedKey(castValue(t, isMax ? -INFINITY : INFINITY), isMax), extreme,
                [t](Expr k) { return fromOrderedKey(k, t); }, [t, isMax](Expr x) { return orderedKey(castValue(t, x), isMax); });
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
  if (autoscheduler().empty()) mean.func.compute_root();  // once, not per element of the deviations
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
// flattened array without one, by reductions Halide can split over vector lanes (a tuple-valued
// one miscompiles under Halide 14's strict floats): floats compared as ordered keys; the key and
// the position packed into one int64, or for 64-bit keys the extreme and then the least position
// holding it.
Lowered argExtreme(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::string name = graph.value(node.outputs[0]).name;
  const bool isMax = node.op == "ArgMax";
  const ReduceShape s = reduceShape(node, in.type, "axis");
  const std::vector<int64_t> shape = extents(in.type);
  const bool floats = isFloat(in.type.dtype);
  const Halide::Type ft = halideType(in.type.dtype == DType::Float16 ? DType::Float32 : in.type.dtype);
  graph::TensorType keyType = outType;  // floats as their ordered keys, booleans as bytes
  keyType.dtype = floats ? (ft.bits() == 64 ? DType::Int64 : DType::Int32) : in.type.dtype == DType::Bool ? DType::UInt8 : in.type.dtype;
  const Halide::Type kt = halideType(keyType.dtype);
  Halide::RDom r = reductionDomain(node, s, in.type);
  const std::vector<Expr> pos = positions(r, s.axes.size());
  auto key = [&](const Index& out) {
    Expr x = at(in, inputIndex(s, out, pos));
    return floats ? orderedKey(castValue(ft, x), isMax) : castValue(kt, x);
  };
  // the position: along the one axis, or the flat index over all of them
  Expr flat = castValue(Halide::Int(64), 0);
  int64_t count = 1;
  for (size_t k = 0; k < s.axes.size(); ++k) {
    flat = flat * Expr(shape[static_cast<size_t>(s.axes[k])]) + castValue(Halide::Int(64), pos[k]);
    count *= shape[static_cast<size_t>(s.axes[k])];
  }
  const Walk walk = s.reduced.back() ? Walk::AlongInner : Walk::Across;
  // keys of 32 bits or fewer and fewer than 2^32 positions: one reduction of (key, position) packed
  // into an int64 ordered by key, then by the earlier position
  if (kt.bits() <= 32 && count <= (int64_t{1} << 32)) {
    const Halide::Type i64 = Halide::Int(64);
    const Expr low = castValue(i64, Expr(int64_t{0xffffffff}));
    auto pack = [&](const Index& o) {
      Expr position = castValue(i64, flat);
      return castValue(i64, key(o)) * castValue(i64, Expr(int64_t{1} << 32)) + (isMax ? low - position : position);
    };
    return accumulate(name, outType, walk, [&](const Index&) { return isMax ? i64.min() : i64.max(); },
                      [&](Expr best, const Index& o) { return isMax ? Halide::max(best, pack(o)) : Halide::min(best, pack(o)); },
                      [&](Expr best) {
                        Expr position = best & low;
                        return isMax ? low - position : position;
                      });
  }
  const Expr start = floats ? orderedKey(castValue(ft, isMax ? -INFINITY : INFINITY), isMax) : (isMax ? kt.min() : kt.max());
  Lowered extreme = accumulate(name + "_extreme", keyType, walk, [&](const Index&) { return start; },
                               [&](Expr e, const Index& o) { return isMax ? Halide::max(e, key(o)) : Halide::min(e, key(o)); }, same);
  if (autoscheduler().empty()) extreme.func.compute_root();  // once, not per step of the search for its position
  const Expr none = castValue(Halide::Int(64), Expr(count));
  return accumulate(name, outType, walk, [&](const Index&) { return none; },
                    [&](Expr first, const Index& o) { return Halide::min(first, Halide::select(key(o) == at(extreme, o), flat, none)); },
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
