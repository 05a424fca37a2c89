// Vector instruction selection: an operation over `count` contiguous UB elements becomes
// repeat-255 chunks plus one masked tail repeat.
#pragma once

#include <cstdint>
#include <utility>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/isa/ISA.h"

namespace pyasc::codegen {

// A vector operation on contiguous operands. Unused sources are ignored by the opcode's format.
struct VectorOp {
  isa::Opcode op = isa::Opcode::VAdd;
  DType type = DType::Float16;   // operand type (source type for vconv)
  DType type2 = DType::Float16;  // vconv destination type
  uint8_t mode = 0;              // rounding mode (vconv), compare mode (vcmp)
  isa::MemRef dst, src0, src1, src2;
  bool src1Broadcast = false;  // src1 is one 32-byte block re-read by every block and repeat
  bool src1OneRepeat = false;  // src1 is one repeat (256 bytes) re-read by every repeat
  int scalarReg = 0;        // vscalar/vdup: register holding the scalar's bits
  bool scalarIsImm = false;
  int64_t scalarBits = 0;   // vscalar/vdup immediate bit pattern
};

// Lanes one repeat processes for an operation (256 bytes of the widest operand type).
int lanesPerRepeat(const VectorOp& op);

// Emits `op` over `count` elements laid out contiguously from each operand's address.
void emitContiguous(KernelBuilder& b, const VectorOp& op, int64_t count);
// The same over as many elements as register `countReg` holds at run time (dynamic shapes): one
// instruction in counter mask mode.
void emitContiguousCounted(KernelBuilder& b, const VectorOp& op, int countReg);

// Converts `count` contiguous UB elements of type `from` at byte `src` to `to` at byte `dst`
// (rounding to nearest).
void emitConvert(KernelBuilder& b, int64_t dst, int64_t src, DType from, DType to, int64_t count);

// Emits `op` over a block of `rows` rows of `cols` elements whose rows lie `pitch` elements apart
// in every operand (each in its own type; pitch·size a whole number of 32-byte blocks): one
// instruction per 256-byte column segment and 255 rows, the last segment masked. With `rowSrc1`,
// src1 is one row of `cols` elements that every row reads (a per-column vector).
// With `rowsReg` ≥ 0 the row count comes from that register at run time (set_field repeat; `rows`,
// at most 255, is the most it holds).
void emitRows(KernelBuilder& b, const VectorOp& op, int64_t rows, int64_t cols, int64_t pitch, bool rowSrc1 = false,
              int rowsReg = -1);

// The normal-mode mask of lanes [0, n): {bits 0-63, bits 64-127}.
std::pair<uint64_t, uint64_t> firstLanesMask(int64_t n);

// Bit pattern of a constant in the given type, for vdup/vadds immediates.
int64_t scalarBitsOf(double value, DType type);

}  // namespace pyasc::codegen
