// keep-nhwc: NCHW convolutions as NHWC ones, with the activations between them kept in NHWC.
#include "codegen/graph/KeepNhwc.h"

#include <map>
#include <set>

#include "codegen/graph/SymbolicShapes.h"
#include "ops/Elementwise.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

bool isNchwWindow(const Node& n) {
  return (n.op == "Conv2D" || n.op == "MaxPool2D" || n.op == "AvgPool2D") && n.stringAttr("layout", "NHWC") == "NCHW" &&
         n.outputs.size() == 1;
}

class Rewriter {
 public:
  explicit Rewriter(graph::Graph& g) : g_(g) {}

  int run() {
    if (!g_.symbols.empty()) return 0;  // (dynamic shapes compile NHWC convolutions only)
    graph::Region& r = g_.body;
    decide(r);
    if (twinned_.empty()) return 0;
    std::vector<Node> out;
    int converted = 0;
    for (Node& n : r.nodes) {
      const ValueId result = n.outputs.empty() ? graph::kNoValue : n.outputs[0];
      if (spatialReductions_.count(result)) {  // the same [N, C] from the twin's rows and columns
        n.inputs[0] = twin_.at(n.inputs[0]);
        n.setAttr("axes", std::vector<int64_t>{1, 2});
        out.push_back(std::move(n));
        continue;
      }
      if (!twinned_.count(result)) {
        out.push_back(std::move(n));
        continue;
      }
      converted += isNchwWindow(n);
      emitTwin(n, out);
      if (readInNchw_.count(n.outputs[0])) toNchw(n.outputs[0], n.loc, out);
    }
    r.nodes = std::move(out);
    return converted;
  }

 private:
  // Which values get a twin, and which of them something reads in NCHW.
  void decide(const graph::Region& r) {
    for (const Node& n : r.nodes) {
      if (n.outputs.size() == 1 && rank4(n.outputs[0]) && staticValue(n.outputs[0])) {
        const bool conv = isNchwWindow(n) && (n.op == "Conv2D" || twinned_.count(n.inputs[0]));
        if (conv || (ops::isElementwiseOp(n.op) && elementwiseTakesTwins(n))) twinned_.insert(n.outputs[0]);
        if (conv) transposed_.insert(n.inputs[0]);
      }
    }
    const std::map<ValueId, int> uses = graph::useCounts(g_);
    std::map<ValueId, int> twinReads;
    for (const Node& n : r.nodes) {
      if (spatialReduction(n)) {
        spatialReductions_.insert(n.outputs[0]);
        ++twinReads[n.inputs[0]];
      }
      if (n.outputs.size() != 1 || !twinned_.count(n.outputs[0])) continue;
      if (isNchwWindow(n)) {
        ++twinReads[n.inputs[0]];
        continue;
      }
      for (ValueId v : n.inputs)
        if (twinned_.count(v)) ++twinReads[v];
    }
    for (ValueId v : twinned_) {
      auto u = uses.find(v);
      if (u != uses.end() && u->second > twinReads[v]) readInNchw_.insert(v);
    }
  }

  // A sum, mean, maximum or minimum of a twin over its rows and columns (axes 2 and 3, not kept):
  // the same [N, C] as the twin's over axes 1 and 2.
  bool spatialReduction(const Node& n) const {
    static const std::set<std::string> reductions = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"};
    return reductions.count(n.op) && n.inputs.size() == 1 && n.outputs.size() == 1 && twinned_.count(n.inputs[0]) &&
           !n.boolAttr("keepdims") && reducedAxes(n, 4) == std::vector<int64_t>{2, 3};
  }

  bool rank4(ValueId v) const { return g_.type(v).rank() == 4; }
  bool staticValue(ValueId v) const { return graph::isStaticShape(g_.type(v).shape); }

