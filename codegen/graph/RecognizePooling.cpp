// Recognises max and average pooling written as maxima or sums of shifted windows.
#include "codegen/graph/RecognizePooling.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "codegen/graph/EliminateDeadNodes.h"
#include "codegen/graph/WindowSums.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

// The pooling a chain of windows is.
struct Pooling {
  std::string op;  // MaxPool2D or AvgPool2D
  ValueId input = -1;
  bool nchw = false;
  std::vector<int64_t> kernel, strides, pads;
};

class Recognizer {
 public:
  explicit Recognizer(graph::Graph& g) : g_(g), sums_(g) {}

  int recognized = 0;

  void region(graph::Region& r, Scope scope = {}) {
    scope.push_back(&r);
    for (Node& n : r.nodes)
      for (auto& sub : n.regions) region(sub, scope);
    std::map<size_t, Pooling> rewrites;  // at the node computing the pooling
    std::set<const Node*> taken, dropped;
    for (size_t i = r.nodes.size(); i-- > 0;) {  // from the last node back, as recognize-convolution
      Node& n = r.nodes[i];
      if (taken.count(&n) || n.outputs.size() != 1) continue;
      const auto mean = average(n);  // else a maximum
      const bool max = !mean;
      // windows of an NHWC array, else of an NCHW one
      WindowSum sum;
      auto walk = [&](bool nchw) {
        sum = WindowSum{};
        sum.nchw = nchw;
        return sums_.walk(scope, max ? n.outputs[0] : mean->first, max ? "Maximum" : "Add", false, sum) && sum.taps.size() >= 2;
      };
      if ((!walk(false) && !walk(true)) || (!max && sums_.useCount(mean->first) != 1))  // an average's sum is read by its division alone
        continue;
      if (!max) sum.nodes.insert(WindowSums::producer(scope, mean->first));
      taken.insert(sum.nodes.begin(), sum.nodes.end());
      std::string reason = sum.notTaps;
      std::optional<Pooling> pool;
      if (reason.empty()) pool = pooling(sum, max, max ? 0.0 : mean->second, g_.type(n.outputs[0]), reason);
      if (pool) {
        rewrites[i] = *pool;
        dropped.insert(sum.nodes.begin(), sum.nodes.end());
        dropped.erase(&n);
      } else {
        n.hints.push_back({kPoolingNearMissHint, reason});
      }
    }
    replaceSums(r, rewrites, dropped, [&](const auto& rewrite, const Node& n, std::vector<Node>& out) {
      emit(rewrite, n, out);
      ++recognized;
    });
  }

 private:
  // The sum `n` divides by a scalar float constant (or multiplies by one) and the divisor
  // (the reciprocal of the factor), or none.
  std::optional<std::pair<ValueId, double>> average(const Node& n) const {
    if ((n.op != "Div" && n.op != "Mul") || n.inputs.size() != 2) return std::nullopt;
    auto constant = [&](ValueId v) -> std::optional<double> {
      const graph::GraphConstant* c = g_.findConstant(v);
      const graph::TensorType& t = g_.type(v);
      if (!c || graph::elementCount(t.shape) != 1 || !isFloat(t.dtype)) return std::nullopt;
      return graph::decodeConstant(t.dtype, c->bytes).at(0);
    };
    if (auto c = constant(n.inputs[1])) return std::make_pair(n.inputs[0], n.op == "Div" ? *c : 1.0 / *c);
    if (auto c = constant(n.inputs[0]); c && n.op == "Mul") return std::make_pair(n.inputs[1], 1.0 / *c);
    return std::nullopt;
  }

