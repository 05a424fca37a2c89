// Recognises convolutions written as sums over kernel taps of window contractions.
#include "codegen/graph/RecognizeConvolution.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

// One term of a sum: the window x[:, row : … : step[0], col : … : step[1], :] contracted with the
// weights w[a, b] (w 4-d), or with the matrix w (2-d; a = b = 0).
struct Tap {
  ValueId x = -1, w = -1;
  ValueId matrix = -1;  // the [C,F] operand itself
  int64_t row = 0, col = 0, a = 0, b = 0;
  std::vector<int64_t> step = {1, 1};
};

// A sum of taps: its taps, the initial array (-1: none), the nodes of the top region it consists
// of, and why it cannot be rewritten whatever its taps (empty when it can).
struct Sum {
  std::vector<Tap> taps;
  ValueId initial = -1;
  std::set<const Node*> nodes;
  std::string notTaps;
};

// The convolution a sum is.
struct Convolution {
  ValueId input = -1, weights = -1, initial = -1;
  bool zeroInitial = false;
  std::vector<int64_t> strides, pads, dilations;
};

using Scope = std::vector<const graph::Region*>;  // innermost last
using Env = std::map<ValueId, int64_t>;           // loop counters' values

class Recognizer {
 public:
  explicit Recognizer(graph::Graph& g) : g_(g), uses_(graph::useCounts(g)) {}

  int recognized = 0;

  void region(graph::Region& r, Scope scope = {}) {
    scope.push_back(&r);
    for (Node& n : r.nodes)
      for (auto& sub : n.regions) region(sub, scope);
    // sums from the last node back, so that a sum's intermediates are not taken as sums of their own
    std::map<size_t, Convolution> rewrites;  // at the node computing the sum
    std::set<const Node*> taken;
    for (size_t i = r.nodes.size(); i-- > 0;) {
      Node& n = r.nodes[i];
      if (taken.count(&n) || n.outputs.size() != 1) continue;
      Sum sum;
      if (!walk(scope, n.outputs[0], {}, -1, sum, true) || sum.taps.empty()) continue;
      // several taps of [KH,KW,C,F] weights, or one strided window
      const bool taps = sum.taps.size() >= 2 && std::all_of(sum.taps.begin(), sum.taps.end(), [&](const Tap& t) {
        return g_.type(t.w).rank() == 4;
      });
      const bool candidate = taps || (sum.taps.size() == 1 && strided(sum.taps[0]));
      if (!candidate) continue;
      taken.insert(sum.nodes.begin(), sum.nodes.end());
      if (!taps) {  // a 1x1 convolution of its matrix
        sum.taps[0].w = sum.taps[0].matrix;
        sum.taps[0].a = sum.taps[0].b = 0;
      }
      std::string reason = sum.notTaps;
      std::optional<Convolution> conv;
      if (reason.empty()) conv = convolution(sum, g_.type(n.outputs[0]), reason);
      if (conv) {
        rewrites[i] = *conv;
        dropped_.insert(sum.nodes.begin(), sum.nodes.end());
        dropped_.erase(&n);
      } else if (taps) {
        n.hints.push_back({kConvolutionNearMissHint, reason});
      }
    }
    std::vector<Node> out;
    for (size_t i = 0; i < r.nodes.size(); ++i) {
      if (dropped_.count(&r.nodes[i])) continue;
      auto it = rewrites.find(i);
      if (it == rewrites.end()) {
        out.push_back(std::move(r.nodes[i]));
        continue;
      }
      emit(it->second, r.nodes[i], out);
      ++recognized;
    }
    dropped_.clear();
    r.nodes = std::move(out);
  }

 private:
  static const Node* producerIn(const graph::Region& r, ValueId v) {
    for (const Node& n : r.nodes)
      if (std::find(n.outputs.begin(), n.outputs.end(), v) != n.outputs.end()) return &n;
    return nullptr;
  }
  static const Node* producer(const Scope& scope, ValueId v) {
    for (auto r = scope.rbegin(); r != scope.rend(); ++r)
      if (const Node* n = producerIn(**r, v)) return n;
    return nullptr;
  }

