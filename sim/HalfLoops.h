// Bulk float16 arithmetic over contiguous lanes with F16C and AVX, when the host CPU has them.
#pragma once

#include <cstdint>

namespace pyasc::sim {

enum class HalfOp : uint8_t { Add, Sub, Mul, Div, Max, Min };

// Whether halfBinary can run on this host (checked once).
bool hostHasHalfLoops();

// dst[i] = op(a[i], b[i]) (or op(a[i], scalar) when b is null) for i < n, each operand widened to
// binary32, computed there and rounded once to nearest-even binary16; max/min return a on equal
// operands, and every NaN result is 0x7e00: the bits of the per-lane path. dst may be a or b, but
// must not overlap them otherwise. Returns false, doing nothing, when the host lacks F16C or AVX.
bool halfBinary(HalfOp op, uint8_t* dst, const uint8_t* a, const uint8_t* b, uint16_t scalar, uint64_t n);

}  // namespace pyasc::sim
