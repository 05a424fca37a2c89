// Splits contiguous vector operations into full repeats and a masked tail.
#include "codegen/isel/VectorIsel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sdk/support/Float16.h"

namespace pyasc::codegen {

using isa::Format;
using isa::Instruction;
using isa::Opcode;

int lanesPerRepeat(const VectorOp& op) {
  int size = dtypeSize(op.type);
  if (op.op == Opcode::VConv) size = std::max(size, dtypeSize(op.type2));
  return isa::kRepeatBytes / size;
}

std::pair<uint64_t, uint64_t> firstLanesMask(int64_t n) {
  return {n >= 64 ? ~0ull : (1ull << n) - 1, n <= 64 ? 0 : (n >= 128 ? ~0ull : (1ull << (n - 64)) - 1)};
}

int64_t scalarBitsOf(double value, DType type) {
  switch (type) {
    case DType::Float16: return doubleToHalf(value);
    case DType::Float32: return floatToBits(static_cast<float>(value));
    case DType::Int32: return static_cast<int64_t>(static_cast<int32_t>(value)) & 0xffffffffll;
    default: return static_cast<int64_t>(value);
  }
}

static Instruction makeInstruction(const VectorOp& op, int64_t firstElement, int repeat, int lanes) {
  Instruction i;
  i.op = op.op;
  i.type = op.type;
  Format format = isa::opcodeInfo(op.op).format;
  DType dstType = op.type;
  if (format == Format::VConv) {
    i.type2 = op.type2;
    dstType = op.type2;
  }
  if (format == Format::VConv || format == Format::VCmp) i.mode = op.mode;
  i.repeat = static_cast<uint16_t>(repeat);
  int64_t repeats = firstElement / lanes;
  auto advance = [&](isa::MemRef ref, DType t) {
    ref.offset += repeats * lanes * dtypeSize(t);
    return ref;
  };
  // per-operand repeat strides in blocks: one repeat of lanes elements of that operand's type
  auto repBlocks = [&](DType t) { return static_cast<uint16_t>(lanes * dtypeSize(t) / isa::kBlockBytes); };
  i.dst = advance(op.dst, dstType);
  i.dstBlk = 1;
  i.dstRep = repBlocks(dstType);
  switch (format) {
    case Format::VBinary:
    case Format::VSelect:
      i.src0 = advance(op.src0, op.type);
      i.src1 = op.src1Broadcast || op.src1OneRepeat ? op.src1 : advance(op.src1, op.type);
      i.src0Blk = 1;
      i.src1Blk = op.src1Broadcast ? 0 : 1;
      i.src0Rep = repBlocks(op.type);
      i.src1Rep = op.src1Broadcast || op.src1OneRepeat ? 0 : repBlocks(op.type);
      if (format == Format::VSelect) {
        i.src2 = op.src2;
        i.src2.offset += repeats * (lanes / 8);
      }
      break;
    case Format::VCmp:
      i.src0 = advance(op.src0, op.type);
      i.src1 = advance(op.src1, op.type);
      i.src0Blk = i.src1Blk = 1;
      i.src0Rep = i.src1Rep = repBlocks(op.type);
      i.dst = op.dst;
      i.dst.offset += repeats * (lanes / 8);
      break;
    case Format::VScalar:
      i.src0 = advance(op.src0, op.type);
      i.src0Blk = 1;
      i.src0Rep = repBlocks(op.type);
      i.mode = op.scalarIsImm ? 1 : 0;
      if (op.scalarIsImm) i.imm = op.scalarBits; else i.ra = static_cast<uint8_t>(op.scalarReg);
      break;
    case Format::VDup:
      i.mode = op.scalarIsImm ? 1 : 0;
      if (op.scalarIsImm) i.imm = op.scalarBits; else i.ra = static_cast<uint8_t>(op.scalarReg);
      break;
    case Format::VUnary:
    case Format::VConv:
      i.src0 = advance(op.src0, op.type);
      i.src0Blk = 1;
      i.src0Rep = repBlocks(op.type);
      break;
    default:
      throw std::logic_error(std::string("emitContiguous: unsupported opcode ") + isa::opcodeInfo(op.op).mnemonic);
  }
  return i;
}

void emitContiguous(KernelBuilder& b, const VectorOp& op, int64_t count) {
  int lanes = lanesPerRepeat(op);
  isa::Format format = isa::opcodeInfo(op.op).format;
  if (format == Format::VCmp || format == Format::VSelect) {
    // selection bits are packed L/8 bytes per repeat, so an instruction may only start at a repeat
    // whose bits begin a 32-byte block: counter mode covers each chunk, its tail included
    const int64_t align = isa::kBlockBytes * 8 / lanes;
    const int64_t chunk = isa::kMaxRepeat / align * align * lanes;
    b.setCounterMode(true);
    for (int64_t done = 0; done < count; done += chunk) {
      int64_t n = std::min(chunk, count - done);
      b.setMask(static_cast<uint64_t>(n), 0);
      b.emit(makeInstruction(op, done, static_cast<int>((n + lanes - 1) / lanes), lanes));
    }
    return;
  }
  int64_t fullRepeats = count / lanes;
  int64_t tail = count % lanes;
  b.setCounterMode(false);
  if (fullRepeats > 0) b.setFullMask();
  for (int64_t done = 0; done < fullRepeats; done += isa::kMaxRepeat) {
    int repeat = static_cast<int>(std::min<int64_t>(isa::kMaxRepeat, fullRepeats - done));
    b.emit(makeInstruction(op, done * lanes, repeat, lanes));
  }
  if (tail > 0) {
    auto [lo, hi] = firstLanesMask(tail);
    b.setMask(lo, hi);
    b.emit(makeInstruction(op, fullRepeats * lanes, 1, lanes));
  }
}

void emitContiguousCounted(KernelBuilder& b, const VectorOp& op, int countReg) {
  b.setCounterMode(true);
  b.setMaskLow(countReg);
  b.emit(makeInstruction(op, 0, 1, lanesPerRepeat(op)));
}

void emitConvert(KernelBuilder& b, int64_t dst, int64_t src, DType from, DType to, int64_t count) {
  VectorOp v;
  v.op = Opcode::VConv;
  v.type = from;
  v.type2 = to;
  v.dst = isa::MemRef{isa::Space::UB, 0, dst};
  v.src0 = isa::MemRef{isa::Space::UB, 0, src};
  emitContiguous(b, v, count);
}

void emitRows(KernelBuilder& b, const VectorOp& op, int64_t rows, int64_t cols, int64_t pitch, bool rowSrc1,
              int rowsReg) {
  if (rowsReg >= 0 && rows > isa::kMaxRepeat) throw std::logic_error("emitRows: run-time rows beyond one instruction's repeats");
  const int lanes = lanesPerRepeat(op);
  const Format format = isa::opcodeInfo(op.op).format;
  const DType dstType = format == Format::VConv ? op.type2 : op.type;
  auto stride = [&](DType t) { return static_cast<uint16_t>(pitch * dtypeSize(t) / isa::kBlockBytes); };
  b.setCounterMode(false);
  for (int64_t seg = 0; seg < cols; seg += lanes) {
    const int64_t n = std::min<int64_t>(lanes, cols - seg);
    const auto [lo, hi] = firstLanesMask(n);
    b.setMask(lo, hi);
    for (int64_t row = 0; row < rows; row += isa::kMaxRepeat) {
      Instruction i = makeInstruction(op, 0, static_cast<int>(std::min<int64_t>(isa::kMaxRepeat, rows - row)), lanes);
      auto at = [&](isa::MemRef ref, DType t) {
        ref.offset += (row * pitch + seg) * dtypeSize(t);
        return ref;
      };
      i.dst = at(op.dst, dstType);
      i.dstRep = stride(dstType);
      if (format != Format::VDup) {
        i.src0 = at(op.src0, op.type);
        i.src0Rep = stride(op.type);
      }
      if (format == Format::VBinary) {
        i.src1 = rowSrc1 ? op.src1 : at(op.src1, op.type);
        if (rowSrc1) i.src1.offset += seg * dtypeSize(op.type);
        i.src1Rep = rowSrc1 ? 0 : stride(op.type);
      }
      if (rowsReg >= 0) b.fieldFromReg(isa::Field::Repeat, rowsReg);
      b.emit(i);
    }
  }
}

}  // namespace pyasc::codegen
