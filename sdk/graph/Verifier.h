// Structural checks of a graph: single definitions, dominance, loop and constant consistency.
#pragma once

#include <string>

#include "sdk/graph/Graph.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::graph {

// Per-operator type checking supplied by a later layer (the operator registry), since sdk/
// does not know the operators. Returns an empty string when the node is well typed.
class NodeTypeChecker {
 public:
  virtual ~NodeTypeChecker() = default;
  virtual std::string check(const Graph& graph, const Node& node) const = 0;
};

// Reports every problem as an error at the node's location (or the value's); returns true
// when the graph is valid.
bool verifyGraph(const Graph& graph, DiagnosticEngine& diags, const NodeTypeChecker* checker = nullptr);

}  // namespace pyasc::graph
