// Argmax/argmin kernels on the simulator against a host scan with NumPy's first-occurrence rule.
#include "codegen/lower/ArgReduceKernel.h"

#include <gtest/gtest.h>

#include "tests/unit/codegen/KernelTestSupport.h"

using namespace pyasc;
using namespace pyasc::codegen;
using pyasc::testing::HostTensor;

namespace {

struct Case {
  bool argmin;
  DType dtype;
  int64_t outer, reduce, inner;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << (c.argmin ? "argmin " : "argmax ") << dtypeName(c.dtype) << " " << c.outer << "x" << c.reduce << "x" << c.inner;
}

class ArgReduceKernel : public ::testing::TestWithParam<Case> {};

TEST_P(ArgReduceKernel, MatchesFirstExtreme) {
  Case c = GetParam();
  Target target = pyasc::testing::testTarget("ascend310");
  ArgReduceCompute a{"arg", c.argmin, c.dtype, c.outer, c.reduce, c.inner, 0};
  KernelCode code = lowerArgReduce(a, target, target.vectorCores);
  HostTensor in = pyasc::testing::randomTensor(c.dtype, c.outer * c.reduce * c.inner, 51, -3.0, 3.0);
  // ties and signed zeros: the first occurrence must win
  if (c.reduce > 1) in.values[0] = in.values[c.inner] = 7.0;
  if (in.values.size() > 3) in.values[3] = -0.0;
  HostTensor out{DType::Int64, std::vector<double>(c.outer * c.inner, -1.0)};
  auto run = pyasc::testing::runKernel(target, code, {in, out});
  for (int64_t o = 0; o < c.outer; ++o)
    for (int64_t i = 0; i < c.inner; ++i) {
      int64_t best = 0;
      for (int64_t k = 1; k < c.reduce; ++k) {
        double v = in.values[(o * c.reduce + k) * c.inner + i], b = in.values[(o * c.reduce + best) * c.inner + i];
        if (c.argmin ? v < b : v > b) best = k;
      }
      EXPECT_EQ(run.results[1].values[o * c.inner + i], best) << "unit " << o << "," << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ArgReduceKernel,
                         ::testing::Values(Case{false, DType::Float32, 5, 37, 1}, Case{true, DType::Float32, 3, 20, 4},
                                           Case{false, DType::Float16, 1, 300, 1}, Case{true, DType::Float16, 6, 9, 2},
                                           Case{false, DType::Float32, 1, 1, 1},
                                           // rows of the last axis: the vector path (full chunks, a
                                           // partial chunk, one chunk, 64 chunks, int32)
                                           Case{false, DType::Float32, 300, 1000, 1}, Case{true, DType::Float16, 70, 300, 1},
                                           Case{false, DType::Int32, 50, 64, 1}, Case{true, DType::Float32, 9, 4096, 1},
                                           Case{false, DType::Float16, 200, 10, 1}, Case{true, DType::Float32, 37, 1024, 1}));

}  // namespace
