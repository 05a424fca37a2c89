// Identity Transposes and Reshapes forwarded to their operands for the CPU backend.
#include "cpu/ForwardIdentities.h"

#include <functional>
#include <set>
#include <unordered_map>
#include <vector>

#include "cpu/GraphRewrite.h"

namespace pyasc::cpu {

namespace {

bool isIdentity(const graph::Graph& graph, const graph::Node& node) {
  if (node.inputs.size() != 1 || node.outputs.size() != 1 || graph.type(node.inputs[0]) != graph.type(node.outputs[0])) return false;
  if (node.op == "Reshape") return true;
  if (node.op != "Transpose") return false;
  if (!node.hasAttr("perm")) return graph.type(node.inputs[0]).rank() <= 1;  // (no perm: the axes reversed)
  const std::vector<int64_t> perm = node.intListAttr("perm");
  for (size_t k = 0; k < perm.size(); ++k)
    if (perm[k] != static_cast<int64_t>(k)) return false;
  return true;
}

}  // namespace

int forwardIdentities(graph::Graph& graph) {
  std::set<graph::ValueId> kept;  // returned by a yield or a graph output
  for (const graph::GraphOutput& o : graph.outputs) kept.insert(o.value);
  std::function<void(const graph::Region&)> yields = [&](const graph::Region& region) {
    kept.insert(region.yields.begin(), region.yields.end());
    for (const graph::Node& node : region.nodes)
      for (const graph::Region& body : node.regions) yields(body);
  };
  yields(graph.body);
  std::unordered_map<graph::ValueId, graph::ValueId> to;
  std::function<void(graph::Region&)> forward = [&](graph::Region& region) {
    std::vector<graph::Node> nodes;
    for (graph::Node& node : region.nodes) {
      for (graph::Region& body : node.regions) forward(body);
      if (isIdentity(graph, node) && !kept.count(node.outputs[0])) {
        to[node.outputs[0]] = node.inputs[0];
        continue;
      }
      nodes.push_back(std::move(node));
    }
    region.nodes = std::move(nodes);
  };
  forward(graph.body);
  renameUses(graph, to);
  return static_cast<int>(to.size());
}

}  // namespace pyasc::cpu
