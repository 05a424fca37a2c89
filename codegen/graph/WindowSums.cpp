// Chains of adds or maxima of windows, walked through counted loops.
#include "codegen/graph/WindowSums.h"

#include <algorithm>

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

const Node* producerIn(const graph::Region& r, ValueId v) {
  for (const Node& n : r.nodes)
    if (std::find(n.outputs.begin(), n.outputs.end(), v) != n.outputs.end()) return &n;
  return nullptr;
}

// Whether v is defined in `r` or a region nested in it (a node's result or a region argument).
bool definedIn(const graph::Region& r, ValueId v) {
  if (std::find(r.arguments.begin(), r.arguments.end(), v) != r.arguments.end()) return true;
  for (const Node& n : r.nodes) {
    if (std::find(n.outputs.begin(), n.outputs.end(), v) != n.outputs.end()) return true;
    for (const auto& sub : n.regions)
      if (definedIn(sub, v)) return true;
  }
  return false;
}

bool counted(const Node& n) {
  return n.isLoop() && !n.isWhileLoop() && n.inputs.size() == 1 && n.outputs.size() == 1 && n.body().arguments.size() == 2 &&
         n.body().yields.size() == 1 && n.intAttr("step") != 0;
}

}  // namespace

const Node* WindowSums::producer(const Scope& scope, ValueId v) {
  for (auto r = scope.rbegin(); r != scope.rend(); ++r)
    if (const Node* n = producerIn(**r, v)) return n;
  return nullptr;
}

int WindowSums::useCount(ValueId v) const {
  auto u = uses_.find(v);
  return u == uses_.end() ? 0 : u->second;
}

