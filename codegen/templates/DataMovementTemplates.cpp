// The data-movement templates, each one strided-copy kernel (codegen/lower/CopyKernel) or one kernel
// of several copies: transposes, slices and slice updates (offsets constant or affine in loop
// counters), concatenation and stacking, broadcasts, and gathers by constant indices.
#include <numeric>

#include "codegen/lower/CopyKernel.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

void lowerTranspose(const Node& n, Lowering& l, std::vector<Step>& out) {
  ValueId in = n.inputs[0], res = n.outputs[0];
  std::vector<int64_t> shape = staticShape(l.graph.type(in), n.loc);
  std::vector<int64_t> perm = n.intListAttr("perm");
  if (!n.hasAttr("perm")) {
    perm.resize(shape.size());
    std::iota(perm.rbegin(), perm.rend(), 0);
  }
  for (auto& p : perm) p = p < 0 ? p + static_cast<int64_t>(shape.size()) : p;
  int dst = l.transposeInto(l.storageOf(in, n.loc), l.graph.type(in).dtype, shape, perm, n, out);
  l.program.storages[dst].name = l.graph.value(res).name;
  l.bind(res, dst);
}

// The inputs from `firstOffset` on are a slice's dynamic offsets (scalars), the others arrays.
void classifySliceInputs(const Node& n, size_t firstOffset, ValueClasses& classes) {
  for (size_t i = 0; i < firstOffset && i < n.inputs.size(); ++i) classes.readAsArray(n.inputs[i]);
  classes.setArray(n.outputs[0]);
}
void classifySlice(const Node& n, ValueClasses& classes) { classifySliceInputs(n, 1, classes); }
void classifySliceUpdate(const Node& n, ValueClasses& classes) { classifySliceInputs(n, 2, classes); }

// Affine element offsets of a slice's dynamic axes: Σ offset_value · stride.
model::AffineScalar dynamicOffset(const Node& n, const ValueClasses& classes, size_t firstOffsetInput,
                                  const std::vector<int64_t>& strides, int es) {
  model::AffineScalar total;
  std::vector<int64_t> dyn = n.intListAttr("dynamic_axes");
  for (size_t i = 0; i < dyn.size(); ++i) {
    ValueId v = n.inputs[firstOffsetInput + i];
    int64_t scale = strides[static_cast<size_t>(dyn[i])] * es;
    if (classes.of(v) == ValueClasses::Class::Scalar) {
      total.base += static_cast<int64_t>(classes.scalar(v)) * scale;
    } else if (classes.of(v) == ValueClasses::Class::Counter) {
      total.base += classes.affine(v).base * scale;
      for (auto term : classes.affine(v).terms) {
        term.coeff *= scale;
        total.terms.push_back(term);
      }
    } else {
      throw CompileError(n.loc, "slice offsets must be loop counters or constants on the NPU");
    }
  }
  return total;
}

// The copy selecting a slice of `base` (shape, strides) described by the node's attributes.
CopyCompute sliceCopy(const Node& n, const std::vector<int64_t>& baseShape, DType t, std::vector<int64_t>& region) {
  CopyCompute c;
  c.dtype = t;
  std::vector<int64_t> strides = rowMajorStrides(baseShape);
  region = baseShape;
  c.srcStrides = strides;
  std::vector<int64_t> axes = n.intListAttr("axes"), begin = n.intListAttr("begin"), end = n.intListAttr("end"),
                       step = n.intListAttr("step");
  for (size_t i = 0; i < axes.size(); ++i) {
    size_t ax = static_cast<size_t>(axes[i]);
    int64_t len = step[i] > 0 ? std::max<int64_t>(0, (end[i] - begin[i] + step[i] - 1) / step[i])
                              : std::max<int64_t>(0, (begin[i] - end[i] + (-step[i]) - 1) / (-step[i]));
    region[ax] = len;
    c.srcOffset += begin[i] * strides[ax];
    c.srcStrides[ax] = strides[ax] * step[i];
  }
  c.shape = region;
  c.dstStrides = rowMajorStrides(region);
  c.sourceLine = n.loc.line;
  return c;
}

void lowerSlice(const Node& n, Lowering& l, std::vector<Step>& out) {
  ValueId in = n.inputs[0], res = n.outputs[0];
  std::vector<int64_t> shape = staticShape(l.graph.type(in), n.loc), region;
  DType t = l.graph.type(in).dtype;
  CopyCompute c = sliceCopy(n, shape, t, region);
  c.name = l.kernelName("slice");
  std::vector<model::AffineScalar> scalars;
  if (n.inputs.size() > 1) {
    c.srcOffsetArg = true;
    scalars.push_back(dynamicOffset(n, l.classes, 1, rowMajorStrides(shape), dtypeSize(t)));
  }
  int src = l.dataStorageOf(in, n, out);
  int dst = l.newIntermediate(res);
  if (product(region) > 0) l.launch(out, lowerCopy(c, l.target, l.cores(false)), {src, dst}, scalars);
}

void lowerSliceUpdate(const Node& n, Lowering& l, std::vector<Step>& out) {
  ValueId base = n.inputs[0], update = n.inputs[1], res = n.outputs[0];
  std::vector<int64_t> shape = staticShape(l.graph.type(base), n.loc), region;
  DType t = l.graph.type(base).dtype;
  int dst = l.writableCopyOf(base, res, n, out);
  CopyCompute sel = sliceCopy(n, shape, t, region);
  // write the update (row-major, region-shaped) through the slice's strides
  CopyCompute c;
  c.name = l.kernelName("slice_update");
  c.dtype = t;
  c.shape = region;
  c.srcStrides = rowMajorStrides(region);
  c.dstStrides = sel.srcStrides;
  c.dstOffset = sel.srcOffset;
  c.sourceLine = n.loc.line;
  std::vector<model::AffineScalar> scalars;
  if (n.inputs.size() > 2) {
    c.dstOffsetArg = true;
    scalars.push_back(dynamicOffset(n, l.classes, 2, rowMajorStrides(shape), dtypeSize(t)));
  }
  int src = l.dataStorageOf(update, n, out);
  if (product(region) > 0) l.launch(out, lowerCopy(c, l.target, l.cores(false)), {src, dst}, scalars);
}

