// Templates without a kernel: reshapes are views of their input's storage, and fills and ranges
// are constants (one element: a compile-time scalar the kernels reading it embed).
#include <utility>

#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

// A view of a compile-time scalar is that scalar; of anything else, the same storage.
void classifyView(const Node& n, ValueClasses& classes) {
  if (classes.of(n.inputs[0]) == ValueClasses::Class::Scalar) {
    classes.copy(n.outputs[0], n.inputs[0]);
  } else {
    classes.setArray(n.outputs[0]);
  }
}

void lowerView(const Node& n, Lowering& l, std::vector<Step>& out) {
  if (l.classes.of(n.outputs[0]) == ValueClasses::Class::Scalar) return;
  l.bind(n.outputs[0], l.dataStorageOf(n.inputs[0], n, out));
}

// A fill or range as the progression start + step * i (a fill's step is 0).
std::pair<double, double> progressionOf(const Node& n) {
  return n.op == "Fill" ? std::make_pair(n.floatAttr("value"), 0.0) : std::make_pair(n.floatAttr("start"), n.floatAttr("step"));
}

void classifyCreation(const Node& n, ValueClasses& classes) {
  ValueId res = n.outputs[0];
  if (graph::elementCount(classes.graph().type(res).shape) == 1) {
    classes.setScalar(res, progressionOf(n).first);
  } else {
    classes.setArray(res);
  }
}

void lowerCreation(const Node& n, Lowering& l, std::vector<Step>&) {
  ValueId res = n.outputs[0];
  const graph::TensorType& t = l.graph.type(res);
  std::vector<int64_t> shape = staticShape(t, n.loc);
  if (l.classes.of(res) == ValueClasses::Class::Scalar) return;
  const std::pair<double, double> progression = progressionOf(n);
  l.bind(res, l.constantStorage(l.graph.value(res).name, t.dtype, shape,
                                [progression](int64_t i) { return progression.first + progression.second * static_cast<double>(i); },
                                n.loc));
}

}  // namespace

const Template viewTemplate{"view", {"Reshape", "ExpandDims", "Squeeze"}, lowerView, nullptr, classifyView};
const Template creationTemplate{"creation", {"Fill", "Range"}, lowerCreation, nullptr, classifyCreation};

}  // namespace pyasc::codegen