// A scalar integer: a counter's value, a one-element constant, or + − × of those.
std::optional<int64_t> WindowSums::scalar(const Scope& scope, ValueId v, const Env& env) const {
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

// Where slice (or slice update) `s` starts along its k-th sliced axis, with the loops' counters at
// `env`: its begin, plus the offset operand of a dynamic axis (operands from `first` on).
std::optional<int64_t> WindowSums::start(const Scope& scope, const Node& s, size_t k, const Env& env, size_t first) const {
  const std::vector<int64_t> axes = s.intListAttr("axes"), dynamic = s.intListAttr("dynamic_axes");
  const int64_t at = s.intListAttr("begin")[k];
  const auto d = std::find(dynamic.begin(), dynamic.end(), axes[k]);
  if (d == dynamic.end()) return at;
  const auto offset = scalar(scope, s.inputs.at(first + static_cast<size_t>(d - dynamic.begin())), env);
  if (!offset) return std::nullopt;
  return at + *offset;
}

// Whether `n` contracts the last axis of its rank-4 first operand with the first axis of its
// rank-2 second operand into [a, b, c, f].
bool WindowSums::channelContraction(const Node& n) const {
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

// Whether `n` is np.einsum "nchw,fc->nfhw" (any labels): an NCHW window's channels contracted with
// an [F,C] matrix.
bool WindowSums::nchwContraction(const Node& n) const {
  if (n.op != "Einsum" || n.inputs.size() != 2 || g_.type(n.inputs[0]).rank() != 4 || g_.type(n.inputs[1]).rank() != 2) return false;
  const std::string e = n.stringAttr("equation");
  if (e.size() != 13 || e[4] != ',' || e.substr(7, 2) != "->") return false;
  const std::string a = e.substr(0, 4), b = e.substr(5, 2), out = e.substr(9);
  for (char c : a)
    if (std::count(a.begin(), a.end(), c) != 1) return false;
  return a.find(b[0]) == std::string::npos && b[1] == a[1] && out == std::string{a[0], b[0], a[2], a[3]};
}

// The window `v` is (a slice of the spatial axes, 1 and 2 or with `nchw` 2 and 3, of a rank-4
// array, or with `whole` the array
// itself), with the loops' counters at `env`.
std::optional<Tap> WindowSums::window(const Scope& scope, ValueId v, const Env& env, bool whole, bool nchw) const {
  if (g_.type(v).rank() != 4) return std::nullopt;
  const int64_t rows = nchw ? 2 : 1;  // the row axis; the column axis follows it
  Tap t;
  t.x = v;
  t.nchw = nchw;
  t.shape = g_.type(v).shape;
  const Node* s = producer(scope, v);
  if (!s || s->op != "Slice") return whole ? std::optional<Tap>(t) : std::nullopt;
  const std::vector<int64_t> axes = s->intListAttr("axes"), step = s->intListAttr("step");
  t.x = s->inputs[0];
  for (size_t k = 0; k < axes.size(); ++k) {
    const auto at = start(scope, *s, k, env, 1);
    if ((axes[k] != rows && axes[k] != rows + 1) || !at) return std::nullopt;
    (axes[k] == rows ? t.row : t.col) = *at;
    t.step[static_cast<size_t>(axes[k] - rows)] = step[k];
  }
  return t;
}

// The tap a product's result `v` is: a channel contraction of a window with w[a, b] of a
// [KH,KW,C,F] array or a [C,F] matrix, or a window times w[a, b] of a [KH,KW,C] or [KH,KW,1,C] array.
std::optional<Tap> WindowSums::product(const Scope& scope, ValueId v, const Env& env) const {
  const Node* c = producer(scope, v);
  if (!c) return std::nullopt;
  if (c->op == "Mul" && c->inputs.size() == 2 && g_.type(v).rank() == 4) {
    for (size_t side = 0; side < 2; ++side) {
      const ValueId w = c->inputs[1 - side];
      std::optional<Tap> t = window(scope, c->inputs[side], env, true);
      const int rank = g_.type(w).rank();
      if (t && (rank == 1 || rank == 2) && tapWeights(scope, w, env, *t)) {
        const int wrank = g_.type(t->w).rank();
        if (wrank != rank + 2 || (wrank == 4 && g_.type(t->w).shape[2].extent != 1)) continue;
        t->depthwise = true;
        t->shape = g_.type(v).shape;
        return t;
      }
      t = window(scope, c->inputs[side], env, true, true);  // NCHW: times the channels' w[:, a, b] as [C,1,1]
      if (t && depthwiseNchwWeights(scope, w, env, *t)) {
        t->depthwise = true;
        t->shape = g_.type(v).shape;
        return t;
      }
    }
    return std::nullopt;
  }
  if (nchwContraction(*c)) {  // einsum "nchw,fc->nfhw" of a window and w[:, :, a, b]
    std::optional<Tap> t = window(scope, c->inputs[0], env, true, true);
    if (!t || !tapWeights(scope, c->inputs[1], env, *t) || g_.type(t->w).rank() != 4) return std::nullopt;
    t->shape = g_.type(v).shape;
    return t;
  }
  if (!channelContraction(*c)) return std::nullopt;
  std::optional<Tap> t = window(scope, c->inputs[0], env, true);
  if (!t) return std::nullopt;
  t->shape = g_.type(v).shape;
  t->w = t->matrix = c->inputs[1];
  Tap sliced = *t;
  if (tapWeights(scope, c->inputs[1], env, sliced)) return sliced;
  const Node* squeeze = producer(scope, c->inputs[1]);
  if (squeeze && squeeze->op == "Squeeze" && producer(scope, squeeze->inputs[0]) &&
      producer(scope, squeeze->inputs[0])->op == "Slice")
    return std::nullopt;  // a slice of weights that is not one tap's
  return t;               // a [C,F] matrix of its own
}

// Whether `v` is an NCHW depthwise tap's weights: w[:, a, b] of a [C,KH,KW] array or w[:, 0, a, b]
// of a [C,1,KH,KW] one, shaped [C,1,1] or [1,C,1,1] to broadcast over the window; sets t.w, a, b.
bool WindowSums::depthwiseNchwWeights(const Scope& scope, ValueId v, const Env& env, Tap& t) const {
  const graph::TensorType& vt = g_.type(v);
  const Node* shaped = producer(scope, v);
  const bool broadcast = vt.rank() >= 3 && vt.rank() <= 4 && graph::elementCount(vt.shape) == vt.shape[static_cast<size_t>(vt.rank() - 3)].extent;
  if (!broadcast || !shaped || (shaped->op != "ExpandDims" && shaped->op != "Reshape")) return false;
  const Node* squeeze = producer(scope, shaped->inputs[0]);
  const Node* s = squeeze && squeeze->op == "Squeeze" ? producer(scope, squeeze->inputs[0]) : nullptr;
  if (!s || s->op != "Slice" || g_.type(shaped->inputs[0]).rank() != 1) return false;
  const int wrank = g_.type(s->inputs[0]).rank();
  const std::vector<int64_t> kernel = wrank == 3 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{1, 2, 3};
  if ((wrank != 3 && wrank != 4) || s->intListAttr("axes") != kernel || squeeze->intListAttr("axes") != kernel ||
      (wrank == 4 && g_.type(s->inputs[0]).shape[1].extent != 1))
    return false;
  const std::vector<int64_t> begin = s->intListAttr("begin"), end = s->intListAttr("end");
  std::vector<int64_t> at;
  for (size_t k = 0; k < kernel.size(); ++k) {
    const auto index = start(scope, *s, k, env, 1);
    if (end[k] - begin[k] != 1 || s->intListAttr("step")[k] != 1 || !index) return false;
    at.push_back(*index);
  }
  if (wrank == 4 && at[0] != 0) return false;
  t.w = s->inputs[0];
  t.a = at[at.size() - 2];
  t.b = at.back();
  return true;
}

// Whether `v` is the weights w[a, b] of one tap (w[:, :, a, b] for an NCHW tap), np.squeeze of a
// slice of the two kernel axes of one element each; sets t.w to the array and t.a, t.b.
bool WindowSums::tapWeights(const Scope& scope, ValueId v, const Env& env, Tap& t) const {
  const std::vector<int64_t> kernel = t.nchw ? std::vector<int64_t>{2, 3} : std::vector<int64_t>{0, 1};
  const Node* squeeze = producer(scope, v);
  const Node* s = squeeze && squeeze->op == "Squeeze" ? producer(scope, squeeze->inputs[0]) : nullptr;
  if (!s || s->op != "Slice" || squeeze->intListAttr("axes") != kernel || s->intListAttr("axes") != kernel ||
      s->intListAttr("step") != std::vector<int64_t>{1, 1})
    return false;
  const std::vector<int64_t> begin = s->intListAttr("begin"), end = s->intListAttr("end");
  for (size_t k = 0; k < 2; ++k) {
    const auto at = start(scope, *s, k, env, 1);
    if (end[k] - begin[k] != 1 || !at) return false;
    (k == 0 ? t.a : t.b) = *at;
  }
  t.w = s->inputs[0];
  return true;
}

bool WindowSums::walk(const Scope& scope, ValueId v, const std::string& combine, bool products, WindowSum& sum) const {
  return walkFrom(scope, v, {}, kNothing, combine, products, sum, true);
}

// From `v` back to the array the chain starts from (`carried` kNothing), to `carried` (a loop
// body's accumulator), or to its first tap (kTapsOnly: a branch of a tree). `top`: v is computed
// in the region being rewritten, whose nodes the sum records.
bool WindowSums::walkFrom(const Scope& scope, ValueId v, const Env& env, ValueId carried, const std::string& combine,
                          bool products, WindowSum& sum, bool top) const {
  const graph::Region& r = *scope.back();
  auto tap = [&](ValueId t) { return products ? product(scope, t, env) : window(scope, t, env, false, sum.nchw); };
  for (bool last = true;; last = false) {
    if (v == carried) return true;
    const Node* p = producerIn(r, v);
    if (!p || (!last && useCount(v) != 1)) {  // the initial array (an intermediate read elsewhere is one too)
      if (carried != kNothing) return false;
      sum.initial = v;
      return true;
    }
    if (combine == "SliceUpdate" && p->op == "SliceUpdate" && p->inputs.size() >= 2) {  // a window written into a slot
      ValueId u = p->inputs[1];
      if (const Node* e = producerIn(r, u); e && e->op == "ExpandDims") u = e->inputs[0];
      std::optional<Tap> t = window(scope, u, env, false, sum.nchw);
      const std::vector<int64_t> axes = p->intListAttr("axes"), begin = p->intListAttr("begin"), end = p->intListAttr("end"),
                                 step = p->intListAttr("step");
      for (size_t k = 0; t && k < axes.size(); ++k) {
        const auto at = start(scope, *p, k, env, 2);
        if (!at || step[k] != 1) t.reset();
        else t->slot.push_back({axes[k], *at, end[k] - begin[k]});
      }
      if (!t) {
        if (carried != kNothing || last) return false;
        sum.initial = v;
        return true;
      }
      sum.taps.push_back(*t);
      if (top) sum.nodes.insert(p);
      v = p->inputs[0];
      continue;
    }
    if (p->op == combine && p->inputs.size() == 2) {
      std::optional<Tap> t;
      size_t side = 0;
      for (; side < 2 && !t; ++side) t = tap(p->inputs[side]);
      if (!t) {  // a tree: one operand a chain of taps alone, combined with the rest
        for (side = 0; side < 2; ++side) {
          const ValueId branch = p->inputs[side];
          const Node* q = producerIn(r, branch);
          WindowSum taps;
          taps.nchw = sum.nchw;
          if (q && q->op == combine && useCount(branch) == 1 && walkFrom(scope, branch, env, kTapsOnly, combine, products, taps, top)) {
            sum.taps.insert(sum.taps.end(), taps.taps.begin(), taps.taps.end());
            sum.nodes.insert(taps.nodes.begin(), taps.nodes.end());
            if (!taps.notTaps.empty()) sum.notTaps = taps.notTaps;
            break;
          }
        }
        if (side < 2) {
          if (top) sum.nodes.insert(p);
          v = p->inputs[1 - side];
          continue;
        }
        if (carried != kNothing || last) return false;
        sum.initial = v;
        return true;
      }
      const ValueId term = p->inputs[side - 1];
      if (useCount(term) != 1) sum.notTaps = "a window is also read elsewhere";
      sum.taps.push_back(*t);
      if (top) {
        sum.nodes.insert(p);
        if (const Node* c = producerIn(r, term); c && products) sum.nodes.insert(c);
      }
      v = p->inputs[2 - side];
      continue;
    }
    if (counted(*p)) {  // every trip combines taps into the carried array, or the loop's result is the initial array
      const graph::Region& body = p->body();
      Scope inner = scope;
      inner.push_back(&body);
      const int64_t start = p->intAttr("start"), stop = p->intAttr("stop"), step = p->intAttr("step");
      const int64_t count = step > 0 ? (stop - start + step - 1) / step : (start - stop - step - 1) / -step;
      WindowSum trips;
      trips.nchw = sum.nchw;
      bool taps = count <= static_cast<int64_t>(kMaxTaps - sum.taps.size());
      for (int64_t c = start; taps && (step > 0 ? c < stop : c > stop); c += step) {
        Env e = env;
        e[body.arguments[0]] = c;
        taps = walkFrom(inner, body.yields[0], e, body.arguments[1], combine, products, trips, false) &&
               sum.taps.size() + trips.taps.size() <= kMaxTaps;
      }
      // the windowed arrays and weights must be defined outside the loop (the sum's replacement
      // reads them after it)
      for (const Tap& t : trips.taps) taps = taps && !definedIn(body, t.x) && !definedIn(body, t.w);
      if (!taps) {
        if (carried != kNothing || last) return false;
        sum.initial = v;
        return true;
      }
      sum.taps.insert(sum.taps.end(), trips.taps.begin(), trips.taps.end());
      if (!trips.notTaps.empty()) sum.notTaps = trips.notTaps;
      if (top) sum.nodes.insert(p);
      v = p->inputs[0];
      continue;
    }
    if (std::optional<Tap> t = tap(v); t && (products || !last)) {  // the first tap, onto nothing
      sum.taps.push_back(*t);
      if (top && products) sum.nodes.insert(p);
      return carried == kNothing || carried == kTapsOnly;
    }
    if (carried != kNothing || last) return false;
    sum.initial = v;
    return true;
  }
}

std::pair<ValueId, std::vector<int64_t>> WindowSums::unpadded(ValueId x, double value, bool nchw) const {
  const Node* p = producer({&g_.body}, x);
  if (p && p->op == "Pad" && p->inputs.size() == 1 && p->stringAttr("mode", "constant") == "constant" &&
      p->floatAttr("value") == value) {
    const std::vector<int64_t> pads = p->intListAttr("pads");
    const size_t rows = nchw ? 4 : 2, other = nchw ? 2 : 6;  // the row axis's pair, the other unpadded axis's
    if (pads.size() == 8 && pads[0] == 0 && pads[1] == 0 && pads[other] == 0 && pads[other + 1] == 0)
      return {p->inputs[0], {pads[rows], pads[rows + 1], pads[rows + 2], pads[rows + 3]}};
  }
  return {x, {0, 0, 0, 0}};
}

std::variant<std::string, AxisPadding> windowPadding(int64_t first, int64_t taps, int64_t dilation, int64_t stride, int64_t count,
                                                     int64_t extent, int64_t padding, int64_t padded, const std::string& what) {
  AxisPadding p;
  p.before = padding - first;
  if (stride < 1) return "a window steps backwards";
  if (p.before < 0) return "the windows skip the input's first " + what;
  if (first + dilation * (taps - 1) + stride * (count - 1) >= padded) return "the last window runs past the input's " + what;
  // the least padding after that gives the windows' count (what lies there is padding too)
  const int64_t span = dilation * (taps - 1) + 1;
  p.after = std::max<int64_t>(0, stride * (count - 1) + span - extent - p.before);
  if ((extent + p.before + p.after - span) / stride + 1 != count)
    return "the windows' count does not follow from their stride and the input's " + what;
  return p;
}

}  // namespace pyasc::codegen