  // [1 or N, C, 1, 1] against the NCHW result `of`: a per-channel value, the same elements as
  // [1 or N, 1, 1, C].
  bool perChannel(ValueId v, ValueId of) const {
    std::vector<int64_t> s = graph::extents(g_.type(v).shape);
    const std::vector<int64_t> o = graph::extents(g_.type(of).shape);
    if (s.size() > 4) return false;
    s.insert(s.begin(), 4 - s.size(), 1);
    return (s[0] == 1 || s[0] == o[0]) && s[1] == o[1] && s[2] == 1 && s[3] == 1;
  }

  // An elementwise node reading at least one twin (or a convolution's input, transposed for it
  // already), each of the result's shape, and otherwise one-element and per-channel values.
  bool elementwiseTakesTwins(const Node& n) const {
    bool twin = false;
    for (ValueId v : n.inputs) {
      if (twinned_.count(v) || transposed_.count(v)) {
        if (g_.type(v).shape != g_.type(n.outputs[0]).shape) return false;
        twin = true;
      } else if (!staticValue(v) || (graph::elementCount(g_.type(v).shape) != 1 && !perChannel(v, n.outputs[0]))) {
        return false;
      }
    }
    return twin;
  }

  ValueId addNode(const std::string& op, std::vector<ValueId> inputs, std::vector<graph::NamedAttr> attrs, const std::string& name,
                  const std::vector<int64_t>& shape, DType dtype, const SourceLocation& loc, std::vector<Node>& out) {
    Node n;
    n.op = op;
    n.inputs = std::move(inputs);
    n.attrs = std::move(attrs);
    graph::TensorType t;
    t.dtype = dtype;
    t.shape = graph::knownShape(shape);
    n.outputs = {g_.addValue(name, t, loc)};
    n.loc = loc;
    out.push_back(std::move(n));
    return out.back().outputs[0];
  }

  ValueId reshape(ValueId v, const std::vector<int64_t>& shape, const std::string& name, const SourceLocation& loc,
                  std::vector<Node>& out) {
    return addNode("Reshape", {v}, {{"shape", shape}}, name, shape, g_.type(v).dtype, loc, out);
  }

  // [A, B, C] → [A, C, B]: rows of B·C elements turned, a batched transpose the copy kernel moves
  // in tiles (a reshape when B or C is 1).
  ValueId swapLast(ValueId v, const std::string& name, const SourceLocation& loc, std::vector<Node>& out) {
    std::vector<int64_t> s = graph::extents(g_.type(v).shape);
    std::swap(s[1], s[2]);
    if (s[1] == 1 || s[2] == 1) return reshape(v, s, name, loc, out);
    return addNode("Transpose", {v}, {{"perm", std::vector<int64_t>{0, 2, 1}}}, name, s, g_.type(v).dtype, loc, out);
  }

  // The twin of NCHW value `v`: computed already, or `v` transposed (once).
  ValueId twinOf(ValueId v, const SourceLocation& loc, std::vector<Node>& out) {
    if (auto it = twin_.find(v); it != twin_.end()) return it->second;
    const std::vector<int64_t> s = graph::extents(g_.type(v).shape);
    const std::string name = g_.value(v).name + "_nhwc";
    ValueId rows = reshape(v, {s[0], s[1], s[2] * s[3]}, name, loc, out);
    ValueId turned = swapLast(rows, name, loc, out);
    return twin_[v] = reshape(turned, {s[0], s[2], s[3], s[1]}, name, loc, out);
  }

  // NCHW value `v` (its original id) from its twin.
  void toNchw(ValueId v, const SourceLocation& loc, std::vector<Node>& out) {
    const std::vector<int64_t> s = graph::extents(g_.type(v).shape);
    const std::string name = g_.value(v).name + "_nchw";
    ValueId rows = reshape(twin_.at(v), {s[0], s[2] * s[3], s[1]}, name, loc, out);
    ValueId turned = swapLast(rows, name, loc, out);
    Node back;
    back.op = "Reshape";
    back.inputs = {turned};
    back.attrs = {{"shape", s}};
    back.outputs = {v};
    back.loc = loc;
    out.push_back(std::move(back));
  }

