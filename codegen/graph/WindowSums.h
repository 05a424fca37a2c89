// What the passes that recognise window idioms written in NumPy (recognize-convolution,
// recognize-pooling) share: a chain of adds or maxima of windows x[:, r : … : s, c : … : s', :] of
// an NHWC array, plain or contracted with weights, walked through counted loops with their offsets
// evaluated exactly for every trip, and the geometry of the windows along one axis.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// A window x[:, row : … : step[0], col : … : step[1], :] of an NHWC array, and the weights it is
// contracted with: w[a, b] of a [KH,KW,C,F] array, or the [C,F] matrix w itself (a = b = 0); w is
// -1 for a plain window.
struct Tap {
  graph::ValueId x = -1, w = -1;
  graph::ValueId matrix = -1;  // the [C,F] operand itself
  int64_t row = 0, col = 0, a = 0, b = 0;
  std::vector<int64_t> step = {1, 1};
  // multiplied channel by channel by w[a, b] of a [KH,KW,C] or [KH,KW,1,C] array (a depthwise
  // convolution's tap) instead of contracted
  bool depthwise = false;
  // an NCHW window x[:, :, row…, col…] contracted over its channels with w[:, :, a, b] of an
  // [F,C,KH,KW] array
  bool nchw = false;
  graph::Shape shape;  // the term's own shape (one that broadcasts against the sum is not a window of it)
  // where a SliceUpdate chain writes the window: (axis, first index, extent) per updated axis
  struct Slot {
    int64_t axis, at, extent;
  };
  std::vector<Slot> slot;
};

// A chain of one combining operator (Add, Maximum) over taps: its taps, the array it starts from
// (-1: the first tap), the nodes of the top region it consists of, and why it cannot be rewritten
// whatever its taps (empty when it can).
struct WindowSum {
  bool nchw = false;  // asked for: plain windows are of NCHW arrays (their spatial axes 2 and 3)
  std::vector<Tap> taps;
  graph::ValueId initial = -1;
  std::set<const graph::Node*> nodes;
  std::string notTaps;
};

using Scope = std::vector<const graph::Region*>;  // innermost last

class WindowSums {
 public:
  explicit WindowSums(const graph::Graph& g) : g_(g), uses_(graph::useCounts(g)) {}

  // Walks the chain computing `v` in the innermost region of `scope`: `combine` nodes (Add or
  // Maximum) with one tap operand (or one operand a chain of taps alone: trees; SliceUpdate: a
  // window, np.expand_dims'ed or not, written into a slot of the carried array), and counted loops
  // whose every trip combines taps into their carried array, back to the array it starts from.
  // Taps are products (`products`: channel contractions by @, np.matmul, np.dot, einsum
  // "nhwc,cf->nhwf" or tensordot over axes 3 and 0, or window * w[a, b] channel by channel; NCHW:
  // einsum "nchw,fc->nfhw" of a window x[:, :, r…, c…] with w[:, :, a, b], or the window times
  // w[:, a, b] of a [C,KH,KW] array, or w[:, 0, a, b] of a [C,1,KH,KW] one, broadcast) or
  // plain windows. Each intermediate must be read once. False when v is not such a chain at all.
  bool walk(const Scope& scope, graph::ValueId v, const std::string& combine, bool products, WindowSum& sum) const;

  // The array under `x` when x is np.pad of it with the constant `value` on the two spatial axes
  // only (1 and 2, or 2 and 3 with `nchw`), and that padding (top, bottom, left, right); else x
  // and no padding.
  std::pair<graph::ValueId, std::vector<int64_t>> unpadded(graph::ValueId x, double value, bool nchw = false) const;

  static const graph::Node* producer(const Scope& scope, graph::ValueId v);

  // How many times v is read (graph::useCounts before any rewrite).
  int useCount(graph::ValueId v) const;

  // The most taps a walk enumerates (loops beyond it are not sums of kernel taps).
  static constexpr size_t kMaxTaps = 4096;

  // The window a slice outside loops is (a tap without weights), if it is one.
  std::optional<Tap> window(const Scope& scope, graph::ValueId v) const { return window(scope, v, {}, false); }

 private:
  using Env = std::map<graph::ValueId, int64_t>;  // loop counters' values
  static constexpr graph::ValueId kNothing = -1, kTapsOnly = -2;  // what a walk stops at besides a loop's accumulator
  bool walkFrom(const Scope& scope, graph::ValueId v, const Env& env, graph::ValueId carried, const std::string& combine,
                bool products, WindowSum& sum, bool top) const;
  std::optional<int64_t> scalar(const Scope& scope, graph::ValueId v, const Env& env) const;
  std::optional<int64_t> start(const Scope& scope, const graph::Node& s, size_t k, const Env& env, size_t first) const;
  std::optional<Tap> window(const Scope& scope, graph::ValueId v, const Env& env, bool whole, bool nchw = false) const;
  std::optional<Tap> product(const Scope& scope, graph::ValueId v, const Env& env) const;
  bool tapWeights(const Scope& scope, graph::ValueId v, const Env& env, Tap& t) const;
  bool depthwiseNchwWeights(const Scope& scope, graph::ValueId v, const Env& env, Tap& t) const;
  bool channelContraction(const graph::Node& n) const;
  bool nchwContraction(const graph::Node& n) const;

  const graph::Graph& g_;
  std::map<graph::ValueId, int> uses_;
};

// Puts in place of each node of `r` at an index of `rewrites` what `emit(rewrite, node, out)`
// appends to `out`, and drops the nodes in `dropped` (the rest of the chains they replace).
template <class Rewrite, class Emit>
void replaceSums(graph::Region& r, const std::map<size_t, Rewrite>& rewrites, const std::set<const graph::Node*>& dropped,
                 Emit emit) {
  std::vector<graph::Node> out;
  for (size_t i = 0; i < r.nodes.size(); ++i) {
    if (dropped.count(&r.nodes[i])) continue;
    if (auto it = rewrites.find(i); it != rewrites.end()) {
      emit(it->second, r.nodes[i], out);
    } else {
      out.push_back(std::move(r.nodes[i]));
    }
  }
  r.nodes = std::move(out);
}

// Windows along one axis: the first starts at `first` of the (padded) array of extent `padded`,
// `count` of them `stride` apart, each `taps` elements `dilation` apart; `padding` of the array's
// extent `extent` lies before it. The padding before and after the unpadded array that an
// operator with those strides and dilation needs for the same windows, or why there is none.
struct AxisPadding {
  int64_t before = 0, after = 0;
};
std::variant<std::string, AxisPadding> windowPadding(int64_t first, int64_t taps, int64_t dilation, int64_t stride, int64_t count,
                                                     int64_t extent, int64_t padding, int64_t padded, const std::string& what);

}  // namespace pyasc::codegen
