// IEEE 754 binary16 conversions with explicit rounding modes, bit-exact and portable.
#pragma once

#include <cstdint>

namespace pyasc {

// Rounding modes of vconv and the cast_to API: nearest-even, toward -inf, toward +inf,
// toward zero, nearest with ties away from zero.
enum class RoundMode : uint8_t { Rint = 0, Floor = 1, Ceil = 2, Trunc = 3, Round = 4 };

const char* roundModeName(RoundMode mode);  // "rint", "floor", "ceil", "trunc", "round"
bool parseRoundMode(const char* name, RoundMode& mode);

float halfToFloat(uint16_t bits);
// Rounds a double (exact for every float32 input) to binary16; NaN stays NaN (quiet), overflow
// follows the rounding mode (to infinity or to the largest finite value).
uint16_t doubleToHalf(double value, RoundMode mode = RoundMode::Rint);
inline uint16_t floatToHalf(float value, RoundMode mode = RoundMode::Rint) {
  return doubleToHalf(static_cast<double>(value), mode);
}
// Rounds a double to float32 with the given mode (Rint is the C++ conversion).
float doubleToFloat(double value, RoundMode mode);
// Rounds a double to an integer in [lo, hi] with the given mode, saturating; NaN gives 0.
int64_t doubleToInt(double value, RoundMode mode, int64_t lo, int64_t hi);

float bitsToFloat(uint32_t bits);
uint32_t floatToBits(float value);

}  // namespace pyasc
