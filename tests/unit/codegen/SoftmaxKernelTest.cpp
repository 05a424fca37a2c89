// The fused softmax and layer norm kernels on the simulator against float64 references.
#include "codegen/lower/SoftmaxKernel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/unit/codegen/KernelTestSupport.h"

using namespace pyasc;
using namespace pyasc::codegen;
using pyasc::testing::HostTensor;

namespace {

struct Case {
  bool log;
  DType dtype;
  int64_t rows, cols;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << (c.log ? "log_softmax " : "softmax ") << dtypeName(c.dtype) << " " << c.rows << "x" << c.cols;
}

// The fused row kernel of `kind` (layer norm with epsilon 1e-3) as its template schedules it; no
// code when a row does not fit (s.rowsPerTile 0).
KernelCode rowKernel(RowNorm kind, DType dtype, int64_t rows, int64_t cols, const Target& target, SoftmaxSchedule& s) {
  SoftmaxCompute c;
  c.name = "rows";
  c.kind = kind;
  c.epsilon = 1e-3;
  c.dtype = dtype;
  c.rows = rows;
  c.cols = cols;
  s = scheduleSoftmax(c, target, target.vectorCores);
  return s.rowsPerTile > 0 ? lowerSoftmax(c, s, target) : KernelCode{};
}

class SoftmaxKernel : public ::testing::TestWithParam<Case> {};

TEST_P(SoftmaxKernel, MatchesReference) {
  Case c = GetParam();
  Target target = pyasc::testing::testTarget("ascend910b");
  SoftmaxSchedule s;
  KernelCode code = rowKernel(c.log ? RowNorm::LogSoftmax : RowNorm::Softmax, c.dtype, c.rows, c.cols, target, s);
  ASSERT_GT(s.rowsPerTile, 0);
  HostTensor in = pyasc::testing::randomTensor(c.dtype, c.rows * c.cols, 41, -4.0, 4.0);
  HostTensor out{c.dtype, std::vector<double>(in.values.size(), 0.0)};
  auto run = pyasc::testing::runKernel(target, code, {in, out});
  std::vector<double> ref(in.values.size());
  for (int64_t r = 0; r < c.rows; ++r) {
    const double* x = &in.values[r * c.cols];
    double m = *std::max_element(x, x + c.cols), sum = 0;
    for (int64_t j = 0; j < c.cols; ++j) sum += std::exp(x[j] - m);
    for (int64_t j = 0; j < c.cols; ++j)
      ref[r * c.cols + j] = c.log ? x[j] - m - std::log(sum) : std::exp(x[j] - m) / sum;
  }
  double tol = c.dtype == DType::Float16 ? 2e-3 : 1e-5;
  EXPECT_LT(pyasc::testing::relativeError(run.results[1].values, ref), tol) << s.str();
}

INSTANTIATE_TEST_SUITE_P(Shapes, SoftmaxKernel,
                         ::testing::Values(Case{false, DType::Float32, 1, 1}, Case{false, DType::Float32, 7, 10},
                                           Case{false, DType::Float32, 130, 64}, Case{false, DType::Float16, 33, 129},
                                           Case{true, DType::Float32, 9, 1000}, Case{false, DType::Float32, 5, 4100},
                                           Case{true, DType::Float16, 70, 48},
                                           // rows reduced together: 16 and 64 chunks of fp32, 16 of fp16
                                           Case{false, DType::Float32, 40, 1024}, Case{false, DType::Float32, 6, 4096},
                                           Case{false, DType::Float16, 37, 2048}));

struct NormCase {
  DType dtype;
  int64_t rows, cols;
};

void PrintTo(const NormCase& c, std::ostream* os) { *os << "layer_norm " << dtypeName(c.dtype) << " " << c.rows << "x" << c.cols; }

class LayerNormKernel : public ::testing::TestWithParam<NormCase> {};

TEST_P(LayerNormKernel, MatchesReference) {
  NormCase c = GetParam();
  Target target = pyasc::testing::testTarget("ascend910b");
  SoftmaxSchedule s;
  KernelCode code = rowKernel(RowNorm::LayerNorm, c.dtype, c.rows, c.cols, target, s);
  ASSERT_GT(s.rowsPerTile, 0);
  // rows with an offset and a spread of their own, so that the mean and variance matter
  HostTensor in = pyasc::testing::randomTensor(c.dtype, c.rows * c.cols, 43, -2.0, 2.0);
  for (int64_t r = 0; r < c.rows; ++r)
    for (int64_t j = 0; j < c.cols; ++j) in.values[r * c.cols + j] = in.values[r * c.cols + j] * (1 + r % 3) + (r % 5) - 2;
  HostTensor gamma = pyasc::testing::randomTensor(c.dtype, c.cols, 44, 0.5, 1.5);
  HostTensor beta = pyasc::testing::randomTensor(c.dtype, c.cols, 45, -1.0, 1.0);
  HostTensor out{c.dtype, std::vector<double>(in.values.size(), 0.0)};
  auto run = pyasc::testing::runKernel(target, code, {in, gamma, beta, out});
  std::vector<double> ref(in.values.size());
  const std::vector<double>& x = run.results[0].values;  // the input as the device held it
  for (int64_t r = 0; r < c.rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t j = 0; j < c.cols; ++j) mean += x[r * c.cols + j] / c.cols;
    for (int64_t j = 0; j < c.cols; ++j) var += (x[r * c.cols + j] - mean) * (x[r * c.cols + j] - mean) / c.cols;
    for (int64_t j = 0; j < c.cols; ++j)
      ref[r * c.cols + j] = (x[r * c.cols + j] - mean) / std::sqrt(var + 1e-3) * gamma.values[j] + beta.values[j];
  }
  double tol = c.dtype == DType::Float16 ? 2e-3 : 1e-5;
  EXPECT_LT(pyasc::testing::relativeError(run.results[3].values, ref), tol) << s.str();
}

// one row, rows one at a time (200 columns), rows reduced together (1024 and 2048 columns), a tail
// tile, and float16
INSTANTIATE_TEST_SUITE_P(Shapes, LayerNormKernel,
                         ::testing::Values(NormCase{DType::Float32, 1, 64}, NormCase{DType::Float32, 7, 200},
                                           NormCase{DType::Float32, 300, 1024}, NormCase{DType::Float32, 9, 2048},
                                           NormCase{DType::Float16, 37, 1024}, NormCase{DType::Float16, 70, 48}));

}  // namespace
