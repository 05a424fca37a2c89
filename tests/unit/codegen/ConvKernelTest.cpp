// Generated conv2d kernels (img2col + cube, NHWC and NCHW) on the simulator against float64 references.
#include "codegen/lower/ConvKernel.h"

#include <gtest/gtest.h>

#include <map>

#include "codegen/lower/CubeShapes.h"
#include "sdk/support/Diagnostics.h"
#include "tests/unit/codegen/KernelTestSupport.h"

using namespace pyasc;
using namespace pyasc::codegen;
using pyasc::testing::HostTensor;

namespace {

struct Case {
  const char* label;
  int64_t n, h, w, cin, cout, kh, kw, stride, padTop, padBottom, padLeft, padRight, dilation, groups;
  bool nchw;
  DType in, out;
  const char* target;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.label << " on " << c.target; }

Conv2dCompute computeOf(const Case& k) {
  Conv2dCompute c;
  c.name = k.label;
  c.inType = k.in;
  c.outType = k.out;
  c.n = k.n;
  c.h = k.h;
  c.w = k.w;
  c.cin = k.cin;
  c.cout = k.cout;
  c.kh = k.kh;
  c.kw = k.kw;
  c.strideH = c.strideW = k.stride;
  c.padTop = k.padTop;
  c.padBottom = k.padBottom;
  c.padLeft = k.padLeft;
  c.padRight = k.padRight;
  c.dilationH = c.dilationW = k.dilation;
  c.groups = k.groups;
  c.nchw = k.nchw;
  return c;
}

// float64 conv2d in the compute's own layout.
std::vector<double> reference(const Conv2dCompute& c, const std::vector<double>& x, const std::vector<double>& wt) {
  const int64_t oh = c.outH(), ow = c.outW(), cg = c.cin / c.groups, ng = c.cout / c.groups;
  auto xAt = [&](int64_t b, int64_t y, int64_t xx, int64_t ch) {
    return c.nchw ? x[((b * c.cin + ch) * c.h + y) * c.w + xx] : x[((b * c.h + y) * c.w + xx) * c.cin + ch];
  };
  auto wAt = [&](int64_t i, int64_t j, int64_t ch, int64_t co) {
    return c.nchw ? wt[((co * cg + ch) * c.kh + i) * c.kw + j] : wt[((i * c.kw + j) * cg + ch) * c.cout + co];
  };
  std::vector<double> out(static_cast<size_t>(c.outputElements()));
  for (int64_t b = 0; b < c.n; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xx = 0; xx < ow; ++xx)
        for (int64_t co = 0; co < c.cout; ++co) {
          int64_t group = co / ng;
          double acc = 0;
          for (int64_t i = 0; i < c.kh; ++i)
            for (int64_t j = 0; j < c.kw; ++j) {
              int64_t iy = y * c.strideH - c.padTop + i * c.dilationH, ix = xx * c.strideW - c.padLeft + j * c.dilationW;
              if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w) continue;
              for (int64_t ch = 0; ch < cg; ++ch) acc += xAt(b, iy, ix, group * cg + ch) * wAt(i, j, ch, co);
            }
          size_t at = c.nchw ? ((b * c.cout + co) * oh + y) * ow + xx : ((b * oh + y) * ow + xx) * c.cout + co;
          out[at] = acc;
        }
  return out;
}

