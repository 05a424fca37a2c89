// Shape expressions: folding, evaluation with Python's floor division, interval bounds and text.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sdk/support/ShapeExpr.h"

using namespace pyasc;

TEST(ShapeExpr, FoldsEvaluatesBoundsAndPrints) {
  const std::vector<std::string> names = {"N", "H", "W"};
  const ShapeExpr n = shape::symbol(0), h = shape::symbol(1), w = shape::symbol(2);
  const ShapeExpr count = shape::product({n, h, w, shape::constant(3)});
  EXPECT_EQ(shape::text(count, names), "N*H*W*3");
  EXPECT_EQ(shape::evaluate(count, {2, 240, 232}), 2 * 240 * 232 * 3);
  EXPECT_TRUE(shape::isConst(shape::product({shape::constant(4), shape::constant(5)})));
  EXPECT_TRUE(shape::same(shape::add(n, shape::constant(0)), n));
  EXPECT_TRUE(shape::same(shape::mul(shape::constant(1), h), h));
  // a convolution's output rows: (H + 2 - 3) // 2 + 1, its constant offsets folded
  const ShapeExpr rows = shape::add(shape::floorDiv(shape::sub(shape::add(h, shape::constant(2)), shape::constant(3)),
                                                    shape::constant(2)),
                                    shape::constant(1));
  EXPECT_EQ(shape::text(rows, names), "(H - 1)//2 + 1");
  EXPECT_TRUE(shape::same(shape::sub(shape::add(h, shape::constant(1)), shape::constant(1)), h));
  EXPECT_EQ(shape::text(shape::add(w, shape::constant(-2)), names), "W - 2");
  EXPECT_EQ(shape::evaluate(rows, {1, 225, 1}), 113);
  EXPECT_EQ(shape::lowest(rows, {1, 224, 224}, {4, 256, 256}), 112);
  EXPECT_EQ(shape::highest(rows, {1, 224, 224}, {4, 256, 256}), 128);
  EXPECT_EQ(shape::evaluate(shape::floorDiv(shape::constant(-7), shape::constant(2)), {}), -4);
  EXPECT_EQ(shape::evaluate(shape::ceilDiv(n, shape::constant(16)), {17}), 2);
  EXPECT_EQ(shape::text(shape::sub(w, shape::sub(h, n)), names), "W - (H - N)");
  EXPECT_EQ(shape::text(shape::mul(n, shape::floorDiv(h, shape::constant(2))), names), "N*(H//2)");
  EXPECT_EQ(shape::text(shape::mul(shape::mul(n, h), w), names), "N*H*W");
  const ShapeExpr huge = shape::mul(n, shape::constant(int64_t{1} << 62));
  EXPECT_THROW(shape::evaluate(huge, {4, 0, 0}), std::domain_error);
  EXPECT_THROW(shape::highest(huge, {1, 1, 1}, {4, 4, 4}), std::domain_error);
  EXPECT_THROW(shape::evaluate(shape::floorDiv(shape::constant(INT64_MIN), shape::sub(n, shape::constant(2))), {1, 0, 0}),
               std::domain_error);
  EXPECT_TRUE(shape::reads(rows, 1));
  EXPECT_FALSE(shape::reads(rows, 0));
  EXPECT_THROW(shape::evaluate(shape::floorDiv(h, shape::sub(n, n)), {1, 2, 3}), std::domain_error);
  EXPECT_THROW(shape::highest(shape::floorDiv(h, shape::sub(n, shape::constant(2))), {1, 1, 1}, {4, 4, 4}), std::domain_error);
}

TEST(ShapeExpr, ParsesWhatItPrints) {
  std::vector<std::string> names = {"N", "H", "W"};
  const ShapeExpr h = shape::symbol(1), w = shape::symbol(2);
  const ShapeExpr rows = shape::add(shape::floorDiv(shape::sub(h, shape::constant(1)), shape::constant(2)), shape::constant(1));
  for (const ShapeExpr& e : {rows, shape::mul(shape::symbol(0), shape::floorDiv(h, shape::constant(2))),
                             shape::sub(w, shape::sub(h, shape::symbol(0))), shape::min(h, w),
                             shape::ceilDiv(shape::mul(h, w), shape::constant(16))}) {
    for (const std::string& t : {shape::text(e, names), shape::compactText(e, names)}) {
      const ShapeExpr back = shape::parse(t, names, false);
      ASSERT_TRUE(back) << t;
      EXPECT_TRUE(shape::same(back, e)) << t;
    }
  }
  EXPECT_EQ(shape::compactText(rows, names), "(H-1)//2+1");
  EXPECT_EQ(shape::evaluate(shape::parse("(H-1)//2+1", names, false), {1, 256, 0}), 128);
  // unknown names are refused, or appended when asked
  EXPECT_FALSE(shape::parse("C+1", names, false));
  std::vector<std::string> grown;
  ASSERT_TRUE(shape::parse("(X+1)//2*Y", grown, true));
  EXPECT_EQ(grown, (std::vector<std::string>{"X", "Y"}));
  for (const char* bad : {"", "H+", "(H", "H)", "2//0", "H$", "min(H)", "99999999999999999999"})
    EXPECT_FALSE(shape::parse(bad, names, false)) << bad;
}
