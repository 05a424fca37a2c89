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

// C (L0C at `l0c`) = (init ? 0 : C) + A (L0A at `l0a`) · B (L0B at `l0b`) for an m×k by k×n tile.
inline isa::Instruction mmadInstruction(DType in, int64_t l0c, int64_t l0a, int64_t l0b, int64_t m, int64_t k, int64_t n,
                                        bool init) {
  isa::Instruction mm;
  mm.op = isa::Opcode::Mmad;
  mm.type = in;
  mm.type2 = accumulatorOf(in);
  mm.dst = isa::MemRef{isa::Space::L0C, 0, l0c};
  mm.src0 = isa::MemRef{isa::Space::L0A, 0, l0a};
  mm.src1 = isa::MemRef{isa::Space::L0B, 0, l0b};
  mm.m = static_cast<uint16_t>(m);
  mm.k = static_cast<uint16_t>(k);
  mm.n = static_cast<uint16_t>(n);
  mm.mode = init ? 1 : 0;
  return mm;
}

// The fixpipe moving columns [j, j + cols) of a float32 L0C tile of `tm` rows (NZ, at byte `l0c`)
// to UB at byte `ub` as `to` (float32, or float16 rounded to nearest), rows `pitch` = cols rounded
// up to 16 apart; rows from `rows` on stay unwritten.
inline isa::Instruction fixColumnsToUb(int64_t l0c, int64_t tm, int64_t j, int64_t cols, int64_t rows, int64_t ub,
                                       DType to = DType::Float32) {
  isa::Instruction fix;
  fix.op = isa::Opcode::FixL0CToUb;
  fix.type = DType::Float32;
  fix.type2 = to;
  fix.dst = isa::MemRef{isa::Space::UB, 0, ub};
  fix.src0 = isa::MemRef{isa::Space::L0C, 0, l0c + j / 16 * tm * 16 * 4};
  fix.m = static_cast<uint16_t>(tm);
  fix.n = static_cast<uint16_t>(roundUp(cols, 16));
  fix.dstStride = fix.n;
  fix.validRows = static_cast<uint16_t>(rows);
  fix.validCols = static_cast<uint16_t>(cols);
  return fix;
}

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
