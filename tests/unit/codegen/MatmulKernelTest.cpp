// Generated cube matmul kernels on the simulator against float64 references.
#include "codegen/lower/MatmulKernel.h"

#include <gtest/gtest.h>

#include "tests/unit/codegen/KernelTestSupport.h"

using namespace pyasc;
using namespace pyasc::codegen;
using pyasc::testing::HostTensor;

namespace {

struct Case {
  int64_t batch, m, k, n;
  bool transB;
  DType in, out;
  const char* target;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.batch << "x" << c.m << "x" << c.k << "x" << c.n << (c.transB ? " B^T " : " ") << dtypeName(c.in) << "->"
      << dtypeName(c.out) << " on " << c.target;
}

class MatmulKernel : public ::testing::TestWithParam<Case> {};

TEST_P(MatmulKernel, MatchesReference) {
  Case c = GetParam();
  Target target = pyasc::testing::testTarget(c.target);
  MatmulCompute mm;
  mm.name = "mm";
  mm.batch = c.batch;
  mm.m = c.m;
  mm.k = c.k;
  mm.n = c.n;
  mm.transB = c.transB;
  mm.inType = c.in;
  mm.outType = c.out;
  MatmulSchedule s = scheduleMatmul(mm, target, target.cubeCores);
  KernelCode code = lowerMatmul(mm, s, target);
  HostTensor a = pyasc::testing::randomTensor(c.in, c.batch * c.m * c.k, 11);
  HostTensor b = pyasc::testing::randomTensor(c.in, c.batch * c.k * c.n, 12);
  HostTensor out{c.out, std::vector<double>(c.batch * c.m * c.n, 0.0)};
  auto run = pyasc::testing::runKernel(target, code, {a, b, out});
  std::vector<double> ref(out.values.size());
  for (int64_t bi = 0; bi < c.batch; ++bi)
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t j = 0; j < c.n; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < c.k; ++p) {
          double bv = c.transB ? b.values[bi * c.k * c.n + j * c.k + p] : b.values[bi * c.k * c.n + p * c.n + j];
          acc += a.values[bi * c.m * c.k + i * c.k + p] * bv;
        }
        ref[bi * c.m * c.n + i * c.n + j] = acc;
      }
  double tol = c.out == DType::Float16 ? 2e-3 : 1e-5;
  EXPECT_LT(pyasc::testing::relativeError(run.results[2].values, ref), tol) << s.str();
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, MatmulKernel,
    ::testing::Values(Case{1, 16, 16, 16, false, DType::Float16, DType::Float32, "ascend910b"},
                      Case{1, 1, 1, 1, false, DType::Float16, DType::Float32, "ascend910b"},
                      Case{1, 37, 53, 29, false, DType::Float16, DType::Float32, "ascend310"},
                      Case{1, 256, 256, 256, false, DType::Float16, DType::Float16, "ascend910b"},
                      Case{1, 130, 700, 90, false, DType::Float32, DType::Float32, "ascend910b"},
                      Case{3, 64, 48, 80, true, DType::Float16, DType::Float32, "ascend310"}));

}  // namespace