  int useCount(ValueId v) const {
    auto u = uses_.find(v);
    return u == uses_.end() ? 0 : u->second;
  }

  static bool counted(const Node& n) {
    return n.isLoop() && !n.isWhileLoop() && n.inputs.size() == 1 && n.outputs.size() == 1 &&
           n.body().arguments.size() == 2 && n.body().yields.size() == 1 && n.intAttr("step") != 0;
  }

  // A scalar integer: a counter's value, a one-element constant, or + − × of those.
  std::optional<int64_t> scalar(const Scope& scope, ValueId v, const Env& env) const {
    if (auto e = env.find(v); e != env.end()) return e->second;
    if (const graph::GraphConstant* c = g_.findConstant(v)) {
      const graph::TensorType& t = g_.type(v);
      if (graph::elementCount(t.shape) != 1 || !isInteger(t.dtype)) return std::nullopt;
      return static_cast<int64_t>(graph::decodeConstant(t.dtype, c->bytes).at(0));
    }
    const Node* p = producer(scope, v);
    if (!p || p->inputs.size() != 2 || (p->op != "Add" && p->op != "Sub" && p->op != "Mul")) return std::nullopt;
    const auto a = scalar(scope, p->inputs[0], env), b = scalar(scope, p->inputs[1], env);
    if (!a || !b) return std::nullopt;
    return p->op == "Add" ? *a + *b : p->op == "Sub" ? *a - *b : *a * *b;
  }

  // Whether `n` contracts the last axis of its rank-4 first operand with the first axis of its
  // rank-2 second operand into [a, b, c, f].
  bool channelContraction(const Node& n) const {
    if (n.inputs.size() != 2 || n.outputs.size() != 1) return false;
    if (g_.type(n.inputs[0]).rank() != 4 || g_.type(n.inputs[1]).rank() != 2) return false;
    if (n.op == "MatMul") return true;
    if (n.op == "TensorDot")
      return n.intListAttr("axes_a") == std::vector<int64_t>{3} && n.intListAttr("axes_b") == std::vector<int64_t>{0};
    if (n.op != "Einsum") return false;
    const std::string e = n.stringAttr("equation");
    if (e.size() != 13 || e[4] != ',' || e.substr(7, 2) != "->") return false;
    const std::string a = e.substr(0, 4), b = e.substr(5, 2), out = e.substr(9);
    for (char c : a)
      if (std::count(a.begin(), a.end(), c) != 1) return false;
    return a.find(b[1]) == std::string::npos && b[0] == a[3] && out == a.substr(0, 3) + b[1];
  }

