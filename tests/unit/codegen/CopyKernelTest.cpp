// Generated strided-copy kernels on the simulator against index arithmetic done on the host.
#include "codegen/lower/CopyKernel.h"

#include <gtest/gtest.h>

#include "tests/unit/codegen/KernelTestSupport.h"

using namespace pyasc;
using namespace pyasc::codegen;
using pyasc::testing::HostTensor;

namespace {

struct Case {
  const char* what;
  DType dtype;
  std::vector<int64_t> shape, srcStrides, dstStrides;
  int64_t srcOffset, dstOffset, srcSize, dstSize;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.what << " " << dtypeName(c.dtype); }

class CopyKernel : public ::testing::TestWithParam<Case> {};

TEST_P(CopyKernel, MatchesIndexArithmetic) {
  Case c = GetParam();
  Target target = pyasc::testing::testTarget("ascend910b");
  CopyCompute copy{c.what, c.dtype, c.shape, c.srcStrides, c.dstStrides, c.srcOffset, c.dstOffset, false, false, 0, {}};
  KernelCode code = lowerCopy(copy, target, 8);
  HostTensor src = pyasc::testing::randomTensor(c.dtype, c.srcSize, 31);
  HostTensor dst = pyasc::testing::randomTensor(c.dtype, c.dstSize, 32);
  std::vector<double> expected = dst.values;
  std::vector<int64_t> idx(c.shape.size(), 0);
  int64_t total = 1;
  for (int64_t e : c.shape) total *= e;
  for (int64_t n = 0; n < total; ++n) {
    int64_t rem = n, s = c.srcOffset, d = c.dstOffset;
    for (size_t k = c.shape.size(); k-- > 0;) {
      int64_t i = rem % c.shape[k];
      rem /= c.shape[k];
      s += i * c.srcStrides[k];
      d += i * c.dstStrides[k];
    }
    expected[d] = src.values[s];
  }
  auto run = pyasc::testing::runKernel(target, code, {src, dst});
  EXPECT_EQ(run.results[1].values, expected) << c.what;
}

INSTANTIATE_TEST_SUITE_P(
    Patterns, CopyKernel,
    ::testing::Values(
        Case{"contiguous", DType::Float32, {1000}, {1}, {1}, 0, 0, 1000, 1000},
        Case{"row slice", DType::Float16, {30, 50}, {70, 1}, {50, 1}, 13, 0, 30 * 70, 1500},
        Case{"step slice", DType::Float32, {10, 16}, {64, 2}, {16, 1}, 1, 0, 640, 160},
        Case{"reversed rows", DType::Float32, {12, 40}, {-40, 1}, {40, 1}, 11 * 40, 0, 480, 480},
        Case{"concat piece", DType::Float16, {8, 24}, {24, 1}, {64, 1}, 0, 40, 192, 512},
        Case{"broadcast rows", DType::Float32, {5, 7, 33}, {0, 33, 1}, {231, 33, 1}, 0, 0, 231, 1155},
        Case{"transpose", DType::Float32, {17, 23}, {1, 17}, {23, 1}, 0, 0, 391, 391},
        // vector transposes (vtranspose tiles): pitches wider than the rows, unaligned offsets,
        // edge tiles of both kinds, a batch dimension, 32-bit integers
        Case{"vector transpose f16", DType::Float16, {40, 150}, {1, 50}, {160, 1}, 3, 5, 150 * 50 + 3, 40 * 160 + 5},
        Case{"vector transpose f32", DType::Float32, {40, 150}, {1, 50}, {160, 1}, 3, 5, 150 * 50 + 3, 40 * 160 + 5},
        Case{"batched vector transpose", DType::Float32, {3, 20, 130}, {2600, 1, 20}, {2600, 130, 1}, 0, 0, 7800, 7800},
        Case{"vector transpose s32", DType::Int32, {33, 1000}, {1, 33}, {1000, 1}, 0, 0, 33000, 33000},
        Case{"broadcast last axis", DType::Float16, {9, 5}, {1, 0}, {5, 1}, 0, 0, 9, 45},
        Case{"broadcast last axis of bytes", DType::UInt8, {3, 7}, {1, 0}, {7, 1}, 0, 0, 3, 21},
        Case{"broadcast long rows", DType::Float32, {4, 3, 50000}, {3, 1, 0}, {150000, 50000, 1}, 0, 0, 12, 600000},
        Case{"long rows", DType::Float32, {3, 70000}, {70000, 1}, {70000, 1}, 0, 0, 210000, 210000},
        // loopless copies of several DMAs are cut into per-core pieces
        Case{"contiguous over cores", DType::Float16, {200003}, {1}, {1}, 5, 0, 200008, 200003},
        Case{"batched rows over cores", DType::Float32, {1024, 300}, {310, 1}, {300, 1}, 3, 0, 1024 * 310, 1024 * 300},
        Case{"fill over cores", DType::Float32, {100000}, {0}, {1}, 0, 0, 1, 100000},
        // a column: rows of one element still move by DMA
        Case{"column slice", DType::Float32, {50, 1}, {7, 1}, {1, 1}, 2, 0, 350, 50}));

// A gather's runs of consecutive indices as pieces of one kernel: every piece lands, whatever the
// path (batched rows, single elements, a long row) and the core it is dealt to.
TEST(CopyKernelPieces, GatherRunsInOneKernel) {
  Target target = pyasc::testing::testTarget("ascend910b");
  const int64_t rows = 6, cols = 40;
  const std::vector<std::pair<int64_t, int64_t>> runs = {{39, 1}, {0, 4}, {20, 1}, {10, 3}};  // (first column, length)
  std::vector<CopyCompute> pieces;
  int64_t taken = 0;
  for (const auto& run : runs) taken += run.second;
  int64_t at = 0;
  for (const auto& [first, length] : runs) {
    pieces.push_back(CopyCompute{"gather", DType::Float16, {rows, length}, {cols, 1}, {taken, 1}, first, at, false, false, 0, {}});
    at += length;
  }
  KernelCode code = lowerCopies("gather", pieces, target, 8);
  HostTensor src = pyasc::testing::randomTensor(DType::Float16, rows * cols, 41);
  HostTensor dst = pyasc::testing::randomTensor(DType::Float16, rows * taken, 42);
  std::vector<double> expected(static_cast<size_t>(rows * taken));
  for (int64_t r = 0; r < rows; ++r) {
    int64_t column = 0;
    for (const auto& [first, length] : runs)
      for (int64_t k = 0; k < length; ++k) expected[r * taken + column++] = src.values[r * cols + first + k];
  }
  auto run = pyasc::testing::runKernel(target, code, {src, dst});
  EXPECT_EQ(run.results[1].values, expected);
  EXPECT_GT(code.blockDim, 1);
}

}  // namespace
