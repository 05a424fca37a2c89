// The fused softmax kernel on the simulator against float64 references.
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

class SoftmaxKernel : public ::testing::TestWithParam<Case> {};

TEST_P(SoftmaxKernel, MatchesReference) {
  Case c = GetParam();
  Target target = pyasc::testing::testTarget("ascend910b");
  SoftmaxCompute sm;
  sm.name = "softmax";
  sm.logSoftmax = c.log;
  sm.dtype = c.dtype;
  sm.rows = c.rows;
  sm.cols = c.cols;
  SoftmaxSchedule s = scheduleSoftmax(sm, target, target.vectorCores);
  ASSERT_GT(s.rowsPerTile, 0);
  KernelCode code = lowerSoftmax(sm, s, target);
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

}  // namespace
