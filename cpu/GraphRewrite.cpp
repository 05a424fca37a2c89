// Replacing the frontend's constructions by the CPU backend's own nodes.
#include "cpu/GraphRewrite.h"

#include <algorithm>
#include <vector>

namespace pyasc::cpu {

namespace {

void walk(const graph::Region& region, const std::function<void(const graph::Node&)>& visit) {
  for (const graph::Node& node : region.nodes) {
    visit(node);
    for (const graph::Region& body : node.regions) walk(body, visit);
  }
}

graph::ValueId resolved(graph::ValueId v, const std::unordered_map<graph::ValueId, graph::ValueId>& to) {
  for (auto m = to.find(v); m != to.end(); m = to.find(v)) v = m->second;
  return v;
}

}  // namespace

void renameUses(graph::Region& region, const std::unordered_map<graph::ValueId, graph::ValueId>& to) {
  for (graph::Node& node : region.nodes) {
    for (graph::ValueId& v : node.inputs) v = resolved(v, to);
    for (graph::Region& body : node.regions) renameUses(body, to);
  }
  for (graph::ValueId& y : region.yields) y = resolved(y, to);
}

void renameUses(graph::Graph& graph, const std::unordered_map<graph::ValueId, graph::ValueId>& to) {
  renameUses(graph.body, to);
  for (graph::GraphOutput& o : graph.outputs) o.value = resolved(o.value, to);
}

const graph::Node* definedBy(const Definitions& definitions, graph::ValueId v, const char* op, size_t inputs,
                             std::set<const graph::Node*>& used) {
  auto d = definitions.find(v);
  if (d == definitions.end() || d->second->op != op || d->second->inputs.size() != inputs || d->second->outputs.size() != 1) return nullptr;
  used.insert(d->second);
  return d->second;
}

int replaceConstructions(graph::Graph& graph,
                         const std::function<std::optional<Replacement>(const graph::Node&, const Definitions&)>& match) {
  Definitions definitions;
  std::unordered_map<graph::ValueId, std::vector<const graph::Node*>> readers;
  std::set<graph::ValueId> kept;  // read by a yield or a graph output
  for (const graph::GraphOutput& o : graph.outputs) kept.insert(o.value);
  std::function<void(const graph::Region&)> index = [&](const graph::Region& region) {
    kept.insert(region.yields.begin(), region.yields.end());
    for (const graph::Node& node : region.nodes) {
      for (graph::ValueId v : node.outputs) definitions[v] = &node;
      for (graph::ValueId v : node.inputs) readers[v].push_back(&node);
      for (const graph::Region& body : node.regions) {
        index(body);
        std::set<graph::ValueId> inside(body.arguments.begin(), body.arguments.end());
        walk(body, [&](const graph::Node& inner) { inside.insert(inner.outputs.begin(), inner.outputs.end()); });
        walk(body, [&](const graph::Node& inner) {  // a loop reads what its body reads from outside
          for (graph::ValueId v : inner.inputs)
            if (!inside.count(v)) readers[v].push_back(&node);
        });
        for (graph::ValueId y : body.yields)
          if (!inside.count(y)) readers[y].push_back(&node);
      }
    }
  };
  index(graph.body);
  std::unordered_map<const graph::Node*, graph::Node> replaced;
  std::set<const graph::Node*> construction;
  walk(graph.body, [&](const graph::Node& node) {
    if (std::optional<Replacement> r = match(node, definitions)) {
      r->node.outputs = node.outputs;
      r->node.loc = node.loc;
      replaced.emplace(&node, std::move(r->node));
      construction.insert(r->construction.begin(), r->construction.end());
    }
  });
  if (replaced.empty()) return 0;
  for (const auto& [original, replacement] : replaced)  // a replacement reads its own inputs
    for (graph::ValueId v : replacement.inputs) readers[v].push_back(original);
  // the replacements read only their own inputs: a construction's node read by nothing else goes
  std::set<const graph::Node*> removed;
  auto reads = [&](const graph::Node* reader, graph::ValueId v) {
    auto r = replaced.find(reader);
    if (r == replaced.end()) return !removed.count(reader);
    return std::count(r->second.inputs.begin(), r->second.inputs.end(), v) > 0;
  };
  for (bool more = true; more;) {
    more = false;
    for (const graph::Node* n : construction) {
      const graph::ValueId out = n->outputs[0];
      if (removed.count(n) || replaced.count(n) || kept.count(out)) continue;
      const std::vector<const graph::Node*>& r = readers[out];
      if (std::none_of(r.begin(), r.end(), [&](const graph::Node* reader) { return reads(reader, out); })) {
        removed.insert(n);
        more = true;
      }
    }
  }
  std::function<void(graph::Region&)> rewrite = [&](graph::Region& region) {
    std::vector<graph::Node> nodes;
    for (graph::Node& node : region.nodes) {
      if (removed.count(&node)) continue;
      auto r = replaced.find(&node);
      if (r != replaced.end()) {
        nodes.push_back(std::move(r->second));
        continue;
      }
      for (graph::Region& body : node.regions) rewrite(body);
      nodes.push_back(std::move(node));
    }
    region.nodes = std::move(nodes);
  };
  rewrite(graph.body);
  return static_cast<int>(replaced.size());
}

}  // namespace pyasc::cpu
