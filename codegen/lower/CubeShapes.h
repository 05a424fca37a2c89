// Fractal sizes, accumulator types and cube rates shared by the cube kernels (matmul, conv2d).
#pragma once

#include <cstdint>

#include "sdk/isa/ISA.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

inline int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Elements of one 32-byte fractal row: a fractal is 16 × c0.
inline int c0Of(DType t) { return isa::kBlockBytes / dtypeSize(t); }

// The cube's MAC rate for an input type, relative to 16·16·16 f16 MACs per cycle.
inline double cubeRate(const Target& t, DType in) {
  switch (in) {
    case DType::Int8: return t.cubeRateS8;
    case DType::Float32: return t.cubeRateF32;
    default: return t.cubeRateF16;
  }
}

inline DType accumulatorOf(DType in) { return in == DType::Int8 ? DType::Int32 : DType::Float32; }

}  // namespace pyasc::codegen