  // [F, C/g, KH, KW] weights as [KH, KW, C/g, F]: [F·C/g, KH·KW] turned, then each tap's [F, C/g].
  ValueId hwio(ValueId w, const SourceLocation& loc, std::vector<Node>& out) {
    const std::vector<int64_t> s = graph::extents(g_.type(w).shape);
    const std::string name = g_.value(w).name + "_hwio";
    ValueId taps = reshape(w, {1, s[0] * s[1], s[2] * s[3]}, name, loc, out);
    ValueId tapMajor = swapLast(taps, name, loc, out);  // [1, KH·KW, F·C/g]
    ValueId perTap = reshape(tapMajor, {s[2] * s[3], s[0], s[1]}, name, loc, out);
    ValueId turned = swapLast(perTap, name, loc, out);  // [KH·KW, C/g, F]
    return reshape(turned, {s[2], s[3], s[1], s[0]}, name, loc, out);
  }

  // `n` in NHWC, computing the twin of its result.
  void emitTwin(const Node& n, std::vector<Node>& out) {
    const ValueId result = n.outputs[0];
    const std::vector<int64_t> s = graph::extents(g_.type(result).shape);
    Node twin = n;
    twin.inputs.clear();
    if (isNchwWindow(n)) {
      twin.inputs.push_back(twinOf(n.inputs[0], n.loc, out));
      if (n.op == "Conv2D") twin.inputs.push_back(hwio(n.inputs[1], n.loc, out));
      twin.setAttr("layout", std::string("NHWC"));
      twin.hints.push_back({kKeptNhwcHint, static_cast<int64_t>(n.loc.line)});
    } else {
      for (ValueId v : n.inputs) {
        if (twinned_.count(v) || transposed_.count(v)) {
          twin.inputs.push_back(twinOf(v, n.loc, out));
        } else if (graph::elementCount(g_.type(v).shape) != 1) {
          twin.inputs.push_back(channels(v, n.loc, out));
        } else {
          twin.inputs.push_back(v);
        }
      }
    }
    graph::TensorType t = g_.type(result);
    t.shape = graph::knownShape({s[0], s[2], s[3], s[1]});
    twin.outputs = {g_.addValue(g_.value(result).name + "_nhwc", t, n.loc)};
    twin_[result] = twin.outputs[0];
    out.push_back(std::move(twin));
  }

  // A per-channel value [1 or N, C, 1, 1] as [C] or [N, 1, 1, C] (the same elements; a vector of
  // channels is what the epilogue passes take).
  ValueId channels(ValueId v, const SourceLocation& loc, std::vector<Node>& out) {
    if (auto it = channels_.find(v); it != channels_.end()) return it->second;
    std::vector<int64_t> s = graph::extents(g_.type(v).shape);
    s.insert(s.begin(), 4 - s.size(), 1);
    const std::vector<int64_t> shape = s[0] == 1 ? std::vector<int64_t>{s[1]} : std::vector<int64_t>{s[0], 1, 1, s[1]};
    return channels_[v] = reshape(v, shape, g_.value(v).name + "_channels", loc, out);
  }

  graph::Graph& g_;
  std::set<ValueId> twinned_;      // NCHW values computed in NHWC
  std::set<ValueId> transposed_;   // NCHW values a convolution reads, transposed for it
  std::set<ValueId> readInNchw_;   // those something reads in NCHW too
  std::set<ValueId> spatialReductions_;  // results of reductions of twins over rows and columns
  std::map<ValueId, ValueId> twin_;      // NCHW value -> its NHWC twin
  std::map<ValueId, ValueId> channels_;  // per-channel value -> its NHWC view
};

}  // namespace

int keepNhwc(graph::Graph& graph) { return Rewriter(graph).run(); }

}  // namespace pyasc::codegen
