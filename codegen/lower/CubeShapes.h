// Fractal sizes, accumulator types, cube rates and pipeline flags shared by the cube kernels
// (matmul, conv2d).
#pragma once

#include <cstdint>

#include "codegen/emit/KernelBuilder.h"
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

// The cube pipeline's buffer-free flags: ping-pong L1 (MTE1→MTE2) and L0A/L0B (M→MTE1), and one
// per L0C buffer (FIX→M); the prologue sets them all, the epilogue consumes them all.
inline void emitCubeFlagPrologue(KernelBuilder& b, int l0cBuffers) {
  for (int p = 0; p < 2; ++p) {
    b.setFlag(isa::Pipe::MTE1, isa::Pipe::MTE2, p);
    b.setFlag(isa::Pipe::M, isa::Pipe::MTE1, p);
  }
  for (int q = 0; q < l0cBuffers; ++q) b.setFlag(isa::Pipe::FIX, isa::Pipe::M, q);
}

inline void emitCubeFlagEpilogue(KernelBuilder& b, int l0cBuffers) {
  for (int p = 0; p < 2; ++p) {
    b.waitFlag(isa::Pipe::MTE1, isa::Pipe::MTE2, p);
    b.waitFlag(isa::Pipe::M, isa::Pipe::MTE1, p);
  }
  for (int q = 0; q < l0cBuffers; ++q) b.waitFlag(isa::Pipe::FIX, isa::Pipe::M, q);
}

}  // namespace pyasc::codegen
