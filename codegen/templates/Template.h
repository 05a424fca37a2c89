// The pattern templates: expert schedules for the operators that are not fused elementwise chains,
// each registered through one interface (the operators it lowers, whether it takes a node's shapes
// and types, which inputs it reads as arrays, how it lowers) in one table that select-templates
// consults.
#pragma once

#include <string>
#include <vector>

#include "codegen/templates/Lowering.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

struct Template {
  const char* name;
  std::vector<std::string> ops;
  // Appends the node's launches to `out` and binds its results to storages.
  void (*lower)(const graph::Node& n, Lowering& l, std::vector<Step>& out);
  // Why the template does not take `n` (reported at the node); empty when it does. Null: it takes
  // every node of its operators (and reports what it cannot lower while lowering).
  std::string (*refusal)(const graph::Node& n, const graph::Graph& g, const Target& target) = nullptr;
  // How the node changes value classes before it is lowered (ValueClasses). Null: every input is
  // read as an array and every result is an array.
  void (*classify)(const graph::Node& n, ValueClasses& classes) = nullptr;
};

// The template that lowers operator `op`, or null.
const Template* templateFor(const std::string& op);
const std::vector<const Template*>& allTemplates();
// Applies `t`'s (or, for null, the default) value-class changes of `n`.
void classifyNode(const Template* t, const graph::Node& n, ValueClasses& classes);

// Each defined in its own file of codegen/templates.
extern const Template viewTemplate, creationTemplate, reduceTemplate, argReduceTemplate, matmulTemplate,
    contractionTemplate, rowNormTemplate, conv2dTemplate, pool2dTemplate, transposeTemplate, sliceTemplate,
    sliceUpdateTemplate, concatTemplate, broadcastTemplate, padTemplate, gatherTemplate, slidingWindowTemplate,
    computeTemplate;

}  // namespace pyasc::codegen