// Runs every launch on one device (sanitizer on) with the operator's tensors (input, weights and
// the epilogue's in `extra`) and the scratch ones; returns the output tensor.
std::vector<double> runLaunches(const Target& target, const Conv2dCompute& c, const Conv2dLaunches& plan,
                                const HostTensor& input, const HostTensor& weights,
                                const std::map<Conv2dTensor, HostTensor>& extra = {}) {
  std::map<Conv2dTensor, std::pair<uint64_t, int64_t>> where;  // GM offset, bytes
  uint64_t gm = 0;
  auto place = [&](Conv2dTensor t, int64_t bytes) {
    where[t] = {gm, bytes};
    gm += (static_cast<uint64_t>(bytes) + 511) / 512 * 512 + 512;
  };
  place(Conv2dTensor::Input, c.inputElements() * dtypeSize(c.inType));
  place(Conv2dTensor::Weights, c.weightElements() * dtypeSize(c.inType));
  place(Conv2dTensor::Output, c.outputElements() * dtypeSize(c.outType));
  for (const auto& [t, h] : extra) place(t, static_cast<int64_t>(h.values.size()) * dtypeSize(h.dtype));
  for (const Conv2dScratch& s : plan.scratch) place(s.tensor, s.bytes);
  sim::Device device(target, gm);
  for (const auto& [tensor, at] : where) {
    const bool scratch = std::any_of(plan.scratch.begin(), plan.scratch.end(), [&](const Conv2dScratch& s) { return s.tensor == tensor; });
    bool readOnly = tensor != Conv2dTensor::Output && !scratch;
    device.addRegion(sim::GmRegion{at.first, static_cast<uint64_t>(at.second), "t" + std::to_string(int(tensor)), !readOnly});
  }
  auto fill = [&](Conv2dTensor t, const HostTensor& h) {
    for (size_t e = 0; e < h.values.size(); ++e)
      pyasc::testing::store(device.gm() + where[t].first + e * dtypeSize(h.dtype), h.dtype, h.values[e]);
  };
  fill(Conv2dTensor::Input, input);
  fill(Conv2dTensor::Weights, weights);
  for (const auto& [t, h] : extra) fill(t, h);
  for (const Conv2dLaunch& launch : plan.launches) {
    sim::LaunchOptions options;
    options.blockDim = launch.code.blockDim;
    for (Conv2dTensor t : launch.args) options.args.push_back(where.at(t).first);
    device.launch(sim::Kernel{launch.code.name, launch.code.program, launch.code.sourceLines}, options);
  }
  std::vector<double> out(static_cast<size_t>(c.outputElements()));
  for (size_t e = 0; e < out.size(); ++e)
    out[e] = pyasc::testing::load(device.gm() + where[Conv2dTensor::Output].first + e * dtypeSize(c.outType), c.outType);
  return out;
}

double tolerance(DType out) { return out == DType::Float16 ? 2e-3 : 1e-5; }

double runAndCompare(const Target& target, const Conv2dCompute& c, const Conv2dSchedule& s) {
  HostTensor x = pyasc::testing::randomTensor(c.inType, c.inputElements(), 21);
  HostTensor wt = pyasc::testing::randomTensor(c.inType, c.weightElements(), 22);
  std::vector<double> out = runLaunches(target, c, lowerConv2dLaunches(c, s, target), x, wt);
  return pyasc::testing::relativeError(out, reference(c, x.values, wt.values));
}

class ConvKernel : public ::testing::TestWithParam<Case> {};

TEST_P(ConvKernel, MatchesReference) {
  const Case& k = GetParam();
  Target target = pyasc::testing::testTarget(k.target);
  Conv2dCompute c = computeOf(k);
  Conv2dSchedule s = scheduleConv2d(c, target, target.cubeCores);
  EXPECT_LT(runAndCompare(target, c, s), tolerance(k.out)) << s.str();
}

constexpr DType F16 = DType::Float16, F32 = DType::Float32;

INSTANTIATE_TEST_SUITE_P(
    Shapes, ConvKernel,
    ::testing::Values(
        //   label            n  h   w  cin cout kh kw s  pT pB pL pR d  g  nchw
        Case{"pointwise",     1, 7,  9, 20, 24,  1, 1, 1, 0, 0, 0, 0, 1, 1, false, F16, F32, "ascend910b"},
        Case{"same3x3",       2, 10, 12, 16, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, F16, F16, "ascend910b"},
        Case{"stride2_5x5",   1, 11, 13, 3, 5,   5, 5, 2, 2, 2, 2, 2, 1, 1, false, F32, F32, "ascend910b"},
        Case{"dilated",       1, 9,  10, 17, 33, 3, 3, 1, 2, 2, 2, 2, 2, 1, false, F16, F32, "ascend310"},
        Case{"asymmetric",    2, 6,  7, 8, 12,   3, 2, 1, 0, 2, 1, 0, 1, 2, false, F16, F16, "ascend910b"},
        Case{"depthwise",     2, 8,  8, 24, 24,  3, 3, 1, 1, 1, 1, 1, 1, 24, false, F16, F32, "ascend910b"},
        Case{"nchw_stride2",  2, 8,  9, 5, 7,    3, 3, 2, 1, 1, 1, 1, 1, 1, true, F16, F32, "ascend910b"},
        Case{"nchw_depthwise", 1, 7, 7, 6, 6,    5, 5, 1, 2, 2, 2, 2, 1, 6, true, F32, F32, "ascend910b"},
        Case{"resnet_block",  1, 28, 28, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, F16, F16, "ascend910b"}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.label); });

