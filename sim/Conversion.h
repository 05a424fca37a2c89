// Element conversions shared by vconv and fixpipe.
#pragma once

#include <cstdint>

#include "sdk/support/DType.h"
#include "sdk/support/Float16.h"

namespace pyasc::sim {

// Converts the bit pattern of one S value to D with the rounding mode; float to integer
// saturates and NaN gives 0. Supports f16, f32, s32, s8 and u8.
uint32_t convertValue(DType s, DType d, RoundMode mode, uint32_t bits);

// The vector unit's hot conversions, equal to the sdk's halfToFloat and doubleToHalf(float, Rint)
// for every input: a table, and integer rounding on the binary32 bits.
float halfBitsToFloat(uint16_t bits);
uint16_t floatToHalfNearest(float value);

}  // namespace pyasc::sim
