// Folds a convolution's scale and bias or batch norm, residual add and ReLU into one FusedConv2D node.
#include "codegen/graph/FuseConvEpilogue.h"

#include <map>
#include <set>

#include "codegen/graph/EpilogueChain.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

class Fuser {
 public:
  explicit Fuser(graph::Graph& g) : g_(g), uses_(graph::useCounts(g)) {}

  int fused = 0;

  void region(graph::Region& r) {
    std::set<size_t> dropped;
    for (Node& n : r.nodes)
      for (auto& sub : n.regions) region(sub);
    std::map<ValueId, size_t> reader = singleReaders(r, uses_);
    for (size_t i = 0; i < r.nodes.size(); ++i) {
      Node& conv = r.nodes[i];
      if (conv.op != "Conv2D" || conv.stringAttr("layout", "NHWC") != "NHWC") continue;
      const graph::TensorType& y = g_.type(conv.outputs[0]);
      const int64_t groups = conv.intAttr("groups", 1);
      // a depthwise convolution may take the vector engine, which has no epilogue
      if (!y.shape[3].isKnown() || (groups > 1 && groups == y.shape[3].extent)) continue;
      ValueId last = conv.outputs[0];
      std::vector<size_t> chain;
      std::vector<ValueId> scale, bias, statistics, residual;
      double epsilon = 1e-5;
      bool relu = false;
      auto next = [&](ValueId v) -> Node* {
        auto it = reader.find(v);
        return it == reader.end() || dropped.count(it->second) ? nullptr : &r.nodes[it->second];
      };
      Node* n = next(last);
      if (n && n->op == "BatchNorm" && n->inputs[0] == last && (n->intAttr("axis", 1) == 3 || n->intAttr("axis", 1) == -1) && g_.type(n->outputs[0]) == y) {
        bool vectors = true;
        for (size_t k = 1; k < 5; ++k) {
          const graph::TensorType& p = g_.type(n->inputs[k]);
          vectors = vectors && p.dtype == DType::Float32 && p.rank() == 1 && p.shape[0] == y.shape[3];
        }
        if (vectors) {
          statistics.assign(n->inputs.begin() + 1, n->inputs.end());
          epsilon = n->floatAttr("epsilon", 1e-5);
          chain.push_back(reader[last]);
          last = n->outputs[0];
          n = next(last);
        }
      }
      // a vector of the output channels, float32 or the result's type
      auto channelRow = [&](ValueId v) {
        const graph::TensorType& b = g_.type(v);
        return (b.dtype == DType::Float32 || b.dtype == y.dtype) && b.rank() == 1 && b.shape[0] == y.shape[3];
      };
      for (const char* op : {"Mul", "Add"}) {
        if (!statistics.empty() || !n || n->op != op || n->inputs[0] == n->inputs[1] || !(g_.type(n->outputs[0]) == y)) continue;
        ValueId other = n->inputs[0] == last ? n->inputs[1] : n->inputs[0];
        if (!channelRow(other)) continue;
        (op == std::string("Mul") ? scale : bias).push_back(other);
        chain.push_back(reader[last]);
        last = n->outputs[0];
        n = next(last);
      }
      if (n && n->op == "Add" && g_.type(n->outputs[0]) == y) {
        ValueId other = n->inputs[0] == last ? n->inputs[1] : n->inputs[0];
        if (n->inputs[0] != n->inputs[1] && g_.type(other) == y) {
          residual.push_back(other);
          chain.push_back(reader[last]);
          last = n->outputs[0];
          n = next(last);
        }
      }
      if (n && g_.type(n->outputs[0]) == y && (n->op == "Relu" || (n->op == "Maximum" && n->inputs[0] == last && graph::isZeroConstant(g_, n->inputs[1])))) {
        relu = true;
        chain.push_back(reader[last]);
        last = n->outputs[0];
      }
      if (chain.empty()) continue;
      Node f = conv;
      f.op = "FusedConv2D";
      f.inputs.insert(f.inputs.end(), scale.begin(), scale.end());
      f.inputs.insert(f.inputs.end(), bias.begin(), bias.end());
      f.inputs.insert(f.inputs.end(), statistics.begin(), statistics.end());
      f.inputs.insert(f.inputs.end(), residual.begin(), residual.end());
      f.setAttr("scale", !scale.empty());
      f.setAttr("bias", !bias.empty());
      f.setAttr("batch_norm", !statistics.empty());
      f.setAttr("epsilon", epsilon);
      f.setAttr("residual", !residual.empty());
      f.setAttr("relu", relu);
      f.outputs = {last};
      ++fused;
      replaceChain(r, dropped, i, chain, std::move(f));
    }
    dropNodes(r, dropped);
  }

 private:
  graph::Graph& g_;
  std::map<ValueId, int> uses_;
};

}  // namespace

int fuseConvEpilogues(graph::Graph& graph) {
  Fuser f(graph);
  f.region(graph.body);
  return f.fused;
}

}  // namespace pyasc::codegen