// Small forced tiles: several channel blocks per K reduction, windows whose rows overlap, output
// channel slices with a tail, more tiles than cores.
TEST(ConvKernelSchedule, ForcedSmallTilesAccumulateChannelBlocks) {
  Target target = pyasc::testing::testTarget("ascend310");
  Conv2dCompute c = computeOf(Case{"blocks", 2, 9, 11, 40, 40, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, F16, F32, "ascend310"});
  Conv2dSchedule s = scheduleConv2d(c, target, target.cubeCores);
  s.tm = 16;
  s.tn = 16;
  s.tc = 16;  // the scheduled window rows suit the larger scheduled tm, so they hold these tiles too
  EXPECT_LT(runAndCompare(target, c, s), tolerance(F32)) << s.str();
}

// The vector depthwise engine, forced: slices of up to 64 channels with a tail, one or three output
// rows per tile, strides, dilations, asymmetric pads, both layouts and every type pair.
TEST(ConvKernelSchedule, VectorDepthwiseMatchesReference) {
  Target target = pyasc::testing::testTarget("ascend910b");
  const Case cases[] = {
      Case{"dw_f16", 2, 9, 10, 24, 24, 3, 3, 1, 1, 1, 1, 1, 1, 24, false, F16, F32, "ascend910b"},
      Case{"dw_wide", 1, 7, 8, 70, 70, 3, 3, 2, 1, 0, 0, 1, 1, 70, false, F16, F16, "ascend910b"},
      Case{"dw_dilated", 1, 11, 9, 5, 5, 5, 3, 1, 4, 3, 2, 1, 2, 5, false, F32, F16, "ascend910b"},
      Case{"dw_nchw", 2, 6, 7, 12, 12, 3, 3, 2, 1, 1, 1, 1, 1, 12, true, F32, F32, "ascend910b"}};
  for (const Case& k : cases) {
    Conv2dCompute c = computeOf(k);
    for (int64_t rows : {1, 3}) {  // several output rows per tile share their input rows
      Conv2dSchedule s;
      s.engine = Conv2dEngine::VectorDepthwise;
      s.tc = std::min<int64_t>(64, c.cin);
      s.outRows = std::min(rows, c.outH());
      s.blockDim = 3;
      EXPECT_LT(runAndCompare(target, c, s), tolerance(k.out)) << k.label << " " << s.str();
    }
  }
}

// A depthwise layer large enough for the vector engine to beat the cube's one-channel fractals:
// the solver picks it, and the simulator agrees (cycles recorded as test properties).
TEST(ConvKernelSchedule, DepthwiseChoosesTheVectorEngine) {
  Target target = pyasc::testing::testTarget("ascend910b");
  Conv2dCompute c = computeOf(Case{"dw", 1, 40, 40, 32, 32, 3, 3, 1, 1, 1, 1, 1, 1, 32, false, F16, F16, "ascend910b"});
  Conv2dSchedule vector = scheduleConv2d(c, target, target.cubeCores);
  ASSERT_EQ(vector.engine, Conv2dEngine::VectorDepthwise) << vector.str();
  // a cube schedule of the kind the solver weighed against it: 80 positions × one group per tile
  Conv2dSchedule cube{Conv2dEngine::Cube, 80, 16, 16, 1, 5, 2, target.cubeCores, 0};
  auto cycles = [&](const Conv2dSchedule& s) {
    HostTensor x = pyasc::testing::randomTensor(c.inType, c.inputElements(), 31);
    HostTensor wt = pyasc::testing::randomTensor(c.inType, c.weightElements(), 32);
    HostTensor out{c.outType, std::vector<double>(static_cast<size_t>(c.outputElements()), 0.0)};
    return pyasc::testing::runKernel(target, lowerConv2d(c, s, target), {x, wt, out}).stats.cycles;
  };
  uint64_t vectorCycles = cycles(vector), cubeCycles = cycles(cube);
  RecordProperty("vector_cycles", std::to_string(vectorCycles));
  RecordProperty("cube_cycles", std::to_string(cubeCycles));
  EXPECT_LT(vectorCycles, cubeCycles);
}

