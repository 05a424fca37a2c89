// The pooling template: max and average pooling as the window kernel over NHWC; NCHW is the same
// kernel over N·C images of one channel each (one lane per pixel).
#include "codegen/lower/WindowKernel.h"
#include "codegen/templates/Template.h"
#include "registry/PoolWindow.h"

namespace pyasc::codegen {

namespace {

void lowerPool2d(const Node& n, Lowering& l, std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  ValueId in = n.inputs[0], res = n.outputs[0];
  std::vector<int64_t> shape = staticShape(g.type(in), n.loc);
  registry::PoolWindow win;
  std::string error;
  if (!registry::poolWindow(n, win, error)) throw CompileError(n.loc, error);
  WindowCompute c;
  c.op = registry::poolFunctionName(n.op);
  c.name = l.kernelName(c.op);
  c.reduce = n.op == "MaxPool2D" ? WindowReduce::Max : WindowReduce::Average;
  c.inType = g.type(in).dtype;
  c.outType = g.type(res).dtype;
  c.n = win.nchw ? shape[0] * shape[1] : shape[0];
  c.h = shape[win.nchw ? 2 : 1];
  c.w = shape[win.nchw ? 3 : 2];
  c.c = win.nchw ? 1 : shape[3];
  c.kh = win.kh;
  c.kw = win.kw;
  c.strideH = win.strideH;
  c.strideW = win.strideW;
  c.padTop = win.padTop;
  c.padBottom = win.padBottom;
  c.padLeft = win.padLeft;
  c.padRight = win.padRight;
  c.sourceLine = n.loc.line;
  int src = l.storageOf(in, n.loc);
  int dst = l.newIntermediate(res);
  if (product(shape) == 0) return;
  WindowSchedule s = requireWindowSchedule(c, l.target, l.cores(false));
  l.launch(out, lowerWindow(c, s, l.target), {src, dst});
}

}  // namespace

const Template pool2dTemplate{"pool2d", {"MaxPool2D", "AvgPool2D"}, lowerPool2d};

}  // namespace pyasc::codegen
