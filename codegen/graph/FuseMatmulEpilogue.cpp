// Folds a matmul's bias add and ReLU into one FusedMatMul node.
#include "codegen/graph/FuseMatmulEpilogue.h"

#include <map>
#include <set>

#include "codegen/graph/EpilogueChain.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

bool onCubeFloats(DType t) { return t == DType::Float16 || t == DType::Float32; }

int fuseRegion(graph::Graph& g, graph::Region& r, const std::map<ValueId, int>& uses) {
  int fused = 0;
  for (Node& n : r.nodes)
    for (auto& sub : n.regions) fused += fuseRegion(g, sub, uses);
  std::map<ValueId, size_t> reader = singleReaders(r, uses);
  std::set<size_t> dropped;
  for (size_t i = 0; i < r.nodes.size(); ++i) {
    Node& mm = r.nodes[i];
    if (mm.op != "MatMul" || mm.inputs.size() != 2 || mm.outputs.size() != 1) continue;
    const graph::TensorType& y = g.type(mm.outputs[0]);
    if (!onCubeFloats(g.type(mm.inputs[0]).dtype) || !onCubeFloats(g.type(mm.inputs[1]).dtype) || g.type(mm.inputs[1]).rank() != 2 ||
        !onCubeFloats(y.dtype) || y.rank() < 1 || !y.shape.back().isKnown())
      continue;
    auto next = [&](ValueId v) -> Node* {
      auto it = reader.find(v);
      return it == reader.end() || dropped.count(it->second) ? nullptr : &r.nodes[it->second];
    };
    ValueId last = mm.outputs[0];
    std::vector<size_t> chain;
    std::vector<ValueId> bias;
    Node* n = next(last);
    if (n && n->op == "Add" && n->inputs[0] != n->inputs[1] && g.type(n->outputs[0]) == y) {
      ValueId other = n->inputs[0] == last ? n->inputs[1] : n->inputs[0];
      const graph::TensorType& b = g.type(other);
      if ((b.dtype == DType::Float32 || b.dtype == y.dtype) && b.rank() == 1 && b.shape[0] == y.shape.back()) {
        bias.push_back(other);
        chain.push_back(reader[last]);
        last = n->outputs[0];
        n = next(last);
      }
    }
    const bool relu = n && g.type(n->outputs[0]) == y &&
                      (n->op == "Relu" || (n->op == "Maximum" && n->inputs[0] == last && graph::isZeroConstant(g, n->inputs[1])));
    if (relu) {
      chain.push_back(reader[last]);
      last = n->outputs[0];
    }
    if (chain.empty()) continue;
    Node f = mm;
    f.op = "FusedMatMul";
    f.inputs.insert(f.inputs.end(), bias.begin(), bias.end());
    f.setAttr("bias", !bias.empty());
    f.setAttr("relu", relu);
    f.outputs = {last};
    ++fused;
    replaceChain(r, dropped, i, chain, std::move(f));
  }
  dropNodes(r, dropped);
  return fused;
}

}  // namespace

int fuseMatmulEpilogues(graph::Graph& graph) { return fuseRegion(graph, graph.body, graph::useCounts(graph)); }

}  // namespace pyasc::codegen
