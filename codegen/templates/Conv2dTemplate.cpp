// The conv2d template: the img2col cube kernel (depthwise ones possibly on the vector window
// engine), NCHW through NHWC scratch copies, FusedConv2D with its epilogue (codegen/lower/ConvKernel).
#include <map>

#include "codegen/lower/ConvKernel.h"
#include "codegen/schedule/PatternSchedules.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

namespace {

void lowerConv2d(const Node& n, Lowering& l, std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  ValueId x = n.inputs[0], w = n.inputs[1], res = n.outputs[0];
  std::vector<int64_t> sx = staticShape(g.type(x), n.loc), sw = staticShape(g.type(w), n.loc);
  DType in = g.type(x).dtype;
  if (g.type(w).dtype != in || !(in == DType::Float16 || in == DType::Float32)) {
    throw CompileError(n.loc, std::string("conv2d of ") + dtypeName(in) + " and " + dtypeName(g.type(w).dtype) +
                                  " is not supported by the cube unit yet (float16 or float32 on both sides)");
  }
  Conv2dCompute c;
  c.name = l.kernelName("conv2d");
  c.inType = in;
  c.outType = g.type(res).dtype;
  c.nchw = n.stringAttr("layout", "NHWC") == "NCHW";
  c.n = sx[0];
  c.h = sx[c.nchw ? 2 : 1];
  c.w = sx[c.nchw ? 3 : 2];
  c.cin = sx[c.nchw ? 1 : 3];
  c.kh = sw[c.nchw ? 2 : 0];
  c.kw = sw[c.nchw ? 3 : 1];
  c.cout = sw[c.nchw ? 0 : 3];
  // an attribute the graph text leaves out takes the registry's default
  std::vector<int64_t> strides = n.intListAttr("strides", {1, 1}), pads = n.intListAttr("pads", {0, 0, 0, 0}),
                       dil = n.intListAttr("dilations", {1, 1});
  c.strideH = strides[0];
  c.strideW = strides[1];
  c.padTop = pads[0];
  c.padBottom = pads[1];
  c.padLeft = pads[2];
  c.padRight = pads[3];
  c.dilationH = dil[0];
  c.dilationW = dil[1];
  c.groups = n.intAttr("groups", 1);
  c.sourceLine = n.loc.line;
  c.epilogue.scale = n.boolAttr("scale");
  if (c.epilogue.scale) c.epilogue.scaleType = g.type(n.inputs.at(2)).dtype;
  c.epilogue.bias = n.boolAttr("bias");
  if (c.epilogue.bias) c.epilogue.biasType = g.type(n.inputs.at(c.epilogue.scale ? 3 : 2)).dtype;
  c.epilogue.batchNorm = n.boolAttr("batch_norm");
  c.epilogue.epsilon = n.floatAttr("epsilon", 1e-5);
  c.epilogue.residual = n.boolAttr("residual");
  c.epilogue.relu = n.boolAttr("relu");
  if (c.epilogue.residual) c.epilogue.residualType = g.type(n.inputs.back()).dtype;
  // dynamic shapes: extents at their largest, the narrowest width, and the extents as launch scalars
  const std::vector<ShapeExpr>* xDims = l.shapes.dims(x);
  std::vector<int64_t> lo, hi;
  for (const auto& sym : g.symbols) {
    lo.push_back(sym.min);
    hi.push_back(sym.max);
  }
  if (xDims) {
    c.dynamicShape = true;
    c.minN = shape::lowest((*xDims)[0], lo, hi);
    c.minH = shape::lowest((*xDims)[1], lo, hi);
    c.minW = shape::lowest((*xDims)[2], lo, hi);
  }
  Conv2dSchedule schedule = scheduleConv2d(c, l.target, l.cores(true), Conv2dSearch{l.options.wideTileSearch});
  std::vector<model::AffineScalar> scalars;
  if (xDims) {
    const std::vector<ShapeExpr>& outDims = *l.shapes.dims(res);
    const ShapeExpr positions = shape::mul(outDims[1], outDims[2]), tm = shape::constant(schedule.tm);
    // dynamicTilePositions: whole output rows, or tm when one row is wider
    const ShapeExpr tile = shape::max(shape::mul(shape::floorDiv(tm, outDims[2]), outDims[2]), shape::min(tm, outDims[2]));
    const ShapeExpr perImage = shape::ceilDiv(positions, tile);
    for (const ShapeExpr& e : {(*xDims)[1], (*xDims)[2], outDims[2], positions, tile, perImage, shape::mul((*xDims)[0], perImage)})
      scalars.push_back(model::AffineScalar{0, {}, e});
  }
  Conv2dLaunches plan = lowerConv2dLaunches(c, schedule, l.target);
  for (auto& launch : plan.launches)
    if (launch.code.name == c.name) launch.code.schedule = conv2dTrace(c, schedule).str();
  std::map<Conv2dTensor, int> tensors = {
      {Conv2dTensor::Input, l.storageOf(x, n.loc)}, {Conv2dTensor::Weights, l.storageOf(w, n.loc)},
      {Conv2dTensor::Output, l.newIntermediate(res)}};
  size_t operand = 2;
  if (c.epilogue.scale) tensors[Conv2dTensor::Scale] = l.storageOf(n.inputs.at(operand++), n.loc);
  if (c.epilogue.bias) tensors[Conv2dTensor::Bias] = l.storageOf(n.inputs.at(operand++), n.loc);
  if (c.epilogue.batchNorm)
    for (Conv2dTensor t : {Conv2dTensor::Mean, Conv2dTensor::Var, Conv2dTensor::Gamma, Conv2dTensor::Beta})
      tensors[t] = l.storageOf(n.inputs.at(operand++), n.loc);
  if (c.epilogue.residual) tensors[Conv2dTensor::Residual] = l.storageOf(n.inputs.at(operand), n.loc);
  for (const auto& scratch : plan.scratch) {
    Storage s;
    s.name = g.value(res).name + "_nhwc";
    s.dtype = scratch.tensor == Conv2dTensor::OutputNhwc ? c.outType : c.inType;
    s.shape = {scratch.bytes / dtypeSize(s.dtype)};
    s.loc = n.loc;
    tensors[scratch.tensor] = l.addStorage(s);
  }
  for (auto& launch : plan.launches) {
    std::vector<int> args;
    for (Conv2dTensor t : launch.args) args.push_back(tensors.at(t));
    l.launch(out, std::move(launch.code), args, scalars);
  }
}

}  // namespace

const Template conv2dTemplate{"conv2d", {"Conv2D", "FusedConv2D"}, lowerConv2d};

}  // namespace pyasc::codegen
