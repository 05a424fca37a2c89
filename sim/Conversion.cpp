// Element conversions through an exact double: every supported source value fits in binary64.
#include "sim/Conversion.h"

#include <array>
#include <cmath>
#include <limits>

namespace pyasc::sim {

uint32_t convertValue(DType s, DType d, RoundMode mode, uint32_t bits) {
  double v;
  switch (s) {
    case DType::Float16: v = halfToFloat(static_cast<uint16_t>(bits)); break;
    case DType::Float32: v = bitsToFloat(bits); break;
    case DType::Int32: v = static_cast<int32_t>(bits); break;
    case DType::Int8: v = static_cast<int8_t>(bits); break;
    default: v = static_cast<uint8_t>(bits); break;
  }
  switch (d) {
    case DType::Float16: return doubleToHalf(v, mode);
    case DType::Float32: return floatToBits(doubleToFloat(v, mode));
    case DType::Int32:
      return static_cast<uint32_t>(doubleToInt(v, mode, std::numeric_limits<int32_t>::min(),
                                               std::numeric_limits<int32_t>::max()));
    case DType::Int8: return static_cast<uint32_t>(doubleToInt(v, mode, -128, 127)) & 0xff;
    default: return static_cast<uint32_t>(doubleToInt(v, mode, 0, 255));
  }
}

float halfBitsToFloat(uint16_t bits) {
  static const std::array<float, 65536> table = [] {
    std::array<float, 65536> t{};
    for (uint32_t h = 0; h < 65536; ++h) t[h] = halfToFloat(static_cast<uint16_t>(h));
    return t;
  }();
  return table[bits];
}

uint16_t floatToHalfNearest(float value) {
  uint32_t x = floatToBits(value);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return 0x7e00;                 // NaN, quiet and positive like doubleToHalf
  if (ax >= 0x477ff000u) return sign | 0x7c00;         // >= 65520 rounds to infinity
  if (ax < 0x38800000u) {                              // below 2^-14: a multiple of 2^-24
    float scaled = bitsToFloat(ax) * 16777216.0f;      // exact: a power-of-two scale
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  uint32_t h = (((ax >> 23) - 112) << 10) | ((ax & 0x7fffffu) >> 13);
  uint32_t rest = ax & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;  // nearest, ties to even
  return sign | static_cast<uint16_t>(h);
}

}  // namespace pyasc::sim
