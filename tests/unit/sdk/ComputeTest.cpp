// te.compute definitions: the text form round-trips, the verifier names what is wrong, and the
// evaluator follows Python's index arithmetic.
#include "sdk/te/Compute.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace pyasc;
using namespace pyasc::te;

namespace {

// out[i] = (x[max(i - 1, 0)] + x[i] + x[min(i + 1, 7)]) / 3 over x: f32[8]
ComputeDef window() {
  ComputeDef d;
  d.name = "window";
  d.inputs = {{DType::Float32, {8}}};
  d.vars = {{"i", 0, 8, false}};
  auto at = [](ComputeExpr index) { return load(0, DType::Float32, {index}); };
  ComputeExpr left = node(Op::Max, DType::Int32, {node(Op::Sub, DType::Int32, {var(0), intImm(1)}), intImm(0)});
  ComputeExpr right = node(Op::Min, DType::Int32, {node(Op::Add, DType::Int32, {var(0), intImm(1)}), intImm(7)});
  ComputeExpr sum = node(Op::Add, DType::Float32, {node(Op::Add, DType::Float32, {at(left), at(var(0))}), at(right)});
  d.body = node(Op::Div, DType::Float32, {sum, floatImm(3, DType::Float32)});
  return d;
}

// out[i] = sum over k in [0, 4) of x[i, k] * y[k]: a matrix-vector product with a reduce axis
ComputeDef rowDot() {
  ComputeDef d;
  d.name = "row_dot";
  d.inputs = {{DType::Float16, {3, 4}}, {DType::Float16, {4}}};
  d.vars = {{"i", 0, 3, false}, {"k", 0, 4, true}};
  ComputeExpr product = node(Op::Mul, DType::Float16, {load(0, DType::Float16, {var(0), var(1)}), load(1, DType::Float16, {var(1)})});
  d.body = reduce("sum", product, {1});
  return d;
}

TEST(ComputeDef, TextRoundTrips) {
  for (const ComputeDef& d : {window(), rowDot()}) {
    ASSERT_EQ(verifyComputeDef(d), "");
    std::string text = d.str();
    ComputeDef back = parseComputeDef(text);
    EXPECT_EQ(back.str(), text);
  }
  EXPECT_EQ(rowDot().str(),
            "compute row_dot : f16[3] (f16[3,4], f16[4]) axes(i:3) reduce(k:0:4) = "
            "(reduce.sum:f16 (mul:f16 (load:f16 in0 i k) (load:f16 in1 k)) k)");
}

TEST(ComputeDef, EvaluatesWithClampedIndices) {
  std::vector<double> x = {3, 1, 4, 1, 5, 9, 2, 6};
  std::vector<double> out = evaluateComputeDef(window(), {x});
  ASSERT_EQ(out.size(), 8u);
  EXPECT_DOUBLE_EQ(out[0], (3 + 3 + 1) / 3.0);
  EXPECT_DOUBLE_EQ(out[4], (1 + 5 + 9) / 3.0);
  EXPECT_DOUBLE_EQ(out[7], (2 + 6 + 6) / 3.0);
  std::vector<double> dot = evaluateComputeDef(rowDot(), {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {1, -1, 2, 0.5}});
  EXPECT_DOUBLE_EQ(dot[1], 5 - 6 + 14 + 4);
}

TEST(ComputeDef, FloorDivisionFollowsPython) {
  ComputeDef d;
  d.name = "q";
  d.inputs = {{DType::Int32, {1}}};
  d.vars = {{"i", 0, 7, false}};
  ComputeExpr shifted = node(Op::Sub, DType::Int32, {var(0), intImm(3)});
  d.body = node(Op::Add, DType::Int32,
                {node(Op::Mul, DType::Int32, {node(Op::FloorDiv, DType::Int32, {shifted, intImm(2)}), intImm(10)}),
                 node(Op::FloorMod, DType::Int32, {shifted, intImm(2)})});
  ASSERT_EQ(verifyComputeDef(d), "");
  // (i - 3) // 2 * 10 + (i - 3) % 2 for i = 0..6, as CPython computes it
  EXPECT_EQ(evaluateComputeDef(d, {{0}}), (std::vector<double>{-19, -10, -9, 0, 1, 10, 11}));
}

TEST(ComputeDef, VerifierNamesTheProblem) {
  ComputeDef d = rowDot();
  d.body = load(0, DType::Float16, {var(0)});
  EXPECT_EQ(verifyComputeDef(d), "load: input 0 has 2 dimensions, 1 indices given");
  d.body = node(Op::Add, DType::Float16, {load(1, DType::Float16, {var(1)}), floatImm(1, DType::Float16)});
  EXPECT_EQ(verifyComputeDef(d), "reduce axis 'k' is used outside a reduction over it");
  d.body = load(0, DType::Float16, {var(0), node(Op::Cast, DType::Int32, {reduce("sum", load(1, DType::Float16, {var(1)}), {1})})});
  EXPECT_EQ(verifyComputeDef(d), "reduce: a reduction cannot be inside an index or another reduction");
  ComputeExpr sum = reduce("sum", load(1, DType::Float16, {var(1)}), {1});
  d.body = node(Op::Add, DType::Float16, {sum, sum});
  EXPECT_EQ(verifyComputeDef(d), "a te.compute holds at most one reduction");
  d.body = node(Op::Add, DType::Float16, {sum, floatImm(1, DType::Float16)});
  EXPECT_EQ(verifyComputeDef(d), "");  // an epilogue after the reduction
  d = window();
  d.body = node(Op::FloorDiv, DType::Float32, {load(0, DType::Float32, {var(0)}), floatImm(2, DType::Float32)});
  EXPECT_EQ(verifyComputeDef(d), "floordiv: needs integers");
}

TEST(ComputeDef, ParserReportsWhere) {
  try {
    parseComputeDef("compute w : f32[8] (f32[8]) axes(i:8) = (plus:f32 i i)");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "compute text, column 42: unknown operation 'plus'");
  }
  EXPECT_THROW(parseComputeDef("compute w : f32[8] (f32[8]) axes(i:4) = (load:f32 in0 i)"), std::invalid_argument);
  EXPECT_THROW(parseComputeDef("compute w : f32[8] (f32[8]) axes(i:8) = (load:f32 in1 i)"), std::invalid_argument);
}

}  // namespace
