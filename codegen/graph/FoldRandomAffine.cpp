// Folds the scale and shift of a float32 random input's draws into its recipe, in the order the
// program applies them, so that the runtime makes the scaled values NumPy makes, bit for bit.
#include "codegen/graph/FoldRandomAffine.h"

#include <cmath>
#include <map>

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

int foldRandomAffine(graph::Graph& g) {
  std::map<ValueId, int> uses = graph::useCounts(g);
  std::map<ValueId, size_t> randomInput;  // value -> its index in g.inputs
  for (size_t i = 0; i < g.inputs.size(); ++i)
    if (g.inputs[i].role == graph::InputRole::Random) randomInput[g.inputs[i].value] = i;
  // a float32 constant of one element, as a double
  auto constant = [&](ValueId v, double& out) {
    const graph::GraphConstant* c = g.findConstant(v);
    if (!c || g.type(v).dtype != DType::Float32 || graph::elementCount(g.type(v).shape) != 1) return false;
    out = graph::decodeConstant(DType::Float32, c->bytes).at(0);
    return std::isfinite(out);
  };
  int folded = 0;
  std::vector<Node> kept;
  for (Node& n : g.body.nodes) {
    bool absorbed = false;
    if ((n.op == "Mul" || n.op == "Add") && n.inputs.size() == 2) {
      for (int side = 0; side < 2 && !absorbed; ++side) {
        ValueId r = n.inputs[side];
        auto it = randomInput.find(r);
        double c = 0;
        if (it == randomInput.end() || uses[r] != 1 || !constant(n.inputs[1 - side], c)) continue;
        const size_t index = it->second;
        graph::GraphInput& in = g.inputs[index];
        const graph::TensorType& type = g.type(r);
        if (type.dtype != DType::Float32 || g.type(n.outputs[0]) != type || in.declared) continue;
        if (n.op == "Mul" ? in.random.shift != 0.0 || in.random.scale != 1.0 : in.random.shift != 0.0) continue;
        (n.op == "Mul" ? in.random.scale : in.random.shift) = c;
        in.value = n.outputs[0];
        randomInput.erase(it);
        randomInput[in.value] = index;
        ++folded;
        absorbed = true;
      }
    }
    if (!absorbed) kept.push_back(std::move(n));
  }
  g.body.nodes = std::move(kept);
  return folded;
}

}  // namespace pyasc::codegen