  // The tap a contraction's result `v` is, with the loops' counters at `env`.
  std::optional<Tap> tap(const Scope& scope, ValueId v, const Env& env) const {
    const Node* c = producer(scope, v);
    if (!c || !channelContraction(*c)) return std::nullopt;
    Tap t;
    t.x = c->inputs[0];
    if (const Node* s = producer(scope, t.x); s && s->op == "Slice") {
      const std::vector<int64_t> axes = s->intListAttr("axes"), begin = s->intListAttr("begin"),
                                 step = s->intListAttr("step"), dynamic = s->intListAttr("dynamic_axes");
      t.x = s->inputs[0];
      for (size_t k = 0; k < axes.size(); ++k) {
        if (axes[k] != 1 && axes[k] != 2) return std::nullopt;
        int64_t at = begin[k];
        const auto d = std::find(dynamic.begin(), dynamic.end(), axes[k]);
        if (d != dynamic.end()) {
          const auto offset = scalar(scope, s->inputs.at(1 + static_cast<size_t>(d - dynamic.begin())), env);
          if (!offset) return std::nullopt;
          at += *offset;
        }
        (axes[k] == 1 ? t.row : t.col) = at;
        t.step[static_cast<size_t>(axes[k] - 1)] = step[k];
      }
    }
    t.w = t.matrix = c->inputs[1];
    const Node* squeeze = producer(scope, t.w);
    const Node* s = squeeze && squeeze->op == "Squeeze" ? producer(scope, squeeze->inputs[0]) : nullptr;
    if (!s || s->op != "Slice" || squeeze->intListAttr("axes") != std::vector<int64_t>{0, 1} ||
        s->intListAttr("axes") != std::vector<int64_t>{0, 1} || s->intListAttr("step") != std::vector<int64_t>{1, 1})
      return t;  // a [C,F] matrix of its own
    const std::vector<int64_t> begin = s->intListAttr("begin"), end = s->intListAttr("end"), dynamic = s->intListAttr("dynamic_axes");
    t.w = s->inputs[0];
    for (size_t k = 0; k < 2; ++k) {
      if (end[k] - begin[k] != 1) return std::nullopt;
      int64_t at = begin[k];
      const auto d = std::find(dynamic.begin(), dynamic.end(), static_cast<int64_t>(k));
      if (d != dynamic.end()) {
        const auto offset = scalar(scope, s->inputs.at(1 + static_cast<size_t>(d - dynamic.begin())), env);
        if (!offset) return std::nullopt;
        at += *offset;
      }
      (k == 0 ? t.a : t.b) = at;
    }
    return t;
  }

  static bool strided(const Tap& t) { return t.step[0] > 1 || t.step[1] > 1; }

  // Walks the sum computing `v` in the innermost region of `scope` back to its initial array, or
  // to `carried` (a loop body's accumulator); false when v is not a sum of taps at all. `top`: v
  // is computed in the region being rewritten, whose nodes the sum records.
  bool walk(const Scope& scope, ValueId v, const Env& env, ValueId carried, Sum& sum, bool top) const {
    const graph::Region& r = *scope.back();
    for (bool last = true;; last = false) {
      if (v == carried) return true;
      const Node* p = producerIn(r, v);
      if (!p || (!last && useCount(v) != 1)) {  // an initial array (an intermediate read elsewhere is one too)
        if (carried >= 0) return false;
        sum.initial = v;
        return true;
      }
      if (p->op == "Add" && p->inputs.size() == 2) {
        std::optional<Tap> t;
        size_t side = 0;
        for (; side < 2 && !t; ++side) t = tap(scope, p->inputs[side], env);
        if (!t) {
          if (carried >= 0 || last) return false;
          sum.initial = v;
          return true;
        }
        if (useCount(p->inputs[side - 1]) != 1) sum.notTaps = "a tap's product is also read elsewhere";
        sum.taps.push_back(*t);
        if (top) sum.nodes.insert(p);
        if (const Node* c = producerIn(r, p->inputs[side - 1]); c && top) sum.nodes.insert(c);
        v = p->inputs[2 - side];
        continue;
      }
      if (counted(*p)) {  // every trip adds taps to the carried sum, or the loop's result is an initial array
        const graph::Region& body = p->body();
        Scope inner = scope;
        inner.push_back(&body);
        const int64_t start = p->intAttr("start"), stop = p->intAttr("stop"), step = p->intAttr("step");
        Sum trips;
        bool taps = true;
        for (int64_t c = start; taps && (step > 0 ? c < stop : c > stop); c += step) {
          Env e = env;
          e[body.arguments[0]] = c;
          taps = walk(inner, body.yields[0], e, body.arguments[1], trips, false);
        }
        if (!taps) {
          if (carried >= 0 || last) return false;
          sum.initial = v;
          return true;
        }
        sum.taps.insert(sum.taps.end(), trips.taps.begin(), trips.taps.end());
        if (!trips.notTaps.empty()) sum.notTaps = trips.notTaps;
        if (top) sum.nodes.insert(p);
        v = p->inputs[0];
        continue;
      }
      if (std::optional<Tap> t = tap(scope, v, env)) {  // the first tap, onto nothing
        sum.taps.push_back(*t);
        if (top) sum.nodes.insert(p);
        return carried < 0;
      }
      if (carried >= 0 || last) return false;
      sum.initial = v;
      return true;
    }
  }

