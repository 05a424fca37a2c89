// Pooling window kernels with forced multi-row schedules on the simulator against ops/'s reference.
#include "codegen/lower/WindowKernel.h"

#include <gtest/gtest.h>

#include "ops/Pooling.h"
#include "tests/unit/codegen/KernelTestSupport.h"

using namespace pyasc;
using namespace pyasc::codegen;

namespace {

struct PoolCase {
  const char* label;
  WindowReduce reduce;
  DType dtype;
  int64_t n, h, w, c, kh, kw, strideH, strideW, padTop, padBottom, padLeft, padRight;
};

TEST(WindowKernel, PoolingWithForcedTilesMatchesReference) {
  Target target = pyasc::testing::testTarget("ascend910b");
  const PoolCase cases[] = {
      {"max_f16_rows", WindowReduce::Max, DType::Float16, 2, 11, 9, 130, 3, 3, 2, 1, 1, 1, 1, 0},
      {"avg_f32_rows", WindowReduce::Average, DType::Float32, 1, 13, 10, 40, 2, 3, 1, 2, 1, 0, 1, 1},
      {"avg_f16_wide_stride", WindowReduce::Average, DType::Float16, 3, 9, 17, 17, 3, 2, 3, 2, 1, 1, 0, 1},
      {"max_f32_kernel_1_stride_3", WindowReduce::Max, DType::Float32, 2, 10, 8, 5, 1, 1, 3, 3, 0, 0, 0, 0}};
  for (const PoolCase& k : cases) {
    WindowCompute c;
    c.name = k.label;
    c.reduce = k.reduce;
    c.inType = c.outType = k.dtype;
    c.n = k.n;
    c.h = k.h;
    c.w = k.w;
    c.c = k.c;
    c.kh = k.kh;
    c.kw = k.kw;
    c.strideH = k.strideH;
    c.strideW = k.strideW;
    c.padTop = k.padTop;
    c.padBottom = k.padBottom;
    c.padLeft = k.padLeft;
    c.padRight = k.padRight;
    graph::Node node;
    node.op = k.reduce == WindowReduce::Max ? "MaxPool2D" : "AvgPool2D";
    node.setAttr("kernel", std::vector<int64_t>{k.kh, k.kw});
    node.setAttr("strides", std::vector<int64_t>{k.strideH, k.strideW});
    node.setAttr("pads", std::vector<int64_t>{k.padTop, k.padBottom, k.padLeft, k.padRight});
    pyasc::testing::HostTensor x = pyasc::testing::randomTensor(k.dtype, k.n * k.h * k.w * k.c, 51);
    std::vector<double> want = ops::pool2dReference(node, {k.n, k.h, k.w, k.c}, x.values);
    for (int64_t rows : {int64_t{1}, int64_t{2}, c.outH()}) {
      WindowSchedule s = requireWindowSchedule(c, target, 4);
      s.rows = rows;
      s.blockDim = 3;
      pyasc::testing::HostTensor out{k.dtype, std::vector<double>(want.size(), 0.0)};
      auto run = pyasc::testing::runKernel(target, lowerWindow(c, s, target), {x, out});
      EXPECT_LT(pyasc::testing::relativeError(run.results[1].values, want), k.dtype == DType::Float16 ? 2e-3 : 1e-5)
          << k.label << " " << s.str();
    }
  }
}

}  // namespace
