// Dead-node elimination: mark values live from outputs backwards, then drop unmarked nodes.
#include "codegen/graph/EliminateDeadNodes.h"

#include <vector>

namespace pyasc::codegen {

namespace {

// One backward sweep over a region; a loop is live when any of its results is.
bool markRegion(const graph::Region& r, std::vector<bool>& live) {
  bool changed = false;
  for (graph::ValueId y : r.yields) changed |= !live[y] && (live[y] = true);
  for (auto it = r.nodes.rbegin(); it != r.nodes.rend(); ++it) {
    bool used = false;
    for (graph::ValueId o : it->outputs) used = used || live[o];
    if (!used) continue;
    for (graph::ValueId i : it->inputs) changed |= !live[i] && (live[i] = true);
    for (const auto& sub : it->regions) changed |= markRegion(sub, live);
  }
  return changed;
}

int sweep(graph::Region& r, const std::vector<bool>& live) {
  int removed = 0;
  std::vector<graph::Node> kept;
  for (auto& n : r.nodes) {
    bool used = false;
    for (graph::ValueId o : n.outputs) used = used || live[o];
    if (!used) {
      ++removed;
      continue;
    }
    for (auto& sub : n.regions) removed += sweep(sub, live);
    kept.push_back(std::move(n));
  }
  r.nodes = std::move(kept);
  return removed;
}

}  // namespace

int eliminateDeadNodes(graph::Graph& g) {
  std::vector<bool> live(g.values.size(), false);
  for (const auto& o : g.outputs) live[o.value] = true;
  while (markRegion(g.body, live)) {
  }
  return sweep(g.body, live);
}

}  // namespace pyasc::codegen
