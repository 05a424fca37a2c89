// Recognises the written-out batch norm (x - mean) / np.sqrt(var + eps) * gamma + beta.
#include "codegen/graph/RecognizeBatchNorm.h"

#include <map>
#include <optional>
#include <set>

#include "codegen/graph/EpilogueChain.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

class Recognizer {
 public:
  explicit Recognizer(graph::Graph& g) : g_(g), uses_(graph::useCounts(g)) {}

  int recognized = 0;

  void region(graph::Region& r) {
    for (Node& n : r.nodes)
      for (auto& sub : n.regions) region(sub);
    std::map<ValueId, size_t> producer;  // in this region
    for (size_t i = 0; i < r.nodes.size(); ++i)
      if (r.nodes[i].outputs.size() == 1) producer[r.nodes[i].outputs[0]] = i;
    std::set<size_t> dropped;
    // the node of `op` (with `arity` operands) in this region computing v, read only there, not yet taken
    auto single = [&](ValueId v, const char* op, size_t arity = 2) -> std::optional<size_t> {
      auto p = producer.find(v);
      if (p == producer.end() || dropped.count(p->second) || uses_[v] != 1 || r.nodes[p->second].op != op ||
          r.nodes[p->second].inputs.size() != arity)
        return std::nullopt;
      return p->second;
    };
    for (size_t i = 0; i < r.nodes.size(); ++i) {
      Node& add = r.nodes[i];
      if (add.op != "Add" || add.inputs.size() != 2 || add.outputs.size() != 1) continue;
      const graph::TensorType& y = g_.type(add.outputs[0]);
      if ((y.dtype != DType::Float16 && y.dtype != DType::Float32) || y.rank() < 1 || !y.shape.back().isKnown()) continue;
      const int64_t channels = y.shape.back().extent;
      auto vector = [&](ValueId v) {
        const graph::TensorType& t = g_.type(v);
        return t.rank() == 1 && t.shape[0].isKnown() && t.shape[0].extent == channels &&
               (t.dtype == DType::Float16 || t.dtype == DType::Float32);
      };
      // z = m + beta, m = n * gamma, n = d / s, s = sqrt(var + eps), d = x - mean
      for (int side = 0; side < 2; ++side) {
        const ValueId beta = add.inputs[1 - side];
        auto mul = single(add.inputs[side], "Mul");
        if (!vector(beta) || !mul) continue;
        const Node& m = r.nodes[*mul];
        for (int mside = 0; mside < 2; ++mside) {
          const ValueId gamma = m.inputs[1 - mside];
          auto div = single(m.inputs[mside], "Div");
          if (!vector(gamma) || !div) continue;
          const Node& n = r.nodes[*div];
          auto sub = single(n.inputs[0], "Sub");
          auto sqrt = single(n.inputs[1], "Sqrt", 1);
          if (!sub || !sqrt) continue;
          auto sum = single(r.nodes[*sqrt].inputs[0], "Add");
          if (!sum) continue;
          const Node& d = r.nodes[*sub];
          const Node& e = r.nodes[*sum];
          const ValueId x = d.inputs[0], mean = d.inputs[1];
          const bool epsFirst = scalar(e.inputs[0]).has_value();
          const ValueId var = e.inputs[epsFirst ? 1 : 0];
          const std::optional<double> eps = scalar(e.inputs[epsFirst ? 0 : 1]);
          if (!eps || !vector(mean) || !vector(var) || !(g_.type(x) == y)) continue;
          Node bn;
          bn.op = "BatchNorm";
          bn.inputs = {x, mean, var, gamma, beta};
          bn.attrs = {{"axis", static_cast<int64_t>(y.rank() - 1)}, {"epsilon", *eps}};
          bn.outputs = add.outputs;
          bn.loc = add.loc;
          bn.hints = add.hints;
          bn.hints.push_back({kRecognizedBatchNormHint, static_cast<int64_t>(add.loc.line)});
          replaceChain(r, dropped, *sub, {*sum, *sqrt, *div, *mul, i}, std::move(bn));
          ++recognized;
          break;
        }
        if (r.nodes[i].op == "BatchNorm") break;
      }
    }
    dropNodes(r, dropped);
  }

 private:
  // The value of a one-element float constant.
  std::optional<double> scalar(ValueId v) const {
    const graph::GraphConstant* c = g_.findConstant(v);
    const graph::TensorType& t = g_.type(v);
    if (!c || graph::elementCount(t.shape) != 1 || (t.dtype != DType::Float16 && t.dtype != DType::Float32)) return std::nullopt;
    return graph::decodeConstant(t.dtype, c->bytes).at(0);
  }

  graph::Graph& g_;
  std::map<ValueId, int> uses_;
};

}  // namespace

int recognizeBatchNorms(graph::Graph& graph) {
  Recognizer r(graph);
  r.region(graph.body);
  return r.recognized;
}

}  // namespace pyasc::codegen
