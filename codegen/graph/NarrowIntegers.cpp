// Stage narrow-integers. Interval analysis over the integer values: argmin/argmax indices lie in
// [0, extent), np.arange between its ends, a fill and a constant between their extremes, a boolean in
// [0, 1], an int32 value without a narrower interval in int32's range; sums, differences, products,
// negations, absolute values, maxima, minima, selections, clips, floor divisions by positive
// divisors, remainders, shape operations, casts and reductions (max, min, sums) combine their
// operands' intervals. An int64 value whose interval fits int32 becomes int32 when every use takes
// it as well (an elementwise operator, a shape operation or a max/min reduction, whose int64 result
// narrows too, or a sum: int32 terms give NumPy's int64 sum) and it is not computed from an int64
// value that stays int64. Loop bodies narrow as the top level does; a loop's carried integer or
// float value is bounded by the hull of its initial value and its yields, trip by trip until the hull
// holds (at most 8 trips; then a counter x = x + d, d not growing, gets d times the trip count, and
// the others 8 trips more), and an int64 one narrows with its initial value, block argument, yield and result together;
// any other operator keeps int64. A graph output stays int64
// (NumPy's dtype, and what the runtime returns): one computed from bounded values is computed in
// int32 and cast to int64 (a sign-extending copy). Producers follow: np.arange, fills, casts, argmin/argmax
// and sums take dtype int32 (their `dtype` attribute), constants are stored as int32. Float values
// get intervals as well (uniform random inputs, constants, arithmetic, division by a divisor of one
// sign), so that a cast of a bounded
// float to int64 (np.floor(np.random.rand(n) * k).astype(int)) narrows too. An integer matrix
// product (the cube unit has no integer product) whose every partial sum is an integer below 2^24 in
// magnitude, by its operands' intervals and contracted extent, is computed exactly in float32
// between casts (`A.astype(int) @ A.astype(int)` of a boolean adjacency matrix).
#include "codegen/graph/NarrowIntegers.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "ops/Elementwise.h"