// One kernel row per K chunk; in the last tile kernel rows 3 and 4 see only bottom padding.
TEST(ConvKernelSchedule, KernelRowChunksSkipRowsBeyondTheImage) {
  Target target = pyasc::testing::testTarget("ascend910b");
  Conv2dCompute c = computeOf(Case{"rows", 1, 5, 6, 4, 8, 5, 3, 1, 0, 4, 1, 1, 1, 1, false, F16, F32, "ascend910b"});
  Conv2dSchedule s = scheduleConv2d(c, target, target.cubeCores);
  s.tm = 16;
  s.kr = 1;
  EXPECT_LT(runAndCompare(target, c, s), tolerance(F32)) << s.str();
}

// A 7×7 stride-2 stem: K = 7·7·16 per channel block is too long for L0A beside a useful tile, so
// the solver splits the kernel rows.
TEST(ConvKernelSchedule, StemSplitsKernelRows) {
  Target target = pyasc::testing::testTarget("ascend910b");
  Conv2dCompute c = computeOf(Case{"stem", 1, 37, 41, 3, 16, 7, 7, 2, 3, 3, 3, 3, 1, 1, false, F16, F16, "ascend910b"});
  Conv2dSchedule s = scheduleConv2d(c, target, 2);
  EXPECT_LT(s.kr, 7) << s.str();
  EXPECT_LT(runAndCompare(target, c, s), tolerance(F16)) << s.str();
}

// One core's share of the benchmark (8·56·56 positions over 24 cores ≈ 1045) on one core.
TEST(ConvKernelSchedule, BenchmarkShareOnOneCore) {
  Target target = pyasc::testing::testTarget("ascend910b");
  Conv2dCompute c = computeOf(Case{"share", 1, 33, 32, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, F16, F16, "ascend910b"});
  Conv2dSchedule s = scheduleConv2d(c, target, 1);
  EXPECT_LT(runAndCompare(target, c, s), tolerance(F16)) << s.str();
}

// A one-dimensional convolution: one output column, windows of many rows, a 7×1 kernel.
TEST(ConvKernelSchedule, SingleColumnImage) {
  Target target = pyasc::testing::testTarget("ascend910b");
  Conv2dCompute c = computeOf(Case{"column", 3, 40, 1, 9, 20, 7, 1, 1, 3, 3, 0, 0, 1, 1, false, F32, F16, "ascend910b"});
  Conv2dSchedule s = scheduleConv2d(c, target, target.cubeCores);
  EXPECT_LT(runAndCompare(target, c, s), tolerance(F16)) << s.str();
}

TEST(ConvKernelSchedule, RejectsAnEditedScheduleThatOverflows) {
  Target target = pyasc::testing::testTarget("ascend910b");
  Conv2dCompute c = computeOf(Case{"edited", 1, 56, 56, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, F16, F16, "ascend910b"});
  Conv2dSchedule s = scheduleConv2d(c, target, target.cubeCores);
  s.tm = 512;
  s.windowRows = 13;  // enough for 512 positions: 11 output rows
  try {
    lowerConv2d(c, s, target);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("bytes of L0A, which holds 65536"), std::string::npos) << e.what();
  }
}

