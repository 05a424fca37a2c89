// The table of pattern templates and the lookup by operator.
#include "codegen/templates/Template.h"

#include <map>

namespace pyasc::codegen {

const std::vector<const Template*>& allTemplates() {
  static const std::vector<const Template*> all = {
      &viewTemplate,      &creationTemplate,  &reduceTemplate,      &argReduceTemplate, &matmulTemplate,
      &contractionTemplate, &rowNormTemplate, &conv2dTemplate,      &pool2dTemplate,    &transposeTemplate,
      &sliceTemplate,     &sliceUpdateTemplate, &concatTemplate,    &broadcastTemplate, &padTemplate,
      &gatherTemplate,    &slidingWindowTemplate, &computeTemplate};
  return all;
}

const Template* templateFor(const std::string& op) {
  static const std::map<std::string, const Template*> byOp = [] {
    std::map<std::string, const Template*> m;
    for (const Template* t : allTemplates())
      for (const auto& op : t->ops) m.emplace(op, t);
    return m;
  }();
  auto it = byOp.find(op);
  return it == byOp.end() ? nullptr : it->second;
}

void classifyNode(const Template* t, const graph::Node& n, ValueClasses& classes) {
  if (t && t->classify) return t->classify(n, classes);
  for (graph::ValueId v : n.inputs) classes.readAsArray(v);
  for (graph::ValueId v : n.outputs) classes.setArray(v);
}

}  // namespace pyasc::codegen
