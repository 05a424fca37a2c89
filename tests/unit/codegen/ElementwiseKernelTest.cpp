// Generated elementwise kernels on the simulator against float64 references.
#include "codegen/lower/ElementwiseKernel.h"

#include <gtest/gtest.h>

#include "tests/unit/codegen/KernelTestSupport.h"

using namespace pyasc;
using namespace pyasc::codegen;
using pyasc::testing::HostTensor;

namespace {

struct Case {
  DType dtype;
  int64_t count;
  const char* target;
};

void PrintTo(const Case& c, std::ostream* os) { *os << dtypeName(c.dtype) << "[" << c.count << "] on " << c.target; }

// y = relu(x0 * 2 + x1) - exp(x1 / 4), fused in one kernel
std::vector<double> reference(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> r(a.size());
  for (size_t i = 0; i < a.size(); ++i) r[i] = std::max(a[i] * 2 + b[i], 0.0) - std::exp(b[i] / 4);
  return r;
}

class ElementwiseKernel : public ::testing::TestWithParam<Case> {};

TEST_P(ElementwiseKernel, FusedChainMatchesReference) {
  Case c = GetParam();
  Target target = pyasc::testing::testTarget(c.target);
  ElementwiseCompute compute;
  compute.name = "fused";
  compute.inputs = {{c.dtype, false}, {c.dtype, false}};
  auto x0 = te::placeholder(0, c.dtype), x1 = te::placeholder(1, c.dtype);
  auto y = te::binary(te::Prim::VSub, te::unary(te::Prim::VRelu, te::binary(te::Prim::VAdd, te::withScalar(te::Prim::VMuls, x0, 2), x1)),
                      te::unary(te::Prim::VExp, te::binary(te::Prim::VDiv, x1, te::constant(4, c.dtype))));
  compute.outputs = {y};
  compute.count = c.count;
  ElementwiseSchedule s = scheduleElementwise(compute, target, true, target.vectorCores);
  KernelCode code = lowerElementwise(compute, s, target);
  HostTensor a = pyasc::testing::randomTensor(c.dtype, c.count, 1), b = pyasc::testing::randomTensor(c.dtype, c.count, 2);
  HostTensor out{c.dtype, std::vector<double>(c.count, 7.0)};
  auto run = pyasc::testing::runKernel(target, code, {a, b, out});
  double tol = c.dtype == DType::Float16 ? 2e-3 : 1e-5;
  EXPECT_LT(pyasc::testing::relativeError(run.results[2].values, reference(a.values, b.values)), tol) << s.str();
  EXPECT_EQ(run.results[0].values, a.values) << "inputs must be untouched";
}

INSTANTIATE_TEST_SUITE_P(Shapes, ElementwiseKernel,
                         ::testing::Values(Case{DType::Float32, 1, "ascend910b"}, Case{DType::Float32, 63, "ascend910b"},
                                           Case{DType::Float16, 129, "ascend310"}, Case{DType::Float16, 4096, "ascend910b"},
                                           Case{DType::Float32, 100003, "ascend910b"}, Case{DType::Float16, 300000, "ascend310"}));

TEST(ElementwiseKernel, ScalarInputBroadcastsThroughARegister) {
  Target target = pyasc::testing::testTarget("ascend310");
  ElementwiseCompute compute;
  compute.name = "axpy";
  compute.inputs = {{DType::Float32, false}, {DType::Float32, true}};
  auto x = te::placeholder(0, DType::Float32), s = te::placeholder(1, DType::Float32);
  // y = s - x * s  exercises vmuls by register and the negated-scalar path
  compute.outputs = {te::binary(te::Prim::VSub, s, te::binary(te::Prim::VMul, x, s))};
  compute.count = 1000;
  KernelCode code = lowerElementwise(compute, scheduleElementwise(compute, target, true, 2), target);
  HostTensor a = pyasc::testing::randomTensor(DType::Float32, 1000, 3);
  HostTensor sc{DType::Float32, {1.75}};
  HostTensor out{DType::Float32, std::vector<double>(1000, 0.0)};
  auto run = pyasc::testing::runKernel(target, code, {a, sc, out});
  std::vector<double> ref(1000);
  for (int i = 0; i < 1000; ++i) ref[i] = 1.75 - a.values[i] * 1.75;
  EXPECT_LT(pyasc::testing::relativeError(run.results[2].values, ref), 1e-6);
}

TEST(ElementwiseKernel, DoubleBufferingOverlapsPipes) {
  Target target = pyasc::testing::testTarget("ascend910b");
  ElementwiseCompute compute;
  compute.name = "add";
  compute.inputs = {{DType::Float16, false}, {DType::Float16, false}};
  compute.outputs = {te::binary(te::Prim::VAdd, te::placeholder(0, DType::Float16), te::placeholder(1, DType::Float16))};
  compute.count = 1 << 20;
  ElementwiseSchedule s = scheduleElementwise(compute, target, true, 1);
  KernelCode code = lowerElementwise(compute, s, target);
  HostTensor a = pyasc::testing::randomTensor(DType::Float16, compute.count, 5), b = pyasc::testing::randomTensor(DType::Float16, compute.count, 6);
  HostTensor out{DType::Float16, std::vector<double>(compute.count, 0.0)};
  auto run = pyasc::testing::runKernel(target, code, {a, b, out});
  uint64_t busy = run.stats.pipes[int(isa::Pipe::MTE2)].busyCycles + run.stats.pipes[int(isa::Pipe::V)].busyCycles +
                  run.stats.pipes[int(isa::Pipe::MTE3)].busyCycles;
  EXPECT_LT(run.stats.cycles, busy) << "MTE2, V and MTE3 should overlap";
}

}  // namespace
