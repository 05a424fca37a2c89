// Dead-node elimination: mark values live from outputs backwards, then drop unmarked nodes and the
// carried values of loops that neither their body nor anything after them reads.
#include "codegen/graph/EliminateDeadNodes.h"

#include <vector>

namespace pyasc::codegen {

namespace {

// A loop's carried value i is needed when the loop's result is read or the body reads it; a while
// loop's condition (its last) always is.
bool slotNeeded(const graph::Node& loop, size_t i, const std::vector<bool>& live) {
  if (loop.isWhileLoop() && i + 1 == loop.inputs.size()) return true;
  return live[loop.outputs[i]] || live[loop.body().arguments[i + 1]];
}

// One backward sweep over a region; a loop is live when any of its results is, and yields (and
// takes as input) only the carried values needed.
bool markRegion(const graph::Region& r, std::vector<bool>& live, bool allYields) {
  bool changed = false;
  if (allYields) {
    for (graph::ValueId y : r.yields) changed |= !live[y] && (live[y] = true);
  }
  for (auto it = r.nodes.rbegin(); it != r.nodes.rend(); ++it) {
    bool used = false;
    for (graph::ValueId o : it->outputs) used = used || live[o];
    if (!used) continue;
    if (it->isLoop()) {
      for (size_t i = 0; i < it->inputs.size(); ++i) {
        if (!slotNeeded(*it, i, live)) continue;
        changed |= !live[it->inputs[i]] && (live[it->inputs[i]] = true);
        changed |= !live[it->body().yields[i]] && (live[it->body().yields[i]] = true);
      }
      changed |= markRegion(it->body(), live, false);
      continue;
    }
    for (graph::ValueId i : it->inputs) changed |= !live[i] && (live[i] = true);
    for (const auto& sub : it->regions) changed |= markRegion(sub, live, true);
  }
  return changed;
}

// Drops a loop's carried values that are not needed.
int dropDeadSlots(graph::Node& loop, const std::vector<bool>& live) {
  graph::Region& body = loop.body();
  std::vector<graph::ValueId> inputs, outputs, arguments{body.arguments[0]}, yields;
  for (size_t i = 0; i < loop.inputs.size(); ++i) {
    if (!slotNeeded(loop, i, live)) continue;
    inputs.push_back(loop.inputs[i]);
    outputs.push_back(loop.outputs[i]);
    arguments.push_back(body.arguments[i + 1]);
    yields.push_back(body.yields[i]);
  }
  const int dropped = static_cast<int>(loop.inputs.size() - inputs.size());
  loop.inputs = std::move(inputs);
  loop.outputs = std::move(outputs);
  body.arguments = std::move(arguments);
  body.yields = std::move(yields);
  return dropped;
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
    if (n.isLoop()) dropDeadSlots(n, live);
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
  while (markRegion(g.body, live, true)) {
  }
  return sweep(g.body, live);
}

}  // namespace pyasc::codegen