namespace pyasc::codegen {

namespace {

struct Interval {
  double lo, hi;
};

bool fitsInt32(const Interval& r) {
  return r.lo >= std::numeric_limits<int32_t>::min() && r.hi <= std::numeric_limits<int32_t>::max();
}

Interval hull(const Interval& a, const Interval& b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

Interval ofProducts(const Interval& a, const Interval& b) {
  const double p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {*std::min_element(std::begin(p), std::end(p)), *std::max_element(std::begin(p), std::end(p))};
}

// Operators that move or repeat elements without changing them (the first input's interval).
bool movesElements(const std::string& op) {
  static const std::set<std::string> ops = {"ExpandDims", "Reshape", "Squeeze", "Transpose", "BroadcastTo",
                                            "Identity",   "Slice",   "SliceUpdate", "Concat",  "Stack"};
  return ops.count(op) > 0;
}

// Operators computing int32 results from int32 operands (their int64 results narrow with them).
bool narrowsWithItsInputs(const std::string& op) {
  return ops::isElementwiseOp(op) || movesElements(op) || op == "ReduceMax" || op == "ReduceMin" || op == "MatMul";
}

// Integers up to this magnitude are exact in float32, and so are sums of them that stay below it.
constexpr double kExactInFloat32 = 16777216;

class Narrower {
 public:
  explicit Narrower(graph::Graph& g) : g_(g) {}

  int run() {
    for (const auto& c : g_.constants) {
      const DType t = g_.type(c.value).dtype;
      if (!isInteger(t)) continue;
      std::vector<double> v = graph::decodeConstant(t, c.bytes);
      if (v.empty()) continue;
      const Interval r{*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end())};
      if (fitsInt32(r)) bounds_[c.value] = r;  // (beyond int32: no bound, as a result that leaves it)
    }
    // uniform random inputs lie in [0, 1) before their recipe's scale and shift; float constants
    // between their extremes
    for (const auto& in : g_.inputs) {
      if (in.role == graph::InputRole::Random && in.random.distribution == graph::RandomDistribution::Uniform) {
        const double a = in.random.shift, b = in.random.scale + in.random.shift;
        bounds_[in.value] = {std::min(a, b), std::max(a, b)};
      }
    }
    for (const auto& c : g_.constants) {
      const DType t = g_.type(c.value).dtype;
      if (!isFloat(t)) continue;
      std::vector<double> v = graph::decodeConstant(t, c.bytes);
      if (!v.empty() && std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); })) {
        bounds_[c.value] = {*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end())};
      }
    }
    // every integer result's interval (narrower types' too: a cast of booleans is 0 or 1); one that
    // leaves int32 is no bound (an int32 result wraps). Float results get intervals too, for the
    // casts that make integers of them (np.floor(np.random.rand(n) * k).astype(int)); they are
    // computed in double, so the cast allows a margin for the float rounding
    computeBounds(g_.body);
    for (const auto& o : g_.outputs) fixed_.insert(o.value);
    splitOutputs();
    forEachNode(g_.body, [&](const graph::Node& n) {
      if (n.isLoop()) groupCarried(n);
      for (graph::ValueId in : n.inputs) users_[in].push_back(&n);
      for (graph::ValueId o : n.outputs) producer_[o] = &n;
    });
    std::set<graph::ValueId> narrow;
    for (const auto& [v, r] : bounds_)
      if (!fixed_.count(v) && g_.type(v).dtype == DType::Int64) narrow.insert(v);
    // drop values a use keeps int64, and the results built from them, until nothing changes; a
    // loop's carried slot narrows as a whole (initial value, block argument, yield and result)
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = narrow.begin(); it != narrow.end();) {
        if (keepsInt64(*it, narrow) || computedFromInt64(*it, narrow)) {
          it = narrow.erase(it);
          changed = true;
        } else {
          ++it;
        }
      }
      for (const auto& slot : carried_) {
        const bool whole = std::all_of(slot.begin(), slot.end(), [&](graph::ValueId v) { return narrow.count(v) > 0; });
        if (whole) continue;
        for (graph::ValueId v : slot) changed = narrow.erase(v) > 0 || changed;
      }
    }
    retype(narrow);
    dropUnusedCopies(narrow);
    dropUnusedWidenings(narrow);
    contractInFloat32(g_.body);
    return static_cast<int>(narrow.size());
  }

 private:
  // A value's interval: derived, or its type's whole range (booleans and integers up to 32 bits).
  std::optional<Interval> known(graph::ValueId v) const {
    auto it = bounds_.find(v);
    if (it != bounds_.end()) return it->second;
    const DType t = g_.type(v).dtype;
    if (t == DType::Bool) return Interval{0, 1};
    if (t == DType::UInt8) return Interval{0, 255};
    if (isInteger(t) && dtypeSize(t) <= 4) {
      const double top = std::ldexp(1.0, 8 * dtypeSize(t) - 1);
      return Interval{-top, top - 1};
    }
    return std::nullopt;
  }

  // The interval of an int64 node result, when its operands' are known.
  std::optional<Interval> interval(const graph::Node& n) const {
    if (n.op == "ArgMin" || n.op == "ArgMax") {
      const graph::TensorType& in = g_.type(n.inputs[0]);
      if (!graph::isStaticShape(in.shape)) return std::nullopt;
      int64_t extent = graph::elementCount(in.shape);
      if (n.hasAttr("axis")) {
        int64_t axis = n.intAttr("axis");
        if (axis < 0) axis += static_cast<int64_t>(in.shape.size());
        if (axis < 0 || axis >= static_cast<int64_t>(in.shape.size())) return std::nullopt;
        extent = in.shape[static_cast<size_t>(axis)].extent;
      }
      return Interval{0, static_cast<double>(std::max<int64_t>(extent - 1, 0))};
    }
    if (n.op == "Range") {
      const double start = n.floatAttr("start"), stop = n.floatAttr("stop"), step = n.floatAttr("step");
      const double count = step == 0 ? 0 : std::ceil((stop - start) / step);
      if (!(count >= 1)) return Interval{0, 0};
      const double last = start + (count - 1) * step;
      return Interval{std::min(start, last), std::max(start, last)};
    }
    if (n.op == "Cast") {  // from an integer or a boolean: its interval; from a float: truncated, with a margin
      if (!isFloat(g_.type(n.inputs[0]).dtype)) return known(n.inputs[0]);
      auto r = known(n.inputs[0]);
      if (!r || !(std::fabs(r->lo) < std::ldexp(1.0, 30) && std::fabs(r->hi) < std::ldexp(1.0, 30))) return std::nullopt;
      if (isFloat(g_.type(n.outputs[0]).dtype)) return r;
      return Interval{std::trunc(r->lo) - 1, std::trunc(r->hi) + 1};
    }
    if (n.op == "Fill") return Interval{n.floatAttr("value"), n.floatAttr("value")};
    if (n.op == "Clip" && n.inputs.size() == 3) {  // bounded by its bounds, whatever the clipped value's range
      auto lo = known(n.inputs[1]), hi = known(n.inputs[2]);
      if (lo && hi) return Interval{std::min(lo->lo, hi->lo), std::max(lo->hi, hi->hi)};
    }
    std::vector<Interval> a;
    for (graph::ValueId in : n.inputs) {
      if (g_.type(in).dtype == DType::Bool && n.op == "Where") {
        a.push_back({0, 1});
        continue;
      }
      auto r = known(in);
      if (!r) return std::nullopt;
      a.push_back(*r);
    }
    if (a.empty()) return std::nullopt;
    if (movesElements(n.op)) {
      Interval r = a[0];
      if (n.op == "Concat" || n.op == "Stack")
        for (const auto& x : a) r = hull(r, x);
      if (n.op == "SliceUpdate" && a.size() >= 2) r = hull(r, a[1]);  // (later inputs: the offsets)
      return r;
    }
    if (n.op == "Add" && a.size() == 2) return Interval{a[0].lo + a[1].lo, a[0].hi + a[1].hi};
    if (n.op == "Sub" && a.size() == 2) return Interval{a[0].lo - a[1].hi, a[0].hi - a[1].lo};
    if (n.op == "Mul" && a.size() == 2) return ofProducts(a[0], a[1]);
    if (n.op == "Div" && a.size() == 2 && (a[1].lo > 0 || a[1].hi < 0)) {  // a divisor of one sign: its quotients
      const double q[] = {a[0].lo / a[1].lo, a[0].lo / a[1].hi, a[0].hi / a[1].lo, a[0].hi / a[1].hi};
      return Interval{*std::min_element(std::begin(q), std::end(q)), *std::max_element(std::begin(q), std::end(q))};
    }
    if (n.op == "ReduceMean" && a.size() == 1) return a[0];
    if (n.op == "Square") return hull(ofProducts(a[0], a[0]), {0, 0});
    if (n.op == "Pow" && a.size() == 2 && a[1].lo == a[1].hi && a[1].lo >= 0 && a[1].lo <= 64 &&
        a[1].lo == std::floor(a[1].lo)) {  // a constant integral exponent
      const double k = a[1].lo, lo = std::pow(a[0].lo, k), hi = std::pow(a[0].hi, k);
      Interval r{std::min(lo, hi), std::max(lo, hi)};
      if (a[0].lo < 0 && a[0].hi > 0) r = hull(r, {0, 0});
      return r;
    }
    if (n.op == "MatMul" && a.size() == 2) {  // sums of K products
      if (auto k = contractedExtent(n)) return Interval{std::min(0.0, static_cast<double>(*k) * ofProducts(a[0], a[1]).lo),
                                                        std::max(0.0, static_cast<double>(*k) * ofProducts(a[0], a[1]).hi)};
      return std::nullopt;
    }
    if (n.op == "Neg") return Interval{-a[0].hi, -a[0].lo};
    if (n.op == "Abs") return Interval{a[0].lo > 0 ? a[0].lo : 0, std::max(std::fabs(a[0].lo), std::fabs(a[0].hi))};
    if ((n.op == "Maximum" || n.op == "Minimum") && a.size() == 2) {
      return n.op == "Maximum" ? Interval{std::max(a[0].lo, a[1].lo), std::max(a[0].hi, a[1].hi)}
                               : Interval{std::min(a[0].lo, a[1].lo), std::min(a[0].hi, a[1].hi)};
    }
    if (n.op == "Where" && a.size() == 3) return hull(a[1], a[2]);
    if (n.op == "Clip" && a.size() == 3) {  // minimum(maximum(x, lo), hi)
      const Interval m{std::max(a[0].lo, a[1].lo), std::max(a[0].hi, a[1].hi)};
      return Interval{std::min(m.lo, a[2].lo), std::min(m.hi, a[2].hi)};
    }
    if ((n.op == "ReduceMax" || n.op == "ReduceMin") && a.size() == 1) return a[0];
    if (n.op == "Floor" || n.op == "Ceil" || n.op == "Trunc" || n.op == "Rint") {
      return Interval{std::floor(a[0].lo), std::ceil(a[0].hi)};
    }
    if (n.op == "ReduceSum" && a.size() == 1 && graph::isStaticShape(g_.type(n.inputs[0]).shape) &&
        graph::isStaticShape(g_.type(n.outputs[0]).shape)) {
      const double terms = static_cast<double>(graph::elementCount(g_.type(n.inputs[0]).shape)) /
                           static_cast<double>(std::max<int64_t>(graph::elementCount(g_.type(n.outputs[0]).shape), 1));
      return Interval{std::min(0.0, a[0].lo * terms), std::max(0.0, a[0].hi * terms)};
    }
    if (n.op == "Mod" && a.size() == 2 && !(a[1].lo > 0)) {  // Python's remainder: the divisor's sign, smaller
      const double m = std::max(std::fabs(a[1].lo), std::fabs(a[1].hi));
      return Interval{-std::max(m - 1, 0.0), std::max(m - 1, 0.0)};
    }
    if ((n.op == "Mod" || n.op == "FloorDiv") && a.size() == 2 && a[1].lo > 0) {  // a positive divisor
      if (n.op == "Mod") return Interval{0, a[1].hi - 1};
      const double q[] = {std::floor(a[0].lo / a[1].lo), std::floor(a[0].lo / a[1].hi), std::floor(a[0].hi / a[1].lo),
                          std::floor(a[0].hi / a[1].hi)};
      return Interval{*std::min_element(std::begin(q), std::end(q)), *std::max_element(std::begin(q), std::end(q))};
    }
    return std::nullopt;
  }

  // A MatMul's contracted extent (its first operand's last dimension), when static.
  std::optional<int64_t> contractedExtent(const graph::Node& n) const {
    const graph::TensorType& a = g_.type(n.inputs[0]);
    if (a.shape.empty() || !a.shape.back().isKnown()) return std::nullopt;
    return a.shape.back().extent;
  }

  // Integer MatMuls whose every partial sum is exact in float32 become float32 MatMuls between casts.
  void contractInFloat32(graph::Region& r) {
    std::vector<graph::Node> nodes;
    for (graph::Node& n : r.nodes) {
      for (auto& sub : n.regions) contractInFloat32(sub);
      // (int32 operands: the vector unit casts them; narrower integers have no vector lanes)
      const bool integer = n.op == "MatMul" && n.inputs.size() == 2 && n.outputs.size() == 1 &&
                           g_.type(n.outputs[0]).dtype == DType::Int32 && g_.type(n.inputs[0]).dtype == DType::Int32 &&
                           g_.type(n.inputs[1]).dtype == DType::Int32;
      auto ra = integer ? known(n.inputs[0]) : std::nullopt, rb = integer ? known(n.inputs[1]) : std::nullopt;
      auto k = integer ? contractedExtent(n) : std::nullopt;
      if (!ra || !rb || !k) {
        nodes.push_back(std::move(n));
        continue;
      }
      const Interval p = ofProducts(*ra, *rb);
      const double largest = static_cast<double>(*k) * std::max(std::fabs(p.lo), std::fabs(p.hi));
      const double operand = std::max({std::fabs(ra->lo), std::fabs(ra->hi), std::fabs(rb->lo), std::fabs(rb->hi)});
      if (largest > kExactInFloat32 || operand > kExactInFloat32) {
        nodes.push_back(std::move(n));
        continue;
      }
      auto cast = [&](graph::ValueId v, DType to, graph::ValueId out) {
        graph::Node c;
        c.op = "Cast";
        c.loc = n.loc;
        c.inputs = {v};
        c.outputs = {out};
        c.setAttr("dtype", std::string(dtypeName(to)));
        return c;
      };
      auto asFloat = [&](graph::ValueId v) {
        graph::TensorType t = g_.type(v);  // copied: addValue may move the values
        t.dtype = DType::Float32;
        const graph::ValueId f = g_.addValue(g_.value(v).name + "_f32", t, n.loc);
        nodes.push_back(cast(v, DType::Float32, f));
        return f;
      };
      const graph::ValueId a = asFloat(n.inputs[0]), b = n.inputs[1] == n.inputs[0] ? a : asFloat(n.inputs[1]);
      const graph::ValueId result = n.outputs[0];
      graph::TensorType t = g_.type(result);
      const DType integerType = t.dtype;
      t.dtype = DType::Float32;
      const graph::ValueId product = g_.addValue(g_.value(result).name + "_f32", t, n.loc);
      n.inputs = {a, b};
      n.outputs = {product};
      nodes.push_back(std::move(n));
      nodes.push_back(cast(product, integerType, result));
    }
    r.nodes = std::move(nodes);
  }

  // An index array that is an output (int64, as NumPy returns it) and is also computed with: a
  // second argmin/argmax/arange node gives the computations their own copy, which can narrow.
  void splitOutputs() {
    std::set<graph::ValueId> used;
    for (const graph::Node& n : g_.body.nodes) used.insert(n.inputs.begin(), n.inputs.end());
    std::vector<graph::Node> nodes;
    for (graph::Node& n : g_.body.nodes) {
      for (graph::ValueId& in : n.inputs)
        if (auto it = copyOf_.find(in); it != copyOf_.end()) in = it->second;
      nodes.push_back(n);
      if (n.isLoop()) {  // a carried int64 result that is an output: the loop carries a value of its own
        std::vector<graph::Node> casts;
        for (size_t k = 0; k < n.outputs.size(); ++k) {
          const graph::ValueId v = n.outputs[k];
          if (g_.type(v).dtype != DType::Int64 || !fixed_.count(v) || !bounds_.count(v)) continue;
          widenOutput(nodes, k);
          casts.push_back(std::move(nodes.back()));
          nodes.pop_back();
        }
        for (auto& c : casts) nodes.push_back(std::move(c));
        continue;
      }
      const bool source = n.op == "ArgMin" || n.op == "ArgMax" || n.op == "Range";
      if (!source && n.outputs.size() == 1 && g_.type(n.outputs[0]).dtype == DType::Int64 &&
          fixed_.count(n.outputs[0]) && bounds_.count(n.outputs[0]) && narrowsWithItsInputs(n.op)) {
        widenOutput(nodes);
        continue;
      }
      if (!source || n.outputs.size() != 1 || !fixed_.count(n.outputs[0]) || !bounds_.count(n.outputs[0]) ||
          !used.count(n.outputs[0])) {
        continue;
      }
      graph::Node copy = n;
      const graph::ValueId v = n.outputs[0];
      const graph::TensorType type = g_.type(v);  // copied: addValue may move the values
      copy.outputs = {g_.addValue(g_.value(v).name + "_computed", type, n.loc)};
      bounds_[copy.outputs[0]] = bounds_[v];
      copyOf_[v] = copy.outputs[0];
      nodes.push_back(std::move(copy));
    }
    g_.body.nodes = std::move(nodes);
  }

  // An int64 output computed from bounded values (nodes.back()): the node computes a value of its
  // own, which can narrow, and a cast makes the output of it (int32 to int64, a sign-extending copy).
  void widenOutput(std::vector<graph::Node>& nodes, size_t slot = 0) {
    graph::Node& n = nodes.back();
    const graph::ValueId v = n.outputs[slot];
    const graph::TensorType type = g_.type(v);  // copied: addValue may move the values
    const graph::ValueId computed = g_.addValue(g_.value(v).name + "_computed", type, n.loc);
    n.outputs[slot] = computed;
    bounds_[computed] = bounds_[v];
    copyOf_[v] = computed;
    widened_[computed] = v;
    graph::Node cast;
    cast.op = "Cast";
    cast.loc = n.loc;
    cast.inputs = {computed};
    cast.outputs = {v};
    cast.setAttr("dtype", std::string("int64"));
    nodes.push_back(std::move(cast));
  }

  // A widened output whose computed value stayed int64: the cast goes, the value is the output again.
  void dropUnusedWidenings(const std::set<graph::ValueId>& narrow) {
    std::map<graph::ValueId, graph::ValueId> output;
    for (const auto& [computed, v] : widened_)
      if (!narrow.count(computed)) output[computed] = v;
    if (output.empty()) return;
    std::vector<graph::Node> nodes;
    for (graph::Node& n : g_.body.nodes) {
      if (n.op == "Cast" && n.inputs.size() == 1 && output.count(n.inputs[0]) && n.outputs[0] == output[n.inputs[0]]) {
        continue;
      }
      for (graph::ValueId& v : n.inputs)
        if (auto it = output.find(v); it != output.end()) v = it->second;
      for (graph::ValueId& v : n.outputs)
        if (auto it = output.find(v); it != output.end()) v = it->second;
      nodes.push_back(std::move(n));
    }
    g_.body.nodes = std::move(nodes);
  }

  // A copy whose uses all stayed int64 computes the output's values again: its uses take the
  // output back and the copy goes.
  void dropUnusedCopies(const std::set<graph::ValueId>& narrow) {
    std::map<graph::ValueId, graph::ValueId> original;
    for (const auto& [output, copy] : copyOf_)
      if (!narrow.count(copy) && !widened_.count(copy)) original[copy] = output;
    if (original.empty()) return;
    std::vector<graph::Node> nodes;
    for (graph::Node& n : g_.body.nodes) {
      if (n.outputs.size() == 1 && original.count(n.outputs[0])) continue;
      for (graph::ValueId& in : n.inputs)
        if (auto it = original.find(in); it != original.end()) in = it->second;
      nodes.push_back(std::move(n));
    }
    g_.body.nodes = std::move(nodes);
  }

  // Every node, nested regions' (loop bodies) included, in order: a region's nodes after the
  // values of the enclosing regions they use.
  template <typename Region, typename Fn>
  static void forEachNode(Region& r, const Fn& fn) {
    for (auto& n : r.nodes) {
      fn(n);
      for (auto& sub : n.regions) forEachNode(sub, fn);
    }
  }

  // Every result's interval, in order. A loop's carried int64 values get the hull of their initial
  // value and of what each trip yields: the body is evaluated trip by trip until the hulls hold (at
  // most 8 trips; a loop of more trips whose hulls still grow keeps its carried values unbounded).
  void computeBounds(const graph::Region& r) {
    for (const graph::Node& n : r.nodes) {
      if (n.isLoop()) {
        loopBounds(n);
        continue;
      }
      if (n.outputs.size() != 1) continue;
      const DType t = g_.type(n.outputs[0]).dtype;
      if (!isInteger(t) && !isFloat(t)) continue;
      if (auto b = interval(n); b && (isFloat(t) ? std::isfinite(b->lo) && std::isfinite(b->hi) : fitsInt32(*b))) {
        bounds_[n.outputs[0]] = *b;
      } else {
        bounds_.erase(n.outputs[0]);  // (a loop body's trip may have bounded it before)
      }
    }
  }

  static constexpr int64_t kMaxBoundTrips = 8;

  void loopBounds(const graph::Node& loop) {
    const graph::Region& body = loop.body();
    const int64_t trips = loop.intAttr("step") == 0 ? 0
                          : std::max<int64_t>(0, (loop.intAttr("stop") - loop.intAttr("start") + loop.intAttr("step") -
                                                  (loop.intAttr("step") > 0 ? 1 : -1)) / loop.intAttr("step"));
    if (trips > 0) {  // the induction variable runs from start to the last trip's value
      const double first = static_cast<double>(loop.intAttr("start"));
      const double last = first + static_cast<double>((trips - 1) * loop.intAttr("step"));
      bounds_[body.arguments[0]] = {std::min(first, last), std::max(first, last)};
    }
    std::vector<std::optional<Interval>> hulls;
    for (graph::ValueId init : loop.inputs) {
      auto it = bounds_.find(init);
      const DType t = g_.type(init).dtype;
      hulls.push_back((isInteger(t) || isFloat(t)) && it != bounds_.end() ? std::optional<Interval>(it->second) : std::nullopt);
    }
    // an integer hull must fit int32; a float one must be finite (a bounded float cast to int64 narrows)
    auto holds = [&](size_t k, const Interval& r) {
      return isFloat(g_.type(loop.inputs[k]).dtype) ? std::isfinite(r.lo) && std::isfinite(r.hi) : fitsInt32(r);
    };
    const std::vector<std::optional<Interval>> initial = hulls;
    std::vector<bool> growing(hulls.size()), pinned(hulls.size());
    bool extrapolated = false, dropped = false;
    for (int64_t trip = 0;; ++trip) {
      for (size_t k = 0; k < hulls.size(); ++k) {
        if (hulls[k]) bounds_[body.arguments[k + 1]] = *hulls[k];
        else bounds_.erase(body.arguments[k + 1]);
      }
      computeBounds(body);
      bool grew = false;
      for (size_t k = 0; k < hulls.size(); ++k) {
        growing[k] = false;
        if (!hulls[k] || pinned[k]) continue;
        auto y = bounds_.find(body.yields[k]);
        const std::optional<Interval> next = y == bounds_.end() ? std::nullopt : std::optional<Interval>(hull(*hulls[k], y->second));
        if (!next || !holds(k, *next)) {
          hulls[k].reset();
          grew = true;
        } else if (next->lo < hulls[k]->lo || next->hi > hulls[k]->hi) {
          hulls[k] = next;
          grew = growing[k] = true;
        }
      }
      if (!grew || trip + 1 >= trips) break;  // the hulls hold, or every trip is accounted for
      if (trip + 1 >= kMaxBoundTrips * (extrapolated ? 2 : 1)) {
        // still growing: counters become the hull of all their trips, and the others get as many
        // trips again; then the slots still growing and those computed from them are unbounded, and
        // the rest must hold one trip more; past that, all unbounded (a nest costs kMaxBoundTrips^depth bodies)
        if (!extrapolated && pinProgressions(loop, trips, initial, growing, hulls, pinned, holds)) {
          extrapolated = true;
          continue;
        }
        if (!dropped) {
          spreadGrowth(loop, growing, hulls, pinned);
          for (size_t k = 0; k < hulls.size(); ++k)
            if (growing[k] && !pinned[k]) hulls[k].reset();
          dropped = true;
          continue;
        }
        for (auto& h : hulls) h.reset();
      }
    }
    for (size_t k = 0; k < hulls.size(); ++k) {
      if (hulls[k]) bounds_[loop.outputs[k]] = *hulls[k];
      else bounds_.erase(body.arguments[k + 1]);
    }
  }

  // Carried values still growing that are counters, `x = x + d` or `x = x - d` with d computed from
  // nothing still growing: such a value lies between its initial interval and `trips` steps of d,
  // its hull for the whole loop, which is pinned. Whether any was.
  // The values of `loop`'s body computed from a growing slot; a slot whose yield is one grows as well
  // (marked in `growing`).
  std::set<graph::ValueId> spreadGrowth(const graph::Node& loop, std::vector<bool>& growing,
                                        const std::vector<std::optional<Interval>>& hulls, const std::vector<bool>& pinned) {
    const graph::Region& body = loop.body();
    std::set<graph::ValueId> tainted;
    for (bool changed = true; changed;) {
      changed = false;
      tainted.clear();
      for (size_t k = 0; k < growing.size(); ++k)
        if (growing[k]) tainted.insert(body.arguments[k + 1]);
      std::function<bool(const graph::Region&)> reads = [&](const graph::Region& r) {  // (a yield reads too)
        for (graph::ValueId y : r.yields)
          if (tainted.count(y)) return true;
        for (const graph::Node& n : r.nodes) {
          for (graph::ValueId in : n.inputs)
            if (tainted.count(in)) return true;
          for (const auto& sub : n.regions)
            if (reads(sub)) return true;
        }
        return false;
      };
      for (const graph::Node& n : body.nodes) {  // (a bool's interval holds whatever it is computed from, as
        bool from = false;                        // does a selection's from its condition)
        for (size_t i = n.op == "Where" ? 1 : 0; i < n.inputs.size(); ++i) from = from || tainted.count(n.inputs[i]) > 0;
        for (const auto& sub : n.regions) from = from || reads(sub);
        if (!from) continue;
        for (graph::ValueId o : n.outputs)
          if (g_.type(o).dtype != DType::Bool) tainted.insert(o);
      }
      for (size_t k = 0; k < growing.size(); ++k) {
        if (!growing[k] && hulls[k] && !pinned[k] && tainted.count(body.yields[k])) growing[k] = changed = true;
      }
    }
    return tainted;
  }

  bool pinProgressions(const graph::Node& loop, int64_t trips, const std::vector<std::optional<Interval>>& initial,
                       std::vector<bool> growing, std::vector<std::optional<Interval>>& hulls, std::vector<bool>& pinned,
                       const std::function<bool(size_t, const Interval&)>& holds) {
    const graph::Region& body = loop.body();
    const std::set<graph::ValueId> tainted = spreadGrowth(loop, growing, hulls, pinned);
    std::map<graph::ValueId, const graph::Node*> producer;
    for (const graph::Node& n : body.nodes)
      for (graph::ValueId o : n.outputs) producer[o] = &n;
    bool any = false;
    for (size_t k = 0; k < growing.size(); ++k) {
      if (!growing[k] || !initial[k]) continue;
      const graph::ValueId arg = body.arguments[k + 1];
      auto p = producer.find(body.yields[k]);
      if (p == producer.end() || (p->second->op != "Add" && p->second->op != "Sub") || p->second->inputs.size() != 2) continue;
      const graph::Node& step = *p->second;
      const bool first = step.inputs[0] == arg;
      if (!first && (step.op == "Sub" || step.inputs[1] != arg)) continue;
      const graph::ValueId d = first ? step.inputs[1] : step.inputs[0];
      auto dBound = bounds_.find(d);
      if (d == arg || tainted.count(d) || dBound == bounds_.end()) continue;
      Interval dStep = dBound->second;
      if (step.op == "Sub") dStep = {-dStep.hi, -dStep.lo};
      const double n = static_cast<double>(trips);
      const Interval whole{initial[k]->lo + n * std::min(dStep.lo, 0.0), initial[k]->hi + n * std::max(dStep.hi, 0.0)};
      if (!holds(k, whole)) continue;
      hulls[k] = whole;
      pinned[k] = any = true;
    }
    return any;
  }

  // A loop's carried int64 slot (initial value, block argument, yield, result) narrows as a whole;
  // a carried value of another dtype keeps it.
  void groupCarried(const graph::Node& loop) {
    const graph::Region& body = loop.body();
    for (size_t k = 0; k < loop.inputs.size(); ++k) {
      std::vector<graph::ValueId> slot = {loop.inputs[k], body.arguments[k + 1], body.yields[k], loop.outputs[k]};
      if (g_.type(loop.inputs[k]).dtype != DType::Int64) {
        fixed_.insert(slot.begin(), slot.end());
        continue;
      }
      carried_.push_back(slot);
    }
  }

  // Whether a use of `v` needs it as int64: a use outside the elementwise operators and shape
  // operations, or one whose int64 result stays int64.
  bool keepsInt64(graph::ValueId v, const std::set<graph::ValueId>& narrow) const {
    auto it = users_.find(v);
    if (it == users_.end()) return false;
    for (const graph::Node* n : it->second) {
      if (n->op == "ReduceSum" || n->isLoop()) continue;  // int32 terms give NumPy's int64 sum; carried slots narrow whole
      if (!narrowsWithItsInputs(n->op)) return true;
      for (graph::ValueId o : n->outputs)  // (a widening cast's output is int64 by design)
        if (g_.type(o).dtype == DType::Int64 && !narrow.count(o) && !(widened_.count(v) && widened_.at(v) == o)) {
          return true;
        }
      for (graph::ValueId in : n->inputs)  // an int64 operand beside it that stays int64
        if (in != v && g_.type(in).dtype == DType::Int64 && !narrow.count(in)) return true;
    }
    return false;
  }

  // Whether `v` is computed from an int64 operand that stays int64 (the vector unit would need it).
  bool computedFromInt64(graph::ValueId v, const std::set<graph::ValueId>& narrow) const {
    auto it = producer_.find(v);
    if (it == producer_.end() || it->second->isLoop()) return false;  // a loop result narrows with its slot
    for (graph::ValueId in : it->second->inputs)
      if (g_.type(in).dtype == DType::Int64 && !narrow.count(in)) return true;
    return false;
  }

  // The narrowed values as int32, with their producers: constants stored as int32, np.arange,
  // casts and argmin/argmax told so.
  void retype(const std::set<graph::ValueId>& narrow) {
    for (graph::ValueId v : narrow) g_.value(v).type.dtype = DType::Int32;
    for (auto& c : g_.constants) {
      if (narrow.count(c.value)) c.bytes = graph::encodeConstant(DType::Int32, graph::decodeConstant(DType::Int64, c.bytes));
    }
    forEachNode(g_.body, [&](graph::Node& n) {
      if (n.outputs.size() != 1 || !narrow.count(n.outputs[0])) return;
      if (n.op == "Range" || n.op == "Fill" || n.op == "Cast" || n.op == "ArgMin" || n.op == "ArgMax" || n.op == "ReduceSum") {
        n.setAttr("dtype", std::string("int32"));
      }
    });
  }

  graph::Graph& g_;
  std::map<graph::ValueId, Interval> bounds_;
  std::map<graph::ValueId, std::vector<const graph::Node*>> users_;
  std::map<graph::ValueId, const graph::Node*> producer_;
  std::set<graph::ValueId> fixed_;
  std::vector<std::vector<graph::ValueId>> carried_;  // loops' carried int64 slots  // used as int64 by outputs and loop bodies
  std::map<graph::ValueId, graph::ValueId> copyOf_;  // an output index array -> its copy for computing
  std::map<graph::ValueId, graph::ValueId> widened_;  // a computed value -> the int64 output cast from it
};

}  // namespace

int narrowIntegers(graph::Graph& g) { return Narrower(g).run(); }

}  // namespace pyasc::codegen
