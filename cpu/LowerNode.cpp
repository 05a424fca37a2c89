// Graph operators as Halide functions: the table of lowerings, one family per file (LowerSupport.h).
#include "cpu/LowerNode.h"

#include "cpu/LowerSupport.h"
#include "ops/Elementwise.h"

namespace pyasc::cpu {

namespace {

const LoweringTable& table() {
  static const LoweringTable t = [] {
    LoweringTable m;
    addDataMovementLowerings(m);
    addReduceLowerings(m);
    addContractionLowerings(m);
    addNNLowerings(m);
    return m;
  }();
  return t;
}

}  // namespace

Halide::Expr at(const Lowered& v, const std::vector<Halide::Expr>& index) {
  std::vector<Halide::Expr> halideOrder(index.rbegin(), index.rend());
  return v.func(halideOrder);
}

bool lowersOnCpu(const std::string& op) { return ops::isElementwiseOp(op) || table().count(op) > 0; }

std::vector<Lowered> lowerNode(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& inputs) {
  for (graph::ValueId out : node.outputs) {
    if (!graph::isStaticShape(graph.type(out).shape)) {
      fail(node, "the CPU backend needs static shapes; '" + graph.value(out).name + "' is " + graph.type(out).str());
    }
  }
  if (node.outputs.size() != 1) fail(node, "the CPU backend does not lower " + node.op + " (" + std::to_string(node.outputs.size()) + " results) yet");
  auto lowering = table().find(node.op);
  if (lowering != table().end()) return {lowering->second(graph, node, inputs)};
  if (ops::isElementwiseOp(node.op)) return {lowerElementwise(graph, node, inputs)};
  fail(node, "the CPU backend does not lower " + node.op + " yet (docs/cpu-backend.md lists what it runs)");
}

}  // namespace pyasc::cpu
