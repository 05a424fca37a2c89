// The pad template, decomposed into copies: the input copied into the interior of the result, and
// the border cut into one block per (axis d, side): every position of the axes before d, the pad
// of axis d, the interior of the axes after d. Mode 'constant' fills all blocks in one kernel (vdup
// of a one-element constant); mode 'edge' fills the blocks of each axis in turn from the result's
// first or last interior plane along that axis (a broadcast), once the axes before it are complete.
#include "codegen/lower/CopyKernel.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

void lowerPad(const Node& n, Lowering& l, std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  ValueId in = n.inputs[0], res = n.outputs[0];
  std::vector<int64_t> shape = staticShape(g.type(in), n.loc), outShape = staticShape(g.type(res), n.loc);
  const std::vector<int64_t> pads = n.intListAttr("pads");
  const DType t = g.type(res).dtype;
  const bool edge = n.stringAttr("mode", "constant") == "edge";
  const std::vector<int64_t> outStrides = rowMajorStrides(outShape);
  const size_t rank = shape.size();
  int dst = l.newIntermediate(res);
  if (product(outShape) == 0) return;
  // element offset in the result of the interior along the axes from `axis` on
  auto interiorOffset = [&](size_t axis) {
    int64_t offset = 0;
    for (size_t d = axis; d < rank; ++d) offset += pads[2 * d] * outStrides[d];
    return offset;
  };
  auto border = [&](size_t d, int side) {
    CopyCompute c;
    c.dtype = t;
    c.shape = outShape;
    for (size_t k = d + 1; k < rank; ++k) c.shape[k] = shape[k];
    c.shape[d] = pads[2 * d + static_cast<size_t>(side)];
    c.dstStrides = outStrides;
    c.dstOffset = interiorOffset(d + 1) + (side == 0 ? 0 : pads[2 * d] + shape[d]) * outStrides[d];
    c.srcStrides.assign(rank, 0);
    c.sourceLine = n.loc.line;
    return c;
  };
  CopyCompute interior;
  interior.name = l.kernelName("pad");
  interior.dtype = t;
  interior.shape = shape;
  interior.srcStrides = rowMajorStrides(shape);
  interior.dstStrides = outStrides;
  interior.dstOffset = interiorOffset(0);
  interior.sourceLine = n.loc.line;
  if (product(shape) > 0) l.launch(out, lowerCopy(interior, l.target, l.cores(false)), {l.storageOf(in, n.loc), dst});
  std::vector<CopyCompute> fills;
  for (size_t d = 0; d < rank; ++d) {
    std::vector<CopyCompute> planes;
    for (int side = 0; side < 2; ++side) {
      CopyCompute c = border(d, side);
      if (product(c.shape) == 0) continue;
      if (edge) {
        // the interior plane next to the border, re-read along axis d
        c.srcStrides = outStrides;
        c.srcStrides[d] = 0;
        c.srcOffset = interiorOffset(d + 1) + (side == 0 ? pads[2 * d] : pads[2 * d] + shape[d] - 1) * outStrides[d];
      }
      (edge ? planes : fills).push_back(c);
    }
    if (!planes.empty()) l.launch(out, lowerCopies(l.kernelName("pad_edge"), planes, l.target, l.cores(false)), {dst, dst});
  }
  if (!fills.empty()) {
    const double fill = n.floatAttr("value");
    int value = l.constantStorage(g.value(res).name + "_pad_value", t, {1}, [fill](int64_t) { return fill; }, n.loc);
    l.launch(out, lowerCopies(l.kernelName("pad_fill"), fills, l.target, l.cores(false)), {value, dst});
  }
}

}  // namespace

const Template padTemplate{"pad", {"Pad"}, lowerPad};

}  // namespace pyasc::codegen
