// binary16 conversions against hand-computed bit patterns, for every rounding mode.
#include "sdk/support/Float16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace pyasc;

TEST(Float16, ExactValuesRoundTrip) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t h = static_cast<uint16_t>(bits);
    float f = halfToFloat(h);
    if (std::isnan(f)) continue;
    ASSERT_EQ(floatToHalf(f), h) << std::hex << bits;
  }
}

TEST(Float16, NearestEvenTies) {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1.0).
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3*2^-11 lies halfway between 0x3c01 and 0x3c02: goes to 0x3c02.
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11), RoundMode::Trunc), 0x3c01);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11), RoundMode::Round), 0x3c01);
  EXPECT_EQ(floatToHalf(-1.0f - std::ldexp(1.0f, -12), RoundMode::Floor), 0xbc01);
  EXPECT_EQ(floatToHalf(-1.0f - std::ldexp(1.0f, -12), RoundMode::Ceil), 0xbc00);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -12), RoundMode::Ceil), 0x3c01);
}

TEST(Float16, Specials) {
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);               // rounds up to infinity
  EXPECT_EQ(floatToHalf(65520.0f, RoundMode::Trunc), 0x7bff);  // saturates toward zero
  EXPECT_EQ(floatToHalf(-1e6f, RoundMode::Ceil), 0xfbff);
  EXPECT_EQ(floatToHalf(-1e6f, RoundMode::Floor), 0xfc00);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -26)), 0x0000);  // below half the smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -26)), 0x0001);
}

TEST(Float16, IntegerConversionSaturates) {
  EXPECT_EQ(doubleToInt(2.5, RoundMode::Rint, -128, 127), 2);
  EXPECT_EQ(doubleToInt(3.5, RoundMode::Rint, -128, 127), 4);
  EXPECT_EQ(doubleToInt(-2.5, RoundMode::Round, -128, 127), -3);
  EXPECT_EQ(doubleToInt(-2.5, RoundMode::Trunc, -128, 127), -2);
  EXPECT_EQ(doubleToInt(-2.5, RoundMode::Floor, -128, 127), -3);
  EXPECT_EQ(doubleToInt(1000.0, RoundMode::Rint, -128, 127), 127);
  EXPECT_EQ(doubleToInt(std::nan(""), RoundMode::Rint, -128, 127), 0);
}
