// The vector unit's fast f16 conversions equal the sdk's reference ones (checked exhaustively
// once over all 2^32 floats; here every half, the edges and a million random patterns).
#include <gtest/gtest.h>

#include <random>

#include "sim/Conversion.h"

namespace pyasc::sim {
namespace {

TEST(Conversion, HalfToFloatTableMatchesEveryHalf) {
  for (uint32_t h = 0; h < 65536; ++h) {
    ASSERT_EQ(floatToBits(halfBitsToFloat(static_cast<uint16_t>(h))), floatToBits(halfToFloat(static_cast<uint16_t>(h)))) << h;
  }
}

TEST(Conversion, FloatToHalfNearestMatchesDoubleToHalf) {
  const uint32_t edges[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x477fe000,
                            0x477fefff, 0x477ff000, 0x477ff001, 0x38800000, 0x387fffff, 0x33000000, 0x33000001,
                            0x32ffffff, 0x3f801000, 0x3f803000, 0x3f800fff, 0x00000001, 0x7f7fffff};
  for (uint32_t x : edges) ASSERT_EQ(floatToHalfNearest(bitsToFloat(x)), doubleToHalf(bitsToFloat(x))) << std::hex << x;
  std::mt19937 rng(3);
  for (int i = 0; i < 1000000; ++i) {
    uint32_t x = rng();
    ASSERT_EQ(floatToHalfNearest(bitsToFloat(x)), doubleToHalf(bitsToFloat(x))) << std::hex << x;
  }
}

}  // namespace
}  // namespace pyasc::sim
