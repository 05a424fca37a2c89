// Templates without a kernel: reshapes are views of their input's storage, and fills and ranges
// are constants (one element: a compile-time scalar the kernels reading it embed).
#include <algorithm>

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

void lowerView(const Node& n, Lowering& l, std::vector<Step>&) {
  if (l.classes.of(n.outputs[0]) == ValueClasses::Class::Scalar) return;
  l.bind(n.outputs[0], l.storageOf(n.inputs[0], n.loc));
}

// The elements of a fill or range of `count` elements.
std::vector<double> creationValues(const Node& n, int64_t count) {
  std::vector<double> values(static_cast<size_t>(count));
  if (n.op == "Fill") {
    std::fill(values.begin(), values.end(), n.floatAttr("value"));
  } else {
    double start = n.floatAttr("start"), step = n.floatAttr("step");
    for (size_t i = 0; i < values.size(); ++i) values[i] = start + step * static_cast<double>(i);
  }
  return values;
}

void classifyCreation(const Node& n, ValueClasses& classes) {
  ValueId res = n.outputs[0];
  if (graph::elementCount(classes.graph().type(res).shape) == 1) {
    classes.setScalar(res, creationValues(n, 1)[0]);
  } else {
    classes.setArray(res);
  }
}

void lowerCreation(const Node& n, Lowering& l, std::vector<Step>&) {
  ValueId res = n.outputs[0];
  const graph::TensorType& t = l.graph.type(res);
  std::vector<int64_t> shape = staticShape(t, n.loc);
  if (l.classes.of(res) == ValueClasses::Class::Scalar) return;
  Storage s;
  s.name = l.graph.value(res).name;
  s.dtype = t.dtype;
  s.shape = shape;
  s.role = model::TensorRole::Constant;
  s.constant = graph::encodeConstant(t.dtype, creationValues(n, product(shape)));
  l.bind(res, l.addStorage(s));
}

}  // namespace

const Template viewTemplate{"view", {"Reshape", "ExpandDims", "Squeeze"}, lowerView, nullptr, classifyView};
const Template creationTemplate{"creation", {"Fill", "Range"}, lowerCreation, nullptr, classifyCreation};

}  // namespace pyasc::codegen
