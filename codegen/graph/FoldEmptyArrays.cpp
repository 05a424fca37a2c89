// Textbook triangular loops slice nothing at their first or last trip (L[0, :0] @ x[:0]). NumPy
// gives the empty sum 0, the empty product 1, and an empty contraction zeros; this pass writes
// those results as fills, so the arrays without elements (which no kernel can hold) become dead
// and eliminate-dead-nodes removes them. Concatenations drop their empty operands, and a write of no
// element (L[n:, j] = ... at the last trip) leaves its array as it is.
#include "codegen/graph/FoldEmptyArrays.h"

#include <cmath>
#include <limits>
#include <map>

namespace pyasc::codegen {

namespace {

bool empty(const graph::Graph& g, graph::ValueId v) { return graph::elementCount(g.type(v).shape) == 0; }

// The value of an operation over no elements, when NumPy defines one.
bool identityOf(const std::string& op, double& value) {
  static const std::map<std::string, double> identities = {
      {"ReduceSum", 0.0},   {"ReduceProd", 1.0}, {"ReduceAny", 0.0},
      {"ReduceAll", 1.0},   {"MatMul", 0.0},     {"Einsum", 0.0},
      {"TensorDot", 0.0},   {"ReduceMean", std::numeric_limits<double>::quiet_NaN()},
  };
  auto it = identities.find(op);
  if (it == identities.end()) return false;
  value = it->second;
  return true;
}

int foldRegion(graph::Graph& g, graph::Region& region) {
  int folded = 0;
  for (graph::Node& n : region.nodes) {
    for (auto& sub : n.regions) folded += foldRegion(g, sub);
    if (n.isLoop() || n.outputs.size() != 1 || empty(g, n.outputs[0])) continue;
    bool emptyInput = false;
    for (graph::ValueId v : n.inputs) emptyInput = emptyInput || empty(g, v);
    if (!emptyInput) continue;
    const graph::TensorType out = g.type(n.outputs[0]);
    if (!graph::isStaticShape(out.shape)) continue;
    if (n.op == "SliceUpdate" && n.inputs.size() == 2 && empty(g, n.inputs[1])) {  // writes no element
      n.op = "Identity";
      n.inputs.resize(1);
      n.attrs.clear();
      ++folded;
      continue;
    }
    if (n.op == "Concat") {
      std::vector<graph::ValueId> kept;
      for (graph::ValueId v : n.inputs) {
        if (!empty(g, v)) kept.push_back(v);
      }
      n.inputs = kept;
      if (kept.size() == 1) {
        n.op = "Identity";
        n.attrs.clear();
      }
      ++folded;
      continue;
    }
    if (n.op == "ReduceMax" || n.op == "ReduceMin" || n.op == "ArgMax" || n.op == "ArgMin") {
      static const std::map<std::string, std::string> names = {
          {"ReduceMax", "maximum"}, {"ReduceMin", "minimum"}, {"ArgMax", "argmax"}, {"ArgMin", "argmin"}};
      throw CompileError(n.loc, "zero-size array to reduction operation " + names.at(n.op) + " which has no identity");
    }
    double value = 0;
    if (!identityOf(n.op, value)) continue;
    std::vector<int64_t> shape;
    for (const graph::Dim& d : out.shape) shape.push_back(d.extent);
    n.op = "Fill";
    n.inputs.clear();
    n.attrs.clear();
    n.setAttr("shape", shape);
    n.setAttr("value", value);
    n.setAttr("dtype", std::string(dtypeName(out.dtype)));
    ++folded;
  }
  return folded;
}

}  // namespace

int foldEmptyArrays(graph::Graph& g) { return foldRegion(g, g.body); }

}  // namespace pyasc::codegen