  // The pooling the windows are, or the reason they are not one.
  std::optional<Pooling> pooling(const WindowSum& sum, bool max, double divisor, const graph::TensorType& y,
                                 std::string& reason) const {
    const Tap& t0 = sum.taps[0];
    for (const Tap& t : sum.taps) {
      if (t.x != t0.x) return fail(reason, "the windows are of different arrays");
      if (t.step != t0.step) return fail(reason, "the windows' strides differ");
      if (t.shape != y.shape) return fail(reason, "a window broadcasts against the result");
    }
    const graph::TensorType& xt = g_.type(t0.x);
    const size_t spatial = sum.nchw ? 2 : 1;  // the row axis
    if (!graph::isStaticShape(xt.shape) || !graph::isStaticShape(y.shape))
      return fail(reason, "the input has dimensions not known at compile time");
    if (xt.dtype != y.dtype || (y.dtype != DType::Float16 && y.dtype != DType::Float32))
      return fail(reason, "the windows and the result are not all float16 or all float32");
    // the windows of a kernel: every (row, column) of consecutive rows and columns, once (a
    // maximum's repeats change nothing)
    std::set<std::pair<int64_t, int64_t>> offsets;
    for (const Tap& t : sum.taps) {
      if (!offsets.insert({t.row, t.col}).second && !max) return fail(reason, "a window is added twice");
    }
    std::set<int64_t> rows, cols;
    for (const auto& [row, col] : offsets) {
      rows.insert(row);
      cols.insert(col);
    }
    const int64_t kh = static_cast<int64_t>(rows.size()), kw = static_cast<int64_t>(cols.size());
    if (*rows.rbegin() - *rows.begin() + 1 != kh || *cols.rbegin() - *cols.begin() + 1 != kw)
      return fail(reason, "the windows' rows or columns are not consecutive (pooling takes no dilation)");
    if (static_cast<int64_t>(offsets.size()) != kh * kw)
      return fail(reason, std::to_string(offsets.size()) + " windows are not every one of a " + std::to_string(kh) + "x" +
                              std::to_string(kw) + " kernel");
    // what the maximum or sum starts from: nothing, a window, -inf (maximum) or zeros (sum)
    const double start = max ? -std::numeric_limits<double>::infinity() : 0.0;
    if (sum.initial >= 0 && !filledWith(sum.initial, start, y))
      return fail(reason, max ? "the maximum starts from an array other than its windows or -inf"
                              : "the sum starts from an array other than zeros");
    if (!max && std::fabs(divisor - static_cast<double>(kh * kw)) > 1e-6 * static_cast<double>(kh * kw))
      return fail(reason, "the sum of " + std::to_string(kh * kw) + " windows is divided by " + graph::formatFloat(divisor, DType::Float64));
    Pooling pool;
    pool.op = max ? "MaxPool2D" : "AvgPool2D";
    pool.kernel = {kh, kw};
    pool.strides = t0.step;
    std::vector<int64_t> padding;
    std::tie(pool.input, padding) = sums_.unpadded(t0.x, start, sum.nchw);
    pool.nchw = sum.nchw;
    const graph::TensorType& it = g_.type(pool.input);
    for (size_t axis = 0; axis < 2; ++axis) {
      const std::string what = axis == 0 ? "rows" : "columns";
      const int64_t k = axis == 0 ? kh : kw;
      const auto p = windowPadding(axis == 0 ? *rows.begin() : *cols.begin(), k, 1, t0.step[axis], y.shape[spatial + axis].extent,
                                   it.shape[spatial + axis].extent, padding[2 * axis], xt.shape[spatial + axis].extent, what);
      if (const auto* why = std::get_if<std::string>(&p)) return fail(reason, *why);
      const AxisPadding pad = std::get<AxisPadding>(p);
      if (pad.before > k / 2 || pad.after > k / 2)
        return fail(reason, "the padding of the " + what + " is more than half the kernel");
      pool.pads.push_back(pad.before);
      pool.pads.push_back(pad.after);
    }
    return pool;
  }

  // Whether v is an array of y's shape filled with `value` (Fill, np.full, or a constant).
  bool filledWith(ValueId v, double value, const graph::TensorType& y) const {
    const Node* p = WindowSums::producer({&g_.body}, v);
    if (p && p->op == "Fill") return p->floatAttr("value") == value && g_.type(v).shape == y.shape;
    const graph::GraphConstant* c = g_.findConstant(v);
    if (!c) return false;
    const std::vector<double> values = graph::decodeConstant(g_.type(v).dtype, c->bytes);
    return values.size() == 1 && values[0] == value;
  }

  static std::optional<Pooling> fail(std::string& reason, const std::string& why) {
    reason = why;
    return std::nullopt;
  }

  void emit(const Pooling& p, const Node& last, std::vector<Node>& out) const {
    Node pool;
    pool.op = p.op;
    pool.inputs = {p.input};
    pool.outputs = last.outputs;
    pool.attrs = {{"kernel", p.kernel}, {"strides", p.strides}, {"pads", p.pads}, {"layout", std::string(p.nchw ? "NCHW" : "NHWC")}};
    pool.loc = last.loc;
    pool.hints = last.hints;
    pool.hints.push_back({kRecognizedPoolingHint, static_cast<int64_t>(last.loc.line)});
    out.push_back(std::move(pool));
  }

  graph::Graph& g_;
  WindowSums sums_;
};

}  // namespace

int recognizePooling(graph::Graph& graph) {
  Recognizer r(graph);
  r.region(graph.body);
  // the windows, pads and fills the replaced sums read go too, so that later stages (mixed
  // precision's reader counts) do not see them
  if (r.recognized > 0) eliminateDeadNodes(graph);
  return r.recognized;
}

}  // namespace pyasc::codegen
