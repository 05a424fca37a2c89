// Folds constant batch-norm statistics into constant convolution and matmul weights.
#include "codegen/graph/FoldBatchNorm.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

class Folder {
 public:
  explicit Folder(graph::Graph& g) : g_(g), uses_(graph::useCounts(g)) { index(g.body); }

  int folded = 0;

  void region(graph::Region& r) {
    for (Node& n : r.nodes)
      for (auto& sub : n.regions) region(sub);
    for (Node& n : r.nodes) {
      if (n.op != "BatchNorm" || n.inputs.size() != 5 || n.outputs.size() != 1) continue;
      const graph::TensorType& y = g_.type(n.outputs[0]);
      const int64_t axis = n.intAttr("axis", 1);
      if (y.dtype != DType::Float32 || y.rank() < 1 || (axis != -1 && axis != y.rank() - 1)) continue;
      auto p = producers_.find(n.inputs[0]);
      if (p == producers_.end() || uses_[n.inputs[0]] != 1) continue;
      Node& cube = *p->second;
      const bool conv = cube.op == "Conv2D" && cube.stringAttr("layout", "NHWC") == "NHWC";
      if (!conv && !(cube.op == "MatMul" && g_.type(cube.inputs[1]).rank() == 2)) continue;
      const graph::GraphConstant* w = g_.findConstant(cube.inputs[1]);
      if (!w || g_.type(cube.inputs[1]).dtype != DType::Float32) continue;
      std::vector<std::vector<float>> stats;
      for (size_t k = 1; k < 5; ++k) {
        std::optional<std::vector<float>> v = vectorOf(n.inputs[k], y.shape.back().extent);
        if (!v) break;
        stats.push_back(*v);
      }
      if (stats.size() != 4) continue;
      // s = gamma / sqrt(var + eps), t = beta − mean · s, in float32 as NumPy computes them
      const float eps = static_cast<float>(n.floatAttr("epsilon", 1e-5));
      const size_t channels = stats[0].size();
      std::vector<float> scale(channels);
      std::vector<double> shift(channels);
      for (size_t c = 0; c < channels; ++c) {
        scale[c] = stats[2][c] / std::sqrt(stats[1][c] + eps);
        shift[c] = stats[3][c] - stats[0][c] * scale[c];
      }
      std::vector<double> weights = graph::decodeConstant(DType::Float32, w->bytes);
      for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(weights[i]) * scale[i % channels];
      const std::string name = g_.value(n.outputs[0]).name;
      const ValueId scaled = g_.addValue(name + "_weights", g_.type(cube.inputs[1]), n.loc);
      g_.constants.push_back(graph::GraphConstant{scaled, graph::encodeConstant(DType::Float32, weights)});
      graph::TensorType shiftType;
      shiftType.dtype = DType::Float32;
      shiftType.shape = {graph::Dim::known(static_cast<int64_t>(channels))};
      const ValueId bias = g_.addValue(name + "_shift", shiftType, n.loc);
      g_.constants.push_back(graph::GraphConstant{bias, graph::encodeConstant(DType::Float32, shift)});
      replaced_.insert(n.inputs.begin() + 1, n.inputs.end());
      replaced_.insert(cube.inputs[1]);
      cube.inputs[1] = scaled;
      cube.hints.push_back({kFoldedBatchNormHint, true});
      n.op = "Add";
      n.inputs = {n.inputs[0], bias};
      n.attrs.clear();
      ++folded;
    }
  }

  // The folded weights and statistics nothing reads any more leave the model.
  void dropUnread() {
    const std::map<ValueId, int> uses = graph::useCounts(g_);
    auto unread = [&](const graph::GraphConstant& c) { return replaced_.count(c.value) && !uses.count(c.value); };
    g_.constants.erase(std::remove_if(g_.constants.begin(), g_.constants.end(), unread), g_.constants.end());
  }

 private:
  // the node computing each single-result value
  void index(graph::Region& r) {
    for (Node& n : r.nodes) {
      if (n.outputs.size() == 1) producers_[n.outputs[0]] = &n;
      for (auto& sub : n.regions) index(sub);
    }
  }

  // A float32 constant vector of `n` elements, or nothing.
  std::optional<std::vector<float>> vectorOf(ValueId v, int64_t n) const {
    const graph::GraphConstant* c = g_.findConstant(v);
    const graph::TensorType& t = g_.type(v);
    if (!c || t.dtype != DType::Float32 || t.rank() != 1 || t.shape[0].extent != n) return std::nullopt;
    std::vector<float> out;
    for (double x : graph::decodeConstant(DType::Float32, c->bytes)) out.push_back(static_cast<float>(x));
    return out;
  }

  graph::Graph& g_;
  std::map<ValueId, int> uses_;
  std::map<ValueId, Node*> producers_;
  std::set<ValueId> replaced_;
};

}  // namespace

int foldBatchNorms(graph::Graph& graph) {
  Folder f(graph);
  f.region(graph.body);
  f.dropUnread();
  return f.folded;
}

}  // namespace pyasc::codegen