  // The convolution the sum of taps is, or the reason it is not one.
  std::optional<Convolution> convolution(const Sum& sum, const graph::TensorType& y, std::string& reason) const {
    const Tap& t0 = sum.taps[0];
    for (const Tap& t : sum.taps) {
      if (t.x != t0.x) return fail(reason, "the taps read windows of different arrays");
      if (t.w != t0.w) return fail(reason, "the taps' weights are slices of different arrays");
      if (t.step != t0.step) return fail(reason, "the windows' strides differ between taps");
    }
    const graph::TensorType &xt = g_.type(t0.x), &wt = g_.type(t0.w);
    if (!graph::isStaticShape(xt.shape) || !graph::isStaticShape(wt.shape) || !graph::isStaticShape(y.shape))
      return fail(reason, "the input or weights have dimensions not known at compile time");
    if (xt.dtype != y.dtype || wt.dtype != y.dtype || (y.dtype != DType::Float16 && y.dtype != DType::Float32))
      return fail(reason, "the input, weights and sum are not all float16 or all float32");
    if (t0.step[0] < 1 || t0.step[1] < 1) return fail(reason, "a window steps backwards");
    const int64_t kh = wt.rank() == 4 ? wt.shape[0].extent : 1, kw = wt.rank() == 4 ? wt.shape[1].extent : 1;
    // every (a, b) once, and the window's offsets an affine function of them
    std::map<std::pair<int64_t, int64_t>, const Tap*> grid;
    for (const Tap& t : sum.taps)
      if (t.a >= 0 && t.a < kh && t.b >= 0 && t.b < kw) grid.emplace(std::make_pair(t.a, t.b), &t);
    if (grid.size() != sum.taps.size() || static_cast<int64_t>(grid.size()) != kh * kw)
      return fail(reason, std::to_string(sum.taps.size()) + " taps are not the " + std::to_string(kh) + "x" + std::to_string(kw) +
                              " weights w[a, b] once each");
    const Tap& origin = *grid.at({0, 0});
    const int64_t dh = kh > 1 ? grid.at({1, 0})->row - origin.row : 1, dw = kw > 1 ? grid.at({0, 1})->col - origin.col : 1;
    for (const auto& [ab, t] : grid) {
      if (t->row != origin.row + dh * ab.first || dh < 1)
        return fail(reason, "the windows' rows do not move by a fixed positive step with the weights' first index");
      if (t->col != origin.col + dw * ab.second || dw < 1)
        return fail(reason, "the windows' columns do not move by a fixed positive step with the weights' second index");
    }
    // the unpadded input and its zero padding
    Convolution conv;
    conv.input = t0.x;
    std::vector<int64_t> padding = {0, 0, 0, 0};  // top, bottom, left, right
    const Scope whole = {&g_.body};
    if (const Node* p = producer(whole, t0.x); p && p->op == "Pad" && p->inputs.size() == 1 &&
                                               p->stringAttr("mode", "constant") == "constant" && p->floatAttr("value") == 0.0) {
      const std::vector<int64_t> pads = p->intListAttr("pads");
      if (pads.size() == 8 && pads[0] == 0 && pads[1] == 0 && pads[6] == 0 && pads[7] == 0) {
        conv.input = p->inputs[0];
        padding = {pads[2], pads[3], pads[4], pads[5]};
      }
    }
    const graph::TensorType& it = g_.type(conv.input);
    for (size_t axis = 0; axis < 2; ++axis) {
      const int64_t k = axis == 0 ? kh : kw, d = axis == 0 ? dh : dw, s = t0.step[axis];
      const int64_t first = axis == 0 ? origin.row : origin.col, outExtent = y.shape[1 + axis].extent;
      const int64_t extent = it.shape[1 + axis].extent, padded = xt.shape[1 + axis].extent;
      const std::string what = axis == 0 ? "rows" : "columns";
      const int64_t before = padding[2 * axis] - first;  // padding before the first window
      if (before < 0) return fail(reason, "the windows skip the input's first " + what);
      if (first + d * (k - 1) + s * (outExtent - 1) >= padded) return fail(reason, "the last tap's window runs past the input's " + what);
      // the least padding after that gives the windows' count (what lies there is the zero padding)
      const int64_t span = d * (k - 1) + 1;
      const int64_t after = std::max<int64_t>(0, s * (outExtent - 1) + span - extent - before);
      if ((extent + before + after - span) / s + 1 != outExtent)
        return fail(reason, "the windows' count does not follow from their stride and the input's " + what);
      if (before > 63 || after > 63 || before >= span || after >= span)
        return fail(reason, "the padding of the " + what + " reaches beyond the kernel's extent");
      conv.strides.push_back(s);
      conv.dilations.push_back(d);
      conv.pads.push_back(before);
      conv.pads.push_back(after);
    }
    conv.weights = t0.w;
    conv.initial = sum.initial;
    const Node* init = sum.initial < 0 ? nullptr : producer(whole, sum.initial);
    conv.zeroInitial = sum.initial < 0 || graph::isZeroConstant(g_, sum.initial) ||
                       (init && init->op == "Fill" && init->floatAttr("value") == 0.0 && g_.type(sum.initial).shape == y.shape);
    if (!conv.zeroInitial && g_.type(sum.initial).shape != y.shape)
      return fail(reason, "the initial array does not have the sum's shape");
    return conv;
  }

