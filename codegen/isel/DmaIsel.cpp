// Chooses block or byte mode for a DMA and fills its burst fields.
#include "codegen/isel/DmaIsel.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <string>

#include "sdk/isa/Encoding.h"

namespace pyasc::codegen {

using isa::Opcode;

// The gap fields of a copy in the mode its lengths allow: {length, GM gap}.
static std::pair<int64_t, int64_t> burstFields(int64_t rowBytes, int64_t gmGapBytes) {
  bool blocks = rowBytes % isa::kBlockBytes == 0 && gmGapBytes % isa::kBlockBytes == 0;
  return blocks ? std::pair<int64_t, int64_t>{rowBytes / isa::kBlockBytes, gmGapBytes / isa::kBlockBytes}
                : std::pair<int64_t, int64_t>{rowBytes, gmGapBytes};
}

static isa::Instruction copyRows(Opcode op, isa::MemRef dst, isa::MemRef src, int64_t rows, int64_t rowBytes,
                                 int64_t gmGapBytes, int64_t localGapBlocks) {
  if (rows > isa::kMaxNBurst) throw std::logic_error("copyRows: " + std::to_string(rows) + " rows exceed nburst");
  isa::Instruction i;
  i.op = op;
  i.dst = dst;
  i.src0 = src;
  i.nburst = static_cast<uint16_t>(rows);
  bool gmIsSource = op == Opcode::CopyGmToUb || op == Opcode::CopyGmToL1;
  bool blocks = rowBytes % isa::kBlockBytes == 0 && gmGapBytes % isa::kBlockBytes == 0;
  auto [len, gap] = burstFields(rowBytes, gmGapBytes);
  if (len > isa::kMaxBurstLen || gap > isa::kMaxBurstLen) {
    throw std::logic_error("copyRows: burst of " + std::to_string(rowBytes) + " bytes with gap " +
                           std::to_string(gmGapBytes) + " does not fit the DMA fields");
  }
  i.mode = blocks ? 0 : 1;
  i.burstLen = static_cast<uint16_t>(len);
  (gmIsSource ? i.srcGap : i.dstGap) = static_cast<uint16_t>(gap);
  (gmIsSource ? i.dstGap : i.srcGap) = static_cast<uint16_t>(localGapBlocks);
  return i;
}

void emitCopyRows(KernelBuilder& b, Opcode op, isa::MemRef dst, isa::MemRef src, int64_t rows, int64_t rowBytes,
                  int64_t gmGapBytes, int64_t localGapBlocks) {
  if (rows == 1) gmGapBytes = localGapBlocks = 0;  // gaps separate bursts: one burst has none
  int64_t whole = rowBytes / isa::kBlockBytes * isa::kBlockBytes;
  if (rows == 1 && rowBytes > isa::kMaxBurstLen && whole != rowBytes) {
    b.emit(copyRows(op, dst, src, 1, whole, 0, 0));
    dst.offset += whole;
    src.offset += whole;
    b.emit(copyRows(op, dst, src, 1, rowBytes - whole, 0, 0));
    return;
  }
  if (rows > 1 && (burstFields(rowBytes, gmGapBytes).second > isa::kMaxBurstLen || localGapBlocks > isa::kMaxBurstLen)) {
    bool gmIsSource = op == Opcode::CopyGmToUb || op == Opcode::CopyGmToL1;
    int64_t gmPitch = rowBytes + gmGapBytes, localPitch = localRowBytes(rowBytes) + localGapBlocks * isa::kBlockBytes;
    for (int64_t r = 0; r < rows; ++r) {
      isa::MemRef d = dst, s = src;
      d.offset += r * (gmIsSource ? localPitch : gmPitch);
      s.offset += r * (gmIsSource ? gmPitch : localPitch);
      b.emit(copyRows(op, d, s, 1, rowBytes, 0, 0));
    }
    return;
  }
  b.emit(copyRows(op, dst, src, rows, rowBytes, gmGapBytes, localGapBlocks));
}

void emitCopyRowsCounted(KernelBuilder& b, Opcode op, isa::MemRef dst, isa::MemRef src, int rowsReg, int64_t maxRows,
                         int64_t rowBytes, int64_t gmGapBytes, int64_t localGapBlocks) {
  // several runs keep their gaps even when the count is 1 at run time
  isa::Instruction i = copyRows(op, dst, src, std::max<int64_t>(maxRows, 2), rowBytes, gmGapBytes, localGapBlocks);
  b.fieldFromReg(isa::Field::NBurst, rowsReg);
  b.emit(i);
}

void emitCopyBytes(KernelBuilder& b, Opcode op, isa::MemRef dst, isa::MemRef src, int bytesReg) {
  int blocks = b.allocReg(), rest = b.allocReg();
  b.aluImm(Opcode::Shr, blocks, bytesReg, 5);
  b.fieldFromReg(isa::Field::BurstLen, blocks);
  b.emit(copyRows(op, dst, src, 1, 0, 0, 0));
  // the rest after the blocks: both addresses move by their bytes (`blocks` now holds them; a
  // local address on x0 takes that register itself)
  b.aluImm(Opcode::Shl, blocks, blocks, 5);
  b.alu(Opcode::Sub, rest, bytesReg, blocks);
  int moved = -1;
  for (isa::MemRef* ref : {&dst, &src}) {
    if (ref->reg == 0) {
      ref->reg = static_cast<uint8_t>(blocks);
      continue;
    }
    moved = b.allocReg();
    b.alu(Opcode::Add, moved, ref->reg, blocks);
    ref->reg = static_cast<uint8_t>(moved);
  }
  isa::Instruction tail = copyRows(op, dst, src, 1, 1, 0, 0);  // byte mode
  tail.burstLen = 0;
  b.fieldFromReg(isa::Field::BurstLen, rest);
  b.emit(tail);
  for (int reg : {blocks, rest, moved})
    if (reg >= 0) b.freeReg(reg);
}

}  // namespace pyasc::codegen
