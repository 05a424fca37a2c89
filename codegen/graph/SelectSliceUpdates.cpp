// A scalar condition selecting between x and x with one slice written selects within the slice:
// the if-conversion of `if c: a[i] = v` costs the slice, not a pass over the whole array, and the
// write stays a slice update that a loop can make in place.
#include "codegen/graph/SelectSliceUpdates.h"

#include <map>
#include <string>

#include "registry/OpRegistry.h"

namespace pyasc::codegen {

namespace {

const char* const kSliceAttrs[] = {"axes", "begin", "end", "step", "dynamic_axes"};

// The value of `op` at `loc` over `inputs` with the attributes of `like` named in kSliceAttrs, its
// type inferred by the registry; false when the registry refuses it.
bool addNode(graph::Graph& g, std::vector<graph::Node>& nodes, const std::string& op, std::vector<graph::ValueId> inputs,
             const graph::Node& like, const std::string& name, graph::ValueId& out) {
  graph::Node n;
  n.op = op;
  n.inputs = std::move(inputs);
  n.loc = like.loc;
  if (op == "Slice") {
    for (const char* a : kSliceAttrs)
      if (const graph::Attribute* v = like.attr(a)) n.setAttr(a, *v);
  }
  const registry::OpRegistry& r = registry::OpRegistry::builtin();
  std::vector<graph::TensorType> in, types;
  for (graph::ValueId v : n.inputs) in.push_back(g.type(v));
  std::string error;
  if (!r.completeAttrs(n).empty() || !r.infer(n, in, types, error) || types.size() != 1) return false;
  out = g.addValue(name, types[0], like.loc);
  n.outputs = {out};
  nodes.push_back(std::move(n));
  return true;
}

int rewriteRegion(graph::Graph& g, graph::Region& region) {
  int rewritten = 0;
  std::map<graph::ValueId, size_t> sliceUpdates;  // in this region, by their output: their place in `nodes`
  std::vector<graph::Node> nodes;
  for (graph::Node& n : region.nodes) {
    for (auto& sub : n.regions) rewritten += rewriteRegion(g, sub);
    if (n.op == "Where" && n.inputs.size() == 3 && n.outputs.size() == 1) {
      const graph::ValueId c = n.inputs[0], a = n.inputs[1], b = n.inputs[2];
      const bool scalar = graph::elementCount(g.type(c).shape) == 1 && g.type(c).rank() <= g.type(n.outputs[0]).rank();
      // the written copy on the true side (then) or the false side
      for (int side = 0; scalar && side < 2; ++side) {
        const graph::ValueId written = side == 0 ? a : b, original = side == 0 ? b : a;
        auto it = sliceUpdates.find(written);
        if (it == sliceUpdates.end() || nodes[it->second].inputs[0] != original) continue;
        const graph::Node u = nodes[it->second];  // copied: `nodes` grows below
        if (!(g.type(n.outputs[0]) == g.type(original)) || g.type(u.inputs[1]).dtype != g.type(original).dtype) continue;
        std::vector<graph::ValueId> dynamic(u.inputs.begin() + 2, u.inputs.end());
        std::vector<graph::ValueId> sliceInputs = {original};
        sliceInputs.insert(sliceInputs.end(), dynamic.begin(), dynamic.end());
        const std::string base = g.value(n.outputs[0]).name;
        std::vector<graph::Node> added;
        graph::ValueId slice = 0, chosen = 0;
        if (!addNode(g, added, "Slice", sliceInputs, u, base + "_slice", slice)) continue;
        const std::vector<graph::ValueId> choices = side == 0 ? std::vector<graph::ValueId>{c, u.inputs[1], slice}
                                                              : std::vector<graph::ValueId>{c, slice, u.inputs[1]};
        if (!addNode(g, added, "Where", choices, n, base + "_choice", chosen) || !(g.type(chosen) == g.type(slice))) continue;
        for (graph::Node& m : added) nodes.push_back(std::move(m));
        graph::Node update = u;  // its attributes and dynamic offsets; the Where's output and place
        update.inputs[1] = chosen;
        update.outputs = n.outputs;
        update.loc = n.loc;
        n = std::move(update);
        ++rewritten;
        break;
      }
    }
    if (n.op == "SliceUpdate" && n.outputs.size() == 1 && n.inputs.size() >= 2) sliceUpdates[n.outputs[0]] = nodes.size();
    nodes.push_back(std::move(n));
  }
  region.nodes = std::move(nodes);
  return rewritten;
}

}  // namespace

int selectSliceUpdates(graph::Graph& g) { return rewriteRegion(g, g.body); }

}  // namespace pyasc::codegen
