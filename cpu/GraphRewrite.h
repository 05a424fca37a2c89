// Replacing the frontend's constructions (rank sorts, selections) by the CPU backend's own nodes.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <unordered_map>

#include "sdk/graph/Graph.h"

namespace pyasc::cpu {

// A node standing for a construction ending at some node: the construction's other nodes (which
// are removed when nothing else reads them).
struct Replacement {
  graph::Node node;
  std::set<const graph::Node*> construction;
};

// The node defining each value (any region).
using Definitions = std::unordered_map<graph::ValueId, const graph::Node*>;

// Replaces every node of `graph` (any region) for which `match` gives a replacement (the
// replacement keeps the node's outputs), then removes the constructions' nodes that nothing reads
// any more (a yield or a graph output reads its value). Returns how many nodes were replaced.
int replaceConstructions(graph::Graph& graph,
                         const std::function<std::optional<Replacement>(const graph::Node&, const Definitions&)>& match);

// Every use of a value in `to` (node inputs at any depth, yields, graph outputs) becomes a use of
// its replacement (followed through chains of replacements).
void renameUses(graph::Graph& graph, const std::unordered_map<graph::ValueId, graph::ValueId>& to);
void renameUses(graph::Region& region, const std::unordered_map<graph::ValueId, graph::ValueId>& to);

// The node defining `v` when it is an `op` of `inputs` operands and one result (recorded in `used`).
const graph::Node* definedBy(const Definitions& definitions, graph::ValueId v, const char* op, size_t inputs,
                             std::set<const graph::Node*>& used);

}  // namespace pyasc::cpu