// Seeded random shapes and edited schedules: every kernel-row and channel-block split, strides,
// dilations, pads and group counts against the reference.
TEST(ConvKernelSchedule, RandomShapesAndSchedules) {
  Target target = pyasc::testing::testTarget("ascend910b");
  std::mt19937 gen(5);
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(gen); };
  for (int trial = 0; trial < 40; ++trial) {
    Conv2dCompute c;
    c.name = "random" + std::to_string(trial);
    c.inType = pick(0, 2) == 0 ? F32 : F16;
    c.outType = pick(0, 1) == 0 ? F32 : F16;
    c.kh = pick(1, 5);
    c.kw = pick(1, 5);
    c.dilationH = pick(1, 2);
    c.dilationW = pick(1, 2);
    c.strideH = pick(1, 3);
    c.strideW = pick(1, 3);
    c.padTop = pick(0, (c.kh - 1) * c.dilationH);
    c.padBottom = pick(0, (c.kh - 1) * c.dilationH);
    c.padLeft = pick(0, (c.kw - 1) * c.dilationW);
    c.padRight = pick(0, (c.kw - 1) * c.dilationW);
    c.h = pick((c.kh - 1) * c.dilationH + 1, 12);
    c.w = pick((c.kw - 1) * c.dilationW + 1, 12);
    c.n = pick(1, 2);
    c.groups = pick(1, 4);
    c.cin = c.groups * pick(1, 20);
    c.cout = c.groups * pick(1, 20);
    c.nchw = pick(0, 3) == 0;
    Conv2dSchedule s = scheduleConv2d(c, target, static_cast<int>(pick(1, 4)));
    s.tm = 16 * pick(1, s.tm / 16);
    s.tc = c0Of(c.inType) * pick(1, s.tc / c0Of(c.inType));
    s.kr = pick(1, s.kr);
    EXPECT_LT(runAndCompare(target, c, s), tolerance(c.outType)) << c.name << " " << s.str();
  }
}

TEST(ConvKernelSchedule, BenchmarkShapeUsesEveryCubeCore) {
  Target target = pyasc::testing::testTarget("ascend910b");
  Conv2dCompute c = computeOf(Case{"bench", 8, 56, 56, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, F16, F16, "ascend910b"});
  Conv2dSchedule s = scheduleConv2d(c, target, target.cubeCores);
  EXPECT_EQ(s.blockDim, target.cubeCores) << s.str();
  EXPECT_LE(2 * s.tm * s.kr * 3 * s.tc * 2, target.buffer(isa::Space::L0A).size) << s.str();  // two K chunks of kr kernel rows
}