  static std::optional<Convolution> fail(std::string& reason, const std::string& why) {
    reason = why;
    return std::nullopt;
  }

  // The nodes that replace the sum computed by `last`: Conv2D (a [C,F] matrix reshaped to
  // [1,1,C,F]), and the add of the initial array unless it is zeros.
  void emit(const Convolution& c, const Node& last, std::vector<Node>& out) {
    Node conv;
    conv.op = "Conv2D";
    conv.inputs = {c.input, c.weights};
    if (g_.type(c.weights).rank() == 2) {
      graph::TensorType t = g_.type(c.weights);
      t.shape.insert(t.shape.begin(), 2, graph::Dim::known(1));
      Node reshape;
      reshape.op = "Reshape";
      reshape.inputs = {c.weights};
      reshape.attrs = {{"shape", std::vector<int64_t>{1, 1, t.shape[2].extent, t.shape[3].extent}}};
      reshape.outputs = {g_.addValue(g_.value(c.weights).name + "_1x1", t, last.loc)};
      reshape.loc = last.loc;
      conv.inputs[1] = reshape.outputs[0];
      out.push_back(std::move(reshape));
    }
    conv.attrs = {{"strides", c.strides}, {"pads", c.pads}, {"dilations", c.dilations}, {"groups", int64_t{1}},
                  {"layout", std::string("NHWC")}};
    conv.loc = last.loc;
    conv.hints = last.hints;
    conv.hints.push_back({kRecognizedConvolutionHint, static_cast<int64_t>(last.loc.line)});
    const ValueId result = last.outputs[0];
    if (c.zeroInitial) {
      conv.outputs = {result};
      out.push_back(std::move(conv));
      return;
    }
    const ValueId sum = g_.addValue(g_.value(result).name + "_conv", g_.type(result), last.loc);
    conv.outputs = {sum};
    Node add;
    add.op = "Add";
    add.inputs = {c.initial, sum};
    add.outputs = {result};
    add.loc = last.loc;
    out.push_back(std::move(conv));
    out.push_back(std::move(add));
  }

  graph::Graph& g_;
  std::map<ValueId, int> uses_;
  std::set<const Node*> dropped_;  // nodes of the region being rewritten that a sum replaces
};

}  // namespace

int recognizeConvolutions(graph::Graph& graph) {
  Recognizer r(graph);
  r.region(graph.body);
  return r.recognized;
}

}  // namespace pyasc::codegen
