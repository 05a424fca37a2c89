// Element conversions through an exact double: every supported source value fits in binary64.
#include "sim/Conversion.h"

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

}  // namespace pyasc::sim
