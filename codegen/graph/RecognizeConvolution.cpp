// Recognises convolutions written as sums over kernel taps of window contractions.
#include "codegen/graph/RecognizeConvolution.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "codegen/graph/EliminateDeadNodes.h"
#include "codegen/graph/WindowSums.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

// The convolution a sum is.
struct Convolution {
  ValueId input = -1, weights = -1, initial = -1;
  std::optional<graph::TensorType> result;  // the NHWC result when the replaced node has another shape (im2col)
  std::vector<int64_t> weightPerm;  // the axes of `weights` to take as KH, KW, C (and F); empty: as they are
  bool zeroInitial = false;
  int64_t groups = 1;  // the channels of a depthwise convolution
  bool nchw = false;   // NCHW input and [F,C,KH,KW] weights
  std::vector<int64_t> strides, pads, dilations;
};

// A sliding-window contraction: the convolution it is, or why it is not one.
using Match = std::variant<std::string, Convolution>;

class Recognizer {
 public:
  explicit Recognizer(graph::Graph& g) : g_(g), sums_(g) {}

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
      if (std::optional<Match> m = windowedContraction(scope, n)) {  // sliding_window_view
        if (const auto* conv = std::get_if<Convolution>(&*m)) {
          rewrites[i] = *conv;
        } else {
          n.hints.push_back({kConvolutionNearMissHint, std::get<std::string>(*m)});
        }
        continue;
      }
      if (std::optional<Im2col> columns = im2col(scope, n)) {  // a matmul of stacked windows
        taken.insert(columns->product);
        std::string reason;
        if (std::optional<Convolution> conv = convolution(columns->sum, columns->result, reason)) {
          conv->result = columns->result;
          rewrites[i] = *conv;
        } else {
          n.hints.push_back({kConvolutionNearMissHint, reason});
        }
        continue;
      }
      WindowSum sum;
      if (!sums_.walk(scope, n.outputs[0], "Add", true, sum) || sum.taps.empty()) continue;
      // taps of [KH,KW,C,F] weights (several, or the one of a 1x1 kernel), or of a depthwise
      // kernel's [KH,KW,C] or [KH,KW,1,C] (several: one is a product by a vector), or one strided
      // window
      const bool depthwise = sum.taps[0].depthwise;
      const bool taps = std::all_of(sum.taps.begin(), sum.taps.end(), [&](const Tap& t) {
                          return t.depthwise == depthwise && (depthwise || g_.type(t.w).rank() == 4);
                        }) &&
                        (sum.taps.size() >= 2 || (!depthwise && oneByOne(sum.taps[0])));
      // (a single strided window's matrix is the weights: one defined inside a loop is not)
      const bool candidate = taps || (sum.taps.size() == 1 && !depthwise && !sum.taps[0].nchw && strided(sum.taps[0]) &&
                                      std::none_of(sum.nodes.begin(), sum.nodes.end(), [](const Node* p) { return p->isLoop(); }));
      if (!candidate) continue;
      if (!taps) {  // a 1x1 convolution of its matrix
        sum.taps[0].w = sum.taps[0].matrix;
        sum.taps[0].a = sum.taps[0].b = 0;
      }
      std::string reason = sum.notTaps;
      std::optional<Convolution> conv;
      if (reason.empty()) conv = convolution(sum, g_.type(n.outputs[0]), reason);
      // (a single tap that is not one, a product plus a bias for instance, may be one on its own)
      if (conv || sum.taps.size() >= 2) taken.insert(sum.nodes.begin(), sum.nodes.end());
      if (conv) {
        rewrites[i] = *conv;
        dropped_.insert(sum.nodes.begin(), sum.nodes.end());
        dropped_.erase(&n);
      } else if (taps && sum.taps.size() >= 2) {
        n.hints.push_back({kConvolutionNearMissHint, reason});
      }
    }
    replaceSums(r, rewrites, dropped_, [&](const auto& rewrite, const Node& n, std::vector<Node>& out) {
      emit(rewrite, n, out);
      ++recognized;
    });
    dropped_.clear();
    groupConvolutions(r);
  }

 private:
  // Grouped convolutions written as one convolution per group: np.concatenate over the channels
  // of G Conv2Ds of one layout with the same attributes, each of the next channel slice of one
  // input and the next output-channel slice of one [KH,KW,C/G,F] (NCHW: [F,C/G,KH,KW]) array (or
  // weights of their own, joined), each read only by the concatenation, becomes one Conv2D with
  // groups = G.
  void groupConvolutions(graph::Region& r) {
    const Scope here = {&r};
    // (the graph's reads are counted only for a region that concatenates convolutions)
    const bool concatenatesConvolutions = std::any_of(r.nodes.begin(), r.nodes.end(), [&](const Node& n) {
      if (n.op != "Concat") return false;
      const Node* p = n.inputs.empty() ? nullptr : WindowSums::producer(here, n.inputs[0]);
      return p && p->op == "Conv2D";
    });
    if (!concatenatesConvolutions) return;
    const std::map<ValueId, int> uses = graph::useCounts(g_);
    // the array x is a channel slice of, and where the slice starts and ends
    auto channels = [&](ValueId v, int64_t axis) -> std::optional<std::tuple<ValueId, int64_t, int64_t>> {
      const Node* s = WindowSums::producer(here, v);
      if (!s || s->op != "Slice" || s->inputs.size() != 1 || s->intListAttr("axes") != std::vector<int64_t>{axis} ||
          s->intListAttr("step") != std::vector<int64_t>{1})
        return std::nullopt;
      return std::make_tuple(s->inputs[0], s->intListAttr("begin")[0], s->intListAttr("end")[0]);
    };
    std::map<const Node*, Node> grouped;  // concatenation -> its grouped convolution
    std::set<const Node*> parts;
    for (const Node& cat : r.nodes) {
      if (cat.op != "Concat" || cat.inputs.size() < 2 || g_.type(cat.outputs[0]).rank() != 4) continue;
      std::vector<const Node*> convs;
      for (ValueId v : cat.inputs) {
        const Node* c = WindowSums::producer(here, v);
        auto u = uses.find(v);
        if (!c || c->op != "Conv2D" || c->intAttr("groups", 1) != 1 || u == uses.end() || u->second != 1 ||
            (!convs.empty() && c->stringAttr("layout", "NHWC") != convs[0]->stringAttr("layout", "NHWC")))
          break;
        convs.push_back(c);
      }
      if (convs.size() != cat.inputs.size()) continue;
      const Node& first = *convs[0];
      // the channel axis of the input and result, and the output-channel axis of the weights
      const bool nchw = first.stringAttr("layout", "NHWC") == "NCHW";
      const int64_t channelAxis = nchw ? 1 : 3, filterAxis = nchw ? 0 : 3;
      if (cat.intAttr("axis") != channelAxis && cat.intAttr("axis") != channelAxis - 4) continue;
      ValueId x = -1, w = -1;  // w stays -1 when the groups' weights are arrays of their own
      int64_t nextChannel = 0, nextFilter = 0;
      bool ok = true, sliced = true;
      for (const Node* c : convs) {
        for (const char* attr : {"strides", "pads", "dilations"}) ok = ok && c->intListAttr(attr) == first.intListAttr(attr);
        const auto in = channels(c->inputs[0], channelAxis);
        const auto k = channels(c->inputs[1], filterAxis);
        ok = ok && in && (x < 0 || std::get<0>(*in) == x) && std::get<1>(*in) == nextChannel &&
             g_.type(c->inputs[1]).shape == g_.type(first.inputs[1]).shape && g_.type(c->inputs[0]).shape == g_.type(first.inputs[0]).shape &&
             g_.type(c->inputs[1]).dtype == g_.type(first.inputs[1]).dtype && g_.type(c->outputs[0]).dtype == g_.type(first.outputs[0]).dtype;
        if (!ok) break;
        x = std::get<0>(*in);
        nextChannel = std::get<2>(*in);
        sliced = sliced && k && (w < 0 || std::get<0>(*k) == w) && std::get<1>(*k) == nextFilter;
        if (sliced) {
          w = std::get<0>(*k);
          nextFilter = std::get<2>(*k);
        }
      }
      if (!ok || nextChannel != g_.type(x).shape[static_cast<size_t>(channelAxis)].extent) continue;
      if (!sliced || nextFilter != g_.type(w).shape[static_cast<size_t>(filterAxis)].extent) w = -1;
      Node conv = first;
      conv.inputs = {x, w};
      conv.outputs = cat.outputs;
      conv.setAttr("groups", static_cast<int64_t>(convs.size()));
      if (w < 0) {  // the groups' weights joined along the output channels
        Node join;
        join.op = "Concat";
        join.setAttr("axis", filterAxis);
        for (const Node* c : convs) join.inputs.push_back(c->inputs[1]);
        graph::TensorType t = g_.type(first.inputs[1]);
        const size_t f = static_cast<size_t>(filterAxis);
        t.shape[f] = graph::Dim::known(t.shape[f].extent * static_cast<int64_t>(convs.size()));
        join.outputs = {g_.addValue(g_.value(cat.outputs[0]).name + "_weights", t, cat.loc)};
        join.loc = cat.loc;
        conv.inputs[1] = join.outputs[0];
        grouped[&cat] = std::move(join);  // placed before the convolution below
      }
      conv.loc = cat.loc;
      grouped_[&cat] = std::move(conv);
      parts.insert(convs.begin(), convs.end());
    }
    if (grouped_.empty()) return;
    std::vector<Node> out;
    for (Node& n : r.nodes) {
      if (parts.count(&n)) continue;
      auto g = grouped_.find(&n);
      if (g == grouped_.end()) {
        out.push_back(std::move(n));
        continue;
      }
      if (auto j = grouped.find(&n); j != grouped.end()) out.push_back(std::move(j->second));
      out.push_back(std::move(g->second));
    }
    grouped_.clear();
    r.nodes = std::move(out);
  }

  static bool strided(const Tap& t) { return t.step[0] > 1 || t.step[1] > 1; }

  // Whether a tap's weights are the whole of a 1x1 kernel ([1,1,C,F]; NCHW [F,C,1,1]).
  bool oneByOne(const Tap& t) const {
    const graph::TensorType& w = g_.type(t.w);
    if (w.rank() != 4 || !graph::isStaticShape(w.shape)) return false;
    const size_t kernel = t.nchw ? 2 : 0;
    return w.shape[kernel].extent == 1 && w.shape[kernel + 1].extent == 1;
  }

  // A contraction of every window np.lib.stride_tricks.sliding_window_view(x, (KH, KW), axis=(1, 2))
  // of an NHWC array (strided by a slice [:, ::s, ::s'] or not) with kernel weights over the
  // channel and both window axes (np.einsum "nhwcij,ijcf->nhwf", any label order of the weights,
  // or np.tensordot), or, depthwise, over the window axes only ("nhwcij,ijc->nhwc"): the
  // convolution it is.
  std::optional<Match> windowedContraction(const Scope& scope, const Node& n) const {
    if ((n.op != "Einsum" && n.op != "TensorDot") || n.inputs.size() != 2 || n.outputs.size() != 1) return std::nullopt;
    const Node* v = WindowSums::producer(scope, n.inputs[0]);
    std::vector<int64_t> step = {1, 1}, begin = {0, 0};
    if (v && v->op == "Slice" && v->intListAttr("dynamic_axes").empty() && v->intListAttr("axes") == std::vector<int64_t>{1, 2}) {
      step = v->intListAttr("step");
      begin = v->intListAttr("begin");
      v = WindowSums::producer(scope, v->inputs[0]);
    }
    if (!v || v->op != "SlidingWindowView" || g_.type(v->inputs[0]).rank() != 4) return std::nullopt;
    // from here on, each failed condition is the reason it is not a convolution
    const Match contraction{std::string("the contraction is not over the windows' channel and window axes with kernel weights")};
    if (v->intListAttr("axes") != std::vector<int64_t>{1, 2} || v->intListAttr("window_shape").size() != 2)
      return Match{std::string("the windows slide over axes other than (1, 2) of an NHWC array")};
    const ValueId w = n.inputs[1];
    const int wrank = g_.type(w).rank();
    // which axis of w pairs with the view's channel, row and column axes (3, 4 and 5 of its 0-5)
    std::map<int64_t, int64_t> pair;
    if (n.op == "TensorDot") {
      const std::vector<int64_t> a = n.intListAttr("axes_a"), b = n.intListAttr("axes_b");
      if (a.size() != 3 || b.size() != 3 || wrank != 4) return contraction;
      for (size_t k = 0; k < 3; ++k) pair[a[k] < 0 ? a[k] + 6 : a[k]] = b[k] < 0 ? b[k] + wrank : b[k];
      if (pair.size() != 3 || !pair.count(3) || !pair.count(4) || !pair.count(5)) return contraction;
    } else {
      const std::string e = n.stringAttr("equation");
      const size_t comma = e.find(','), arrow = e.find("->");
      if (comma != 6 || arrow == std::string::npos) return contraction;
      const std::string a = e.substr(0, 6), b = e.substr(7, arrow - 7), out = e.substr(arrow + 2);
      for (char c : a)
        if (std::count(a.begin(), a.end(), c) != 1) return contraction;
      for (int64_t k = 3; k < 6; ++k) {
        const size_t at = b.find(a[static_cast<size_t>(k)]);
        if (at == std::string::npos) return contraction;
        pair[k] = static_cast<int64_t>(at);
      }
      if (static_cast<int>(b.size()) != wrank || (wrank != 3 && wrank != 4)) return contraction;
      if (std::set<int64_t>{pair[3], pair[4], pair[5]}.size() != 3) return contraction;
      if (wrank == 4) {  // the output channel: w's one label the view does not have
        const char f = b[static_cast<size_t>(6 - pair[3] - pair[4] - pair[5])];
        if (a.find(f) != std::string::npos || out != a.substr(0, 3) + f) return contraction;
      } else if (out != a.substr(0, 4)) {
        return contraction;
      }
    }
    if (std::set<int64_t>{pair[3], pair[4], pair[5]}.size() != 3 || (wrank != 3 && wrank != 4)) return contraction;
    Convolution conv;
    conv.weightPerm = {pair[4], pair[5], pair[3]};
    if (wrank == 4) conv.weightPerm.push_back(6 - pair[3] - pair[4] - pair[5]);
    const graph::TensorType &xt = g_.type(v->inputs[0]), &wt = g_.type(w), &y = g_.type(n.outputs[0]);
    if (!graph::isStaticShape(xt.shape) || !graph::isStaticShape(wt.shape) || !graph::isStaticShape(y.shape) ||
        xt.dtype != y.dtype || wt.dtype != y.dtype || (y.dtype != DType::Float16 && y.dtype != DType::Float32) || step[0] < 1 ||
        step[1] < 1)
      return Match{std::string("the input, weights and result are not all float16 or all float32, or not of known shapes")};
    const std::vector<int64_t> window = v->intListAttr("window_shape");
    std::vector<int64_t> padding;
    std::tie(conv.input, padding) = sums_.unpadded(v->inputs[0], 0.0);
    for (size_t axis = 0; axis < 2; ++axis) {
      const std::string what = axis == 0 ? "rows" : "columns";
      const auto p = windowPadding(begin[axis], window[axis], 1, step[axis], y.shape[1 + axis].extent,
                                   g_.type(conv.input).shape[1 + axis].extent, padding[2 * axis], xt.shape[1 + axis].extent, what);
      if (const auto* why = std::get_if<std::string>(&p)) return Match{*why};
      const AxisPadding pad = std::get<AxisPadding>(p);
      if (pad.before > 63 || pad.after > 63 || pad.before >= window[axis] || pad.after >= window[axis])
        return Match{"the padding of the " + what + " reaches beyond the kernel's extent"};
      conv.pads.push_back(pad.before);
      conv.pads.push_back(pad.after);
    }
    conv.strides = step;
    conv.dilations = {1, 1};
    conv.weights = w;
    conv.groups = wrank == 3 ? xt.shape[3].extent : 1;
    conv.zeroInitial = true;
    return Match{conv};
  }

  // im2col written out: np.stack of T windows of an NHWC array at axis 3, flattened to rows of
  // T·C columns, times a [KH,KW,C,F] array flattened to KH·KW·C rows (T = KH·KW), the product
  // reshaped (or not): the taps it multiplies (column block t = a·KW + b meeting w[a, b]), the
  // NHWC result of their convolution and the matmul; none when `n` is not that product.
  struct Im2col {
    WindowSum sum;
    graph::TensorType result;
    const Node* product = nullptr;
  };
  std::optional<Im2col> im2col(const Scope& scope, const Node& n) const {
    const Node* mm = &n;
    if (n.op == "Reshape" && n.inputs.size() == 1) mm = WindowSums::producer(scope, n.inputs[0]);
    if (!mm || mm->op != "MatMul" || mm->inputs.size() != 2 || g_.type(mm->outputs[0]).rank() != 2) return std::nullopt;
    const Node* rows = WindowSums::producer(scope, mm->inputs[0]);
    const Node* kernel = WindowSums::producer(scope, mm->inputs[1]);
    if (!rows || !kernel || rows->op != "Reshape" || kernel->op != "Reshape") return std::nullopt;
    const ValueId w = kernel->inputs[0], columns = rows->inputs[0];
    const graph::TensorType &wt = g_.type(w), &cols = g_.type(columns);
    if (wt.rank() != 4 || !graph::isStaticShape(wt.shape) || !graph::isStaticShape(cols.shape) || cols.rank() < 5 || cols.rank() > 6)
      return std::nullopt;
    const int64_t kw = wt.shape[1].extent, c = wt.shape[2].extent, t = wt.shape[0].extent * kw;
    // the flattening: rows of one output position each, columns (tap, channel) against (a, b, c)
    const graph::TensorType &a = g_.type(mm->inputs[0]), &b = g_.type(mm->inputs[1]);
    if (a.rank() != 2 || b.rank() != 2 || a.shape[1].extent != t * c || b.shape[0].extent != t * c ||
        a.shape[0].extent != cols.shape[0].extent * cols.shape[1].extent * cols.shape[2].extent ||
        graph::elementCount(cols.shape) != a.shape[0].extent * t * c)
      return std::nullopt;
    Im2col found;
    found.product = mm;
    found.result = cols;
    found.result.shape.resize(4);
    found.result.shape[3] = g_.type(mm->outputs[0]).shape[1];
    found.result.dtype = g_.type(mm->outputs[0]).dtype;
    graph::Shape window(cols.shape.begin(), cols.shape.begin() + 3);  // what each window must be: [N, OH, OW, C]
    window.push_back(graph::Dim::known(c));
    auto add = [&](Tap tap, int64_t index) {
      tap.w = w;
      tap.a = index / kw;
      tap.b = index % kw;
      if (tap.shape != window) return false;
      tap.shape = found.result.shape;  // it fills its block of the columns
      found.sum.taps.push_back(tap);
      return true;
    };
    const Node* stack = WindowSums::producer(scope, columns);
    if (stack && stack->op == "Stack") {  // np.stack of the windows at axis 3
      const int64_t axis = stack->intAttr("axis");
      if (cols.rank() != 5 || (axis != 3 && axis != -2)) return std::nullopt;
      for (size_t k = 0; k < stack->inputs.size(); ++k) {
        std::optional<Tap> tap = sums_.window(scope, stack->inputs[k]);
        if (!tap || !add(*tap, static_cast<int64_t>(k))) return std::nullopt;
      }
      return found;
    }
    // windows written into a preallocated array: cols[:, :, :, i, j, :] ([N,OH,OW,KH,KW,C]) or
    // cols[:, :, :, t, :] ([N,OH,OW,T,C])
    WindowSum written;
    if (!sums_.walk(scope, columns, "SliceUpdate", false, written) || written.taps.empty()) return std::nullopt;
    for (const Tap& tap : written.taps) {
      int64_t index = -1;
      const auto& slot = tap.slot;
      if (cols.rank() == 6 && slot.size() == 2 && slot[0].axis == 3 && slot[1].axis == 4 && slot[0].extent == 1 && slot[1].extent == 1 &&
          cols.shape[4].extent == kw)
        index = slot[0].at * kw + slot[1].at;
      if (cols.rank() == 5 && slot.size() == 1 && slot[0].axis == 3 && slot[0].extent == 1) index = slot[0].at;
      if (index < 0 || !add(tap, index)) return std::nullopt;
    }
    return found;
  }

  // The convolution the sum of taps is, or the reason it is not one.
  std::optional<Convolution> convolution(const WindowSum& sum, const graph::TensorType& y, std::string& reason) const {
    const Tap& t0 = sum.taps[0];
    for (const Tap& t : sum.taps) {
      if (t.x != t0.x) return fail(reason, "the taps read windows of different arrays");
      if (t.w != t0.w) return fail(reason, "the taps' weights are slices of different arrays");
      if (t.step != t0.step) return fail(reason, "the windows' strides differ between taps");
      if (t.nchw != t0.nchw) return fail(reason, "the taps mix NHWC and NCHW windows");
      if (t.shape != y.shape) return fail(reason, "a tap's product broadcasts against the sum");
    }
    // the first row axis of x and of w ([KH,KW,C,F] or [KH,KW,C]; NCHW [F,C,KH,KW] or depthwise [C,KH,KW])
    const size_t spatial = t0.nchw ? 2 : 1, kernelAxis = !t0.nchw ? 0 : g_.type(t0.w).rank() == 3 ? 1 : 2;
    const size_t channelAxis = t0.nchw ? 1 : 3;
    const graph::TensorType &xt = g_.type(t0.x), &wt = g_.type(t0.w);
    if (!graph::isStaticShape(xt.shape) || !graph::isStaticShape(wt.shape) || !graph::isStaticShape(y.shape))
      return fail(reason, "the input or weights have dimensions not known at compile time");
    if (xt.dtype != y.dtype || wt.dtype != y.dtype || (y.dtype != DType::Float16 && y.dtype != DType::Float32))
      return fail(reason, "the input, weights and sum are not all float16 or all float32");
    const int64_t kh = wt.rank() >= 3 ? wt.shape[kernelAxis].extent : 1, kw = wt.rank() >= 3 ? wt.shape[kernelAxis + 1].extent : 1;
    if (t0.depthwise && wt.shape[t0.nchw ? 0 : wt.shape.size() - 1].extent != xt.shape[channelAxis].extent)
      return fail(reason, "the depthwise weights' channels are not the input's");
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
    std::vector<int64_t> padding;
    std::tie(conv.input, padding) = sums_.unpadded(t0.x, 0.0, t0.nchw);
    const graph::TensorType& it = g_.type(conv.input);
    for (size_t axis = 0; axis < 2; ++axis) {
      const int64_t k = axis == 0 ? kh : kw, d = axis == 0 ? dh : dw;
      const std::string what = axis == 0 ? "rows" : "columns";
      const auto p = windowPadding(axis == 0 ? origin.row : origin.col, k, d, t0.step[axis], y.shape[spatial + axis].extent,
                                   it.shape[spatial + axis].extent, padding[2 * axis], xt.shape[spatial + axis].extent, what);
      if (const auto* why = std::get_if<std::string>(&p)) return fail(reason, *why);
      const AxisPadding pad = std::get<AxisPadding>(p);
      const int64_t span = d * (k - 1) + 1;
      if (pad.before > 63 || pad.after > 63 || pad.before >= span || pad.after >= span)
        return fail(reason, "the padding of the " + what + " reaches beyond the kernel's extent");
      conv.strides.push_back(t0.step[axis]);
      conv.dilations.push_back(d);
      conv.pads.push_back(pad.before);
      conv.pads.push_back(pad.after);
    }
    conv.weights = t0.w;
    conv.groups = t0.depthwise ? xt.shape[channelAxis].extent : 1;
    conv.nchw = t0.nchw;
    conv.initial = sum.initial;
    const Node* init = sum.initial < 0 ? nullptr : WindowSums::producer({&g_.body}, sum.initial);
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
  // [1,1,C,F], depthwise [KH,KW,C] weights to [KH,KW,1,C]), and the add of the initial array
  // unless it is zeros.
  void emit(const Convolution& c, const Node& last, std::vector<Node>& out) {
    Node conv;
    conv.op = "Conv2D";
    conv.inputs = {c.input, c.weights};
    std::vector<int64_t> identity(c.weightPerm.size());
    std::iota(identity.begin(), identity.end(), 0);
    if (c.weightPerm != identity) {  // the weights' axes in kernel order
      graph::TensorType t = g_.type(c.weights);
      for (size_t k = 0; k < c.weightPerm.size(); ++k) t.shape[k] = g_.type(c.weights).shape[static_cast<size_t>(c.weightPerm[k])];
      Node transpose;
      transpose.op = "Transpose";
      transpose.inputs = {c.weights};
      transpose.attrs = {{"perm", c.weightPerm}};
      transpose.outputs = {g_.addValue(g_.value(c.weights).name + "_kernel", t, last.loc)};
      transpose.loc = last.loc;
      conv.inputs[1] = transpose.outputs[0];
      out.push_back(std::move(transpose));
    }
    const int rank = g_.type(conv.inputs[1]).rank();
    if (rank != 4) {
      graph::TensorType t = g_.type(conv.inputs[1]);
      // [C,F] → [1,1,C,F]; depthwise [KH,KW,C] → [KH,KW,1,C], NCHW [C,KH,KW] → [C,1,KH,KW]
      t.shape.insert(t.shape.begin() + (rank == 2 ? 0 : c.nchw ? 1 : 2), static_cast<size_t>(4 - rank), graph::Dim::known(1));
      Node reshape;
      reshape.op = "Reshape";
      reshape.inputs = {conv.inputs[1]};
      reshape.attrs = {{"shape", std::vector<int64_t>{t.shape[0].extent, t.shape[1].extent, t.shape[2].extent, t.shape[3].extent}}};
      reshape.outputs = {g_.addValue(g_.value(conv.inputs[1]).name + (rank == 2 ? "_1x1" : "_depthwise"), t, last.loc)};
      reshape.loc = last.loc;
      conv.inputs[1] = reshape.outputs[0];
      out.push_back(std::move(reshape));
    }
    conv.attrs = {{"strides", c.strides}, {"pads", c.pads}, {"dilations", c.dilations}, {"groups", c.groups},
                  {"layout", std::string(c.nchw ? "NCHW" : "NHWC")}};
    conv.loc = last.loc;
    conv.hints = last.hints;
    conv.hints.push_back({kRecognizedConvolutionHint, static_cast<int64_t>(last.loc.line)});
    const ValueId result = last.outputs[0];
    if (c.result && c.result->shape != g_.type(result).shape) {  // the NHWC result reshaped as the node's was
      const ValueId nhwc = g_.addValue(g_.value(result).name + "_nhwc", *c.result, last.loc);
      conv.outputs = {nhwc};
      Node reshape;
      reshape.op = "Reshape";
      reshape.inputs = {nhwc};
      std::vector<int64_t> shape;
      for (const graph::Dim& d : g_.type(result).shape) shape.push_back(d.extent);
      reshape.attrs = {{"shape", shape}};
      reshape.outputs = {result};
      reshape.loc = last.loc;
      out.push_back(std::move(conv));
      out.push_back(std::move(reshape));
      return;
    }
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
  WindowSums sums_;
  std::set<const Node*> dropped_;  // nodes of the region being rewritten that a sum replaces
  std::map<const Node*, Node> grouped_;  // concatenations of the region that a grouped convolution replaces
};

}  // namespace

int recognizeConvolutions(graph::Graph& graph) {
  Recognizer r(graph);
  r.region(graph.body);
  // the windows, pads and fills the replaced sums read go too, so that later stages (mixed
  // precision's reader counts) do not see them
  if (r.recognized > 0) eliminateDeadNodes(graph);
  return r.recognized;
}

}  // namespace pyasc::codegen