TEST(ConvKernelSchedule, RejectsWhatNoBufferHolds) {
  Target target = pyasc::testing::testTarget("ascend310");
  Conv2dCompute c = computeOf(Case{"wide", 1, 64, 4000, 256, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, F32, F32, "ascend310"});
  try {
    scheduleConv2d(c, target, target.cubeCores);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("conv2d 'wide': L1 holds"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bytes but the smallest tile needs"), std::string::npos) << e.what();
  }
}

TEST(ConvKernelSchedule, RejectsUnsupportedTypesAndGroups) {
  Target target = pyasc::testing::testTarget("ascend910b");
  Conv2dCompute c = computeOf(Case{"bad", 1, 8, 8, 6, 4, 3, 3, 1, 1, 1, 1, 1, 1, 4, false, F16, F32, "ascend910b"});
  EXPECT_THROW(scheduleConv2d(c, target, target.cubeCores), CompileError);
  c.groups = 1;
  c.inType = DType::Int32;
  EXPECT_THROW(scheduleConv2d(c, target, target.cubeCores), CompileError);
}

// The fused epilogue (batch norm, residual, ReLU) against the float64 convolution followed by
// (acc − mean) / sqrt(var + eps) · gamma + beta, + residual, max(·, 0): 320 output channels, so that
// tiles take several epilogue chunks and channel slices; float16 output and residual, and a float16
// residual of a float32 result; every combination the ResNet uses; O2's wider tile search; and
// float16 epilogues of 64, 32 and 16 channels, whose rows serve several tile rows per repeat.
TEST(ConvKernelEpilogue, MatchesReference) {
  struct Epi {
    const char* label;
    bool norm, residual, relu;
    DType in, out, res;
    const char* target;
    bool wide;
    bool bias = false;   // a bias of the output's type instead of the batch norm
    bool scale = false;  // a scale of the output's type before the bias
    int64_t cout = 320;
    bool f32Rows = false;  // scale and bias in float32 whatever the output's type
  };
  for (const Epi& e : {Epi{"bn_relu", true, false, true, F32, F32, F32, "ascend910b", false},
                       Epi{"bn_add_relu", true, true, true, F16, F16, F16, "ascend910b", true},
                       Epi{"bn_add_half", true, true, false, F16, F32, F16, "ascend910b", true},
                       Epi{"bn", true, false, false, F16, F32, F32, "ascend310", true},
                       Epi{"add_relu", false, true, true, F32, F32, F32, "ascend310", false},
                       Epi{"relu", false, false, true, F16, F16, F16, "ascend910b", false},
                       Epi{"bias_relu", false, false, true, F16, F16, F16, "ascend910b", true, true},
                       Epi{"bias_add", false, true, false, F32, F32, F32, "ascend310", false, true},
                       Epi{"scale_bias_add_relu", false, true, true, F16, F16, F16, "ascend910b", true, true, true},
                       Epi{"scale", false, false, false, F32, F32, F32, "ascend910b", false, false, true},
                       // float16 epilogues whose rows are repeated across a repeat (64, 32, 16 channels)
                       Epi{"bn_relu_64", true, false, true, F16, F16, F16, "ascend910b", false, false, false, 64},
                       Epi{"scale_bias_add_relu_32", false, true, true, F16, F16, F16, "ascend910b", false, true, true, 32, true},
                       Epi{"bias_16", false, false, false, F16, F16, F16, "ascend310", true, true, false, 16}}) {
    Target target = pyasc::testing::testTarget(e.target);
    Conv2dCompute c = computeOf(Case{e.label, 2, 9, 10, 40, e.cout, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, e.in, e.out, e.target});
    const DType rowType = e.f32Rows ? F32 : e.out;
    c.epilogue.scale = e.scale;
    c.epilogue.scaleType = rowType;
    c.epilogue.bias = e.bias;
    c.epilogue.biasType = rowType;
    c.epilogue.batchNorm = e.norm;
    c.epilogue.epsilon = 1e-3;
    c.epilogue.residual = e.residual;
    c.epilogue.relu = e.relu;
    c.epilogue.residualType = e.res;
    Conv2dSchedule s = scheduleConv2d(c, target, target.cubeCores, Conv2dSearch{e.wide});
    HostTensor x = pyasc::testing::randomTensor(c.inType, c.inputElements(), 21);
    HostTensor wt = pyasc::testing::randomTensor(c.inType, c.weightElements(), 22);
    std::map<Conv2dTensor, HostTensor> extra;
    if (e.norm) {
      extra[Conv2dTensor::Mean] = pyasc::testing::randomTensor(F32, c.cout, 23);
      extra[Conv2dTensor::Var] = pyasc::testing::randomTensor(F32, c.cout, 24, 0.5, 1.5);
      extra[Conv2dTensor::Gamma] = pyasc::testing::randomTensor(F32, c.cout, 25, 0.5, 1.5);
      extra[Conv2dTensor::Beta] = pyasc::testing::randomTensor(F32, c.cout, 26);
    }
    if (e.residual) extra[Conv2dTensor::Residual] = pyasc::testing::randomTensor(e.res, c.outputElements(), 27, -20, 20);
    if (e.bias) extra[Conv2dTensor::Bias] = pyasc::testing::randomTensor(rowType, c.cout, 28, -5, 5);
    if (e.scale) extra[Conv2dTensor::Scale] = pyasc::testing::randomTensor(rowType, c.cout, 29, -2, 2);
    std::vector<double> out = runLaunches(target, c, lowerConv2dLaunches(c, s, target), x, wt, extra);
    std::vector<double> ref = reference(c, x.values, wt.values);
    for (size_t i = 0; i < ref.size(); ++i) {
      const size_t ch = i % static_cast<size_t>(c.cout);
      double y = ref[i];
      if (e.scale) y *= extra[Conv2dTensor::Scale].values[ch];
      if (e.bias) y += extra[Conv2dTensor::Bias].values[ch];
      if (e.norm) {
        y = (y - extra[Conv2dTensor::Mean].values[ch]) / std::sqrt(extra[Conv2dTensor::Var].values[ch] + 1e-3) *
                extra[Conv2dTensor::Gamma].values[ch] + extra[Conv2dTensor::Beta].values[ch];
      }
      if (e.residual) y += extra[Conv2dTensor::Residual].values[i];
      if (e.relu) y = std::max(y, 0.0);
      ref[i] = y;
    }
    EXPECT_LT(pyasc::testing::relativeError(out, ref), tolerance(c.outType)) << e.label << " " << s.str();
  }
}

}  // namespace
