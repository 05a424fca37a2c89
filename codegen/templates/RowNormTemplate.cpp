// The row-norm template: last-axis softmax, log-softmax and layer norm to the fused row kernel
// (codegen/lower/SoftmaxKernel: a tile of rows read once, reduced and normalised in UB, written once).
#include "codegen/templates/RowNormTemplate.h"

#include "codegen/lower/SoftmaxKernel.h"
#include "codegen/schedule/PatternSchedules.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

RowNorm rowNormOf(const Node& n) {
  return n.op == "Softmax" ? RowNorm::Softmax : n.op == "LogSoftmax" ? RowNorm::LogSoftmax : RowNorm::LayerNorm;
}

const char* kindName(RowNorm kind) { return kind == RowNorm::LayerNorm ? "layer norm" : "softmax"; }

}  // namespace

std::string rowNormRefusal(const Node& n, const graph::Graph& g, const Target& target) {
  const graph::TensorType& x = g.type(n.inputs[0]);
  const RowNorm kind = rowNormOf(n);
  const DType t = kind == RowNorm::LayerNorm ? x.dtype : g.type(n.outputs[0]).dtype;
  int64_t axis = n.intAttr("axis", -1);
  if (axis < 0) axis += x.rank();
  const std::string composite = " is computed by its composite (expand-composites)";
  if (axis != x.rank() - 1) return std::string(kindName(kind)) + " along axis " + std::to_string(axis) + composite;
  if (!(t == DType::Float16 || t == DType::Float32)) return std::string(kindName(kind)) + " of " + dtypeName(t) + composite;
  SoftmaxCompute c;
  c.kind = kind;
  c.dtype = t;
  c.cols = x.shape.empty() ? 1 : x.shape.back().extent;
  if (c.cols <= 0 || graph::elementCount(x.shape) < 0) return "";  // lowering reports the shape
  if (kind == RowNorm::LayerNorm) {
    for (ValueId affine : {n.inputs[1], n.inputs[2]}) {
      const graph::TensorType& a = g.type(affine);
      if (a.dtype != x.dtype || graph::elementCount(a.shape) != c.cols || a.shape.empty() || a.shape.back().extent != c.cols) {
        return "layer norm with gamma and beta other than one row each of x's type" + composite;
      }
    }
  }
  return rowKernelRefusal(c, target);
}

namespace {

void lowerRowNorm(const Node& n, Lowering& l, std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  ValueId in = n.inputs[0], res = n.outputs[0];
  std::vector<int64_t> shape = staticShape(g.type(in), n.loc);
  SoftmaxCompute c;
  c.kind = rowNormOf(n);
  c.name = l.kernelName(n.op == "Softmax" ? "softmax" : n.op == "LogSoftmax" ? "log_softmax" : "layer_norm");
  c.epsilon = n.floatAttr("epsilon", 1e-5);
  c.dtype = g.type(res).dtype;
  c.cols = shape.empty() ? 1 : shape.back();
  c.rows = product(shape) / std::max<int64_t>(1, c.cols);
  c.sourceLine = n.loc.line;
  SoftmaxSchedule s = scheduleSoftmax(c, l.target, l.cores(false));
  if (const Schedule* explicitSchedule = l.explicitScheduleOf(n)) s = replaySoftmax(*explicitSchedule, c, s, l.target, l.cores(false));
  std::vector<int> args = {l.storageOf(in, n.loc)};
  if (c.kind == RowNorm::LayerNorm) args.insert(args.end(), {l.storageOf(n.inputs[1], n.loc), l.storageOf(n.inputs[2], n.loc)});
  args.push_back(l.newIntermediate(res));
  if (c.rows * c.cols > 0) {
    KernelCode code = codegen::lowerSoftmax(c, s, l.target);
    code.schedule = softmaxTrace(c, s).str();
    l.launch(out, std::move(code), args);
  }
}

}  // namespace

const Template rowNormTemplate{"row-norm", {"Softmax", "LogSoftmax", "LayerNorm"}, lowerRowNorm, rowNormRefusal};

}  // namespace pyasc::codegen