void lowerConcat(const Node& n, Lowering& l, std::vector<Step>& out) {
  ValueId res = n.outputs[0];
  std::vector<int64_t> outShape = staticShape(l.graph.type(res), n.loc);
  int64_t axis = n.intAttr("axis", 0);
  if (axis < 0) axis += static_cast<int64_t>(outShape.size());
  int dst = l.newIntermediate(res);
  std::vector<int64_t> outStrides = rowMajorStrides(outShape);
  int64_t at = 0;
  for (ValueId in : n.inputs) {
    std::vector<int64_t> shape = staticShape(l.graph.type(in), n.loc);
    if (n.op == "Stack") shape.insert(shape.begin() + axis, 1);
    CopyCompute c;
    c.name = l.kernelName("concat");
    c.dtype = l.graph.type(res).dtype;
    c.shape = shape;
    c.srcStrides = rowMajorStrides(shape);
    c.dstStrides = outStrides;
    c.dstOffset = at * outStrides[static_cast<size_t>(axis)];
    c.sourceLine = n.loc.line;
    at += shape[static_cast<size_t>(axis)];
    if (product(shape) > 0) l.launch(out, lowerCopy(c, l.target, l.cores(false)), {l.dataStorageOf(in, n, out), dst});
  }
}

// Every window as one strided copy: a window axis reads with the stride of the axis it slides along.
void lowerSlidingWindowView(const Node& n, Lowering& l, std::vector<Step>& out) {
  ValueId in = n.inputs[0], res = n.outputs[0];
  const std::vector<int64_t> shape = staticShape(l.graph.type(in), n.loc), outShape = staticShape(l.graph.type(res), n.loc);
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> axes = n.intListAttr("axes");
  if (!n.hasAttr("axes"))
    for (int64_t k = 0; k < rank; ++k) axes.push_back(k);
  const std::vector<int64_t> strides = rowMajorStrides(shape);
  CopyCompute c;
  c.name = l.kernelName("windows");
  c.dtype = l.graph.type(res).dtype;
  c.shape = outShape;
  c.srcStrides = strides;
  for (int64_t a : axes) c.srcStrides.push_back(strides[static_cast<size_t>(a < 0 ? a + rank : a)]);
  c.dstStrides = rowMajorStrides(outShape);
  c.sourceLine = n.loc.line;
  int dst = l.newIntermediate(res);
  if (product(outShape) > 0) l.launch(out, lowerCopy(c, l.target, l.cores(false)), {l.dataStorageOf(in, n, out), dst});
}

void lowerBroadcast(const Node& n, Lowering& l, std::vector<Step>& out) {
  ValueId in = n.inputs[0], res = n.outputs[0];
  std::vector<int64_t> to = staticShape(l.graph.type(res), n.loc);
  int dst = l.broadcastStorage(l.dataStorageOf(in, n, out), staticShape(l.graph.type(in), n.loc), to,
                               l.graph.value(res).name, n, out);
  l.bind(res, dst);
}

// One kernel of copies, one per run of consecutive indices: [outer, run, inner] blocks that
// become single bursts when the run spans whole rows.
void lowerGather(const Node& n, Lowering& l, std::vector<Step>& out) {
  ValueId in = n.inputs[0], res = n.outputs[0];
  std::vector<int64_t> shape = staticShape(l.graph.type(in), n.loc);
  const std::vector<int64_t> indices = n.intListAttr("indices");
  const size_t axis = static_cast<size_t>(n.intAttr("axis"));
  const int64_t outer = product(shape, 0, axis), extent = shape[axis], inner = product(shape, axis + 1);
  const int64_t taken = static_cast<int64_t>(indices.size());
  int dst = l.newIntermediate(res);
  if (outer * taken * inner == 0) return;
  std::vector<CopyCompute> runs;
  for (int64_t first = 0; first < taken;) {
    int64_t length = 1;
    while (first + length < taken && indices[first + length] == indices[first] + length) ++length;
    CopyCompute c;
    c.dtype = l.graph.type(in).dtype;
    c.shape = {outer, length, inner};
    c.srcStrides = {extent * inner, inner, 1};
    c.dstStrides = {taken * inner, inner, 1};
    c.srcOffset = indices[first] * inner;
    c.dstOffset = first * inner;
    c.sourceLine = n.loc.line;
    runs.push_back(c);
    first += length;
  }
  std::string name = l.kernelName("gather");
  l.launch(out, lowerCopies(name, runs, l.target, l.cores(false)), {l.storageOf(in, n.loc), dst});
}

}  // namespace

const Template transposeTemplate{"transpose", {"Transpose"}, lowerTranspose};
const Template sliceTemplate{"slice", {"Slice"}, lowerSlice, nullptr, classifySlice};
const Template sliceUpdateTemplate{"slice-update", {"SliceUpdate"}, lowerSliceUpdate, nullptr, classifySliceUpdate};
const Template concatTemplate{"concat", {"Concat", "Stack"}, lowerConcat};
const Template broadcastTemplate{"broadcast", {"BroadcastTo"}, lowerBroadcast};
const Template gatherTemplate{"gather", {"Gather"}, lowerGather};
const Template slidingWindowTemplate{"sliding-window-view", {"SlidingWindowView"}, lowerSlidingWindowView};

}  // namespace pyasc::codegen
