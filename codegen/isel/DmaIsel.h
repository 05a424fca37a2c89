// DMA instruction selection: rows of bytes between GM and a local buffer, block mode when every
// length is a whole number of 32-byte blocks, byte mode (exact lengths) otherwise.
#pragma once

#include <cstdint>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/isa/ISA.h"

namespace pyasc::codegen {

// `rows` runs of `rowBytes`; on the GM side consecutive runs are `gmGapBytes` apart (end to start),
// on the local side each is padded to 32 bytes and followed by `localGapBlocks` blocks. `op` names
// the direction. A single long run that is not a whole number of blocks becomes a block-mode copy
// plus a byte-mode remainder, since byte-mode lengths stop at 65535; runs whose gaps do not fit the
// DMA fields move one DMA each.
void emitCopyRows(KernelBuilder& b, isa::Opcode op, isa::MemRef dst, isa::MemRef src, int64_t rows,
                  int64_t rowBytes, int64_t gmGapBytes = 0, int64_t localGapBlocks = 0);

// One run of as many bytes as register `bytesReg` holds at run time (dynamic shapes): its whole
// 32-byte blocks in block mode, then the rest in byte mode, each length taken from a register.
void emitCopyBytes(KernelBuilder& b, isa::Opcode op, isa::MemRef dst, isa::MemRef src, int bytesReg);

// `rows` runs as emitCopyRows makes them in one DMA, the run count taken from register `rowsReg`
// at run time (set_field nburst; `maxRows` is the most it holds). A logic_error when the runs and
// gaps do not fit one DMA.
void emitCopyRowsCounted(KernelBuilder& b, isa::Opcode op, isa::MemRef dst, isa::MemRef src, int rowsReg, int64_t maxRows,
                         int64_t rowBytes, int64_t gmGapBytes = 0, int64_t localGapBlocks = 0);

// Bytes a run of `rowBytes` occupies in a local buffer.
inline int64_t localRowBytes(int64_t rowBytes) {
  return (rowBytes + isa::kBlockBytes - 1) / isa::kBlockBytes * isa::kBlockBytes;
}

}  // namespace pyasc::codegen
