// The argmax/argmin template: float16, float32 and int32 along the last axis on the vector unit,
// along other axes by a scalar-unit scan (codegen/lower/ArgReduceKernel).
#include "codegen/lower/ArgReduceKernel.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

void lowerArgReduce(const Node& n, Lowering& l, std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  ValueId in = n.inputs[0], res = n.outputs[0];
  DType t = g.type(in).dtype;
  const DType index = g.type(res).dtype;  // int64, or int32 after stage narrow-integers
  if (!(t == DType::Float16 || t == DType::Float32 || t == DType::Int32) || (index != DType::Int64 && index != DType::Int32)) {
    throw CompileError(n.loc, std::string(n.op == "ArgMax" ? "argmax" : "argmin") + " of " + dtypeName(t) +
                                  " is not supported on the NPU yet (float16, float32 and int32 are)");
  }
  std::vector<int64_t> shape = staticShape(g.type(in), n.loc);
  ArgReduceCompute c;
  c.name = l.kernelName(n.op == "ArgMax" ? "argmax" : "argmin");
  c.argmin = n.op == "ArgMin";
  c.dtype = t;
  c.indexType = index;
  if (n.hasAttr("axis")) {
    int64_t axis = n.intAttr("axis");
    if (axis < 0) axis += static_cast<int64_t>(shape.size());
    c.outer = product(shape, 0, static_cast<size_t>(axis));
    c.reduce = shape[static_cast<size_t>(axis)];
    c.inner = product(shape, static_cast<size_t>(axis) + 1);
  } else {
    c.reduce = product(shape);
  }
  c.sourceLine = n.loc.line;
  int src = l.storageOf(in, n.loc);
  int dst = l.newIntermediate(res);
  l.launch(out, codegen::lowerArgReduce(c, l.target, l.cores(false)), {src, dst});
}

}  // namespace

const Template argReduceTemplate{"arg-reduce", {"ArgMax", "ArgMin"}, lowerArgReduce};

}  // namespace pyasc::codegen
