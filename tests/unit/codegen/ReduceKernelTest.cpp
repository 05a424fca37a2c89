// Generated reduction kernels on the simulator against float64 references.
#include "codegen/lower/ReduceKernel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "tests/unit/codegen/KernelTestSupport.h"

using namespace pyasc;
using namespace pyasc::codegen;
using pyasc::testing::HostTensor;

namespace {

struct Case {
  ReduceKind kind;
  DType dtype;
  int64_t outer, reduce, inner;
  bool columns = false;  // the single slice cut into units of columns (planReduceColumns)
  bool half = false;     // a float32 reduction writing its result in float16
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << "kind " << static_cast<int>(c.kind) << " " << dtypeName(c.dtype) << " " << c.outer << "x" << c.reduce << "x" << c.inner;
}

class ReduceKernel : public ::testing::TestWithParam<Case> {};

TEST_P(ReduceKernel, MatchesReference) {
  Case c = GetParam();
  Target target = pyasc::testing::testTarget("ascend910b");
  ReduceCompute r;
  r.name = "reduce";
  r.kind = c.kind;
  r.dtype = c.dtype;
  r.outer = c.outer;
  r.reduce = c.reduce;
  r.inner = c.inner;
  r.halfResult = c.half;
  if (c.columns) {
    r = planReduceColumns(r, target, target.vectorCores);
    ASSERT_EQ(r.columns, c.inner);
    EXPECT_GT(r.outer, 1);
  }
  ReduceSchedule s = scheduleReduce(r, target, target.vectorCores);
  KernelCode code = lowerReduce(r, s, target);
  HostTensor in = pyasc::testing::randomTensor(c.dtype, c.outer * c.reduce * c.inner, 21, 0.5, 2.0);
  HostTensor out{c.half ? DType::Float16 : c.dtype, std::vector<double>(static_cast<size_t>(c.outer * c.inner), 0.0)};
  auto run = pyasc::testing::runKernel(target, code, {in, out});
  std::vector<double> ref(out.values.size());
  for (int64_t o = 0; o < c.outer; ++o)
    for (int64_t i = 0; i < c.inner; ++i) {
      double acc = c.kind == ReduceKind::Max ? -1e300 : c.kind == ReduceKind::Min ? 1e300 : 0;
      for (int64_t k = 0; k < c.reduce; ++k) {
        double v = in.values[(o * c.reduce + k) * c.inner + i];
        acc = c.kind == ReduceKind::Max ? std::max(acc, v) : c.kind == ReduceKind::Min ? std::min(acc, v) : acc + v;
      }
      ref[o * c.inner + i] = c.kind == ReduceKind::Mean ? acc / c.reduce : acc;
    }
  double tol = c.dtype == DType::Float16 || c.half ? 2e-3 : 1e-5;
  EXPECT_LT(pyasc::testing::relativeError(run.results[1].values, ref), tol) << s.str();
}

INSTANTIATE_TEST_SUITE_P(Shapes, ReduceKernel,
                         ::testing::Values(Case{ReduceKind::Sum, DType::Float32, 7, 1000, 1},
                                           Case{ReduceKind::Max, DType::Float32, 300, 64, 1},
                                           Case{ReduceKind::Min, DType::Float16, 33, 129, 1},
                                           Case{ReduceKind::Mean, DType::Float32, 1, 1, 1},
                                           Case{ReduceKind::Sum, DType::Float16, 513, 17, 1},
                                           Case{ReduceKind::Sum, DType::Float32, 5, 9, 24},
                                           Case{ReduceKind::Max, DType::Float16, 3, 100, 7},
                                           Case{ReduceKind::Mean, DType::Float32, 64, 128, 16}));

}  // namespace

namespace {

INSTANTIATE_TEST_SUITE_P(LongRows, ReduceKernel,
                         ::testing::Values(Case{ReduceKind::Sum, DType::Float32, 3, 18096, 1},
                                           Case{ReduceKind::Max, DType::Float16, 2, 20001, 1},
                                           Case{ReduceKind::Mean, DType::Float32, 5, 8200, 1}));

// ResNet-50's mean pool (7x7x2048 in one slice) and a wide float16 maximum, by columns.
INSTANTIATE_TEST_SUITE_P(Columns, ReduceKernel,
                         ::testing::Values(Case{ReduceKind::Mean, DType::Float32, 1, 49, 2048, true},
                                           Case{ReduceKind::Max, DType::Float16, 1, 300, 1024, true},
                                           Case{ReduceKind::Sum, DType::Float32, 1, 3, 96, true}));

// Float32 reductions writing float16 results (mixed precision's cube operands): rows, slices whose
// float16 rows keep the float32 ones' layout (inner 2048 by columns of 64) and slices whose rows
// do not (inner 8 and 24).
INSTANTIATE_TEST_SUITE_P(HalfResults, ReduceKernel,
                         ::testing::Values(Case{ReduceKind::Mean, DType::Float32, 300, 64, 1, false, true},
                                           Case{ReduceKind::Mean, DType::Float32, 1, 49, 2048, true, true},
                                           Case{ReduceKind::Max, DType::Float32, 40, 9, 8, false, true},
                                           Case{ReduceKind::Sum, DType::Float32, 2000, 3, 24, false, true}));

}  // namespace
