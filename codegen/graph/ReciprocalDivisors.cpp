// x / d with d computed and broadcast to x becomes x * r with r = 1 / d over d's elements: one
// reciprocal per row instead of a vector division (four times a multiplication's cost) per element.
// Floats only, where the result differs from the division by at most one rounding.
#include "codegen/graph/ReciprocalDivisors.h"

#include <map>

namespace pyasc::codegen {

namespace {

int rewriteRegion(graph::Graph& g, graph::Region& region) {
  int rewritten = 0;
  std::map<graph::ValueId, graph::ValueId> reciprocalOf;  // divisor -> its reciprocal, in this region
  std::vector<graph::Node> nodes;
  for (graph::Node& n : region.nodes) {
    for (auto& sub : n.regions) rewritten += rewriteRegion(g, sub);
    if (n.op == "Div" && n.inputs.size() == 2 && n.outputs.size() == 1) {
      graph::ValueId x = n.inputs[0], d = n.inputs[1];
      DType t = g.type(n.outputs[0]).dtype;
      int64_t divisorCount = graph::elementCount(g.type(d).shape), count = graph::elementCount(g.type(n.outputs[0]).shape);
      // a computed divisor: its reciprocal joins the kernel computing it (a graph input's would be
      // a launch of its own, more than a memory-bound division saves)
      bool broadcastDivisor = divisorCount > 0 && count > 0 && divisorCount < count && !g.findConstant(d) && !g.findInput(d);
      if (isFloat(t) && g.type(x).dtype == t && g.type(d).dtype == t && broadcastDivisor) {
        auto it = reciprocalOf.find(d);
        if (it == reciprocalOf.end()) {
          graph::Node rec;
          rec.op = "Reciprocal";
          rec.inputs = {d};
          const graph::TensorType type = g.type(d);  // copied: addValue may move the values
          rec.outputs = {g.addValue(g.value(d).name + "_reciprocal", type, n.loc)};
          rec.loc = n.loc;
          it = reciprocalOf.emplace(d, rec.outputs[0]).first;
          nodes.push_back(std::move(rec));
        }
        n.op = "Mul";
        n.inputs[1] = it->second;
        ++rewritten;
      }
    }
    nodes.push_back(std::move(n));
  }
  region.nodes = std::move(nodes);
  return rewritten;
}

}  // namespace

int reciprocalDivisors(graph::Graph& g) { return rewriteRegion(g, g.body); }

}  // namespace pyasc::codegen
