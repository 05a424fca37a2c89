// An operator implementation given as a graph of built-in operators: how custom operators
// (TBE-style definitions) reach the code generator, expanded by codegen's expand-composites.
#pragma once

#include <functional>
#include <vector>

#include "registry/OpEntry.h"

namespace pyasc::registry {

class OpRegistry;

class ExpansionImplementation : public OpImplementation {
 public:
  // Appends to `out` the built-in nodes computing `node` (new values go to `graph`); the last of
  // them defines node.outputs[0]. Throws CompileError, located in the definition, when the
  // definition cannot be expressed for the node's operand types.
  using Expand = std::function<void(graph::Graph& graph, const OpRegistry& registry, const graph::Node& node,
                                    std::vector<graph::Node>& out)>;

  // The shape of the definition's result for `node` with operands of `inputs` types (for the
  // `compute` shape rule). Throws CompileError like Expand.
  using InferShape = std::function<graph::Shape(const OpRegistry& registry, const graph::Node& node,
                                                const std::vector<graph::TensorType>& inputs)>;

  ExpansionImplementation(Expand expand, InferShape inferShape)
      : expand_(std::move(expand)), inferShape_(std::move(inferShape)) {}
  void expand(graph::Graph& graph, const OpRegistry& registry, const graph::Node& node,
              std::vector<graph::Node>& out) const {
    expand_(graph, registry, node, out);
  }
  graph::Shape inferShape(const OpRegistry& registry, const graph::Node& node,
                          const std::vector<graph::TensorType>& inputs) const {
    return inferShape_(registry, node, inputs);
  }

 private:
  Expand expand_;
  InferShape inferShape_;
};

}  // namespace pyasc::registry
