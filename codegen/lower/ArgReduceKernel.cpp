// Argmax/argmin: rows of the last axis on the vector unit (vcmax/vcmin with lane indices, two
// stages); other axes on the scalar unit, where a float's bits become a signed key.
#include "codegen/lower/ArgReduceKernel.h"

#include <algorithm>
#include <cmath>

#include "codegen/isel/DmaIsel.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/lower/TilePipeline.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Space;

namespace {

// key = bits when the sign is clear, −(bits & magnitude mask) when it is set; a NaN (magnitude
// above infinity's) beats every number, as in NumPy; an int32 (loaded sign-extended) is its own key.
void emitKey(KernelBuilder& b, int reg, int scratch, DType t, bool argmin) {
  if (t == DType::Int32) return;
  const int64_t magnitude = t == DType::Float16 ? 0x7fff : 0x7fffffff, inf = t == DType::Float16 ? 0x7c00 : 0x7f800000;
  b.aluImm(Opcode::And, scratch, reg, magnitude);
  int infReg = b.allocReg(), number = b.newLabel(), done = b.newLabel();
  b.li(infReg, inf);
  b.branch(Opcode::Bge, infReg, scratch, number);
  b.li(reg, argmin ? -(int64_t{1} << 40) : int64_t{1} << 40);
  b.jump(done);
  b.bind(number);
  b.branch(Opcode::Beq, scratch, reg, done);
  b.alu(Opcode::Sub, reg, 0, scratch);
  b.bind(done);
  b.freeReg(infReg);
}

void emitLoad(KernelBuilder& b, int rd, int addressReg, DType t) {
  Instruction ld;
  ld.op = Opcode::Ld;
  ld.type = t;  // a float loads as its bit pattern, zero-extended
  ld.rd = static_cast<uint8_t>(rd);
  ld.src0 = MemRef{Space::GM, static_cast<uint8_t>(addressReg), 0};
  b.emit(ld);
}

}  // namespace

// Rows along the last axis, reduced in two stages on the vector unit. Each row sits in UB padded
// to whole 256-byte chunks with the identity (−inf for argmax, +inf for argmin, the int32 limits),
// written once: loads never touch the padding. Stage one reduces each row's chunks to their
// extreme (a values list per row) and to (value, lane) pairs; stage two reduces each values list to
// (value, chunk). The scalar unit combines chunk × lanes + lane into the int64 result, which MTE3
// stores. NaN and ties follow vcmax/vcmin: the first NaN, else the first extreme, as in NumPy;
// padding lanes come after a row's own.
class VectorArgReduce {
 public:
  VectorArgReduce(const ArgReduceCompute& c, const Target& target, int maxCores)
      : c_(c), es_(dtypeSize(c.dtype)), ib_(dtypeSize(c.indexType)), lanes_(isa::kRepeatBytes / es_), chunks_(chunksOf(c)) {
    inRow_ = chunks_ * isa::kRepeatBytes;
    valRow_ = localRowBytes(chunks_ * es_);
    pairRow_ = localRowBytes(2 * chunks_ * es_);
    const int64_t perRow = rowBytes(c);
    const int64_t ub = target.buffer(isa::Space::UB).size;
    // four sets (two when rows are long) of as many rows as give each core four tiles, at most 255
    // rows (stage two's repeats)
    sets_ = perRow * 4 + 16 * isa::kBlockBytes <= ub ? 4 : 2;
    int64_t fit = (ub / sets_ - 4 * isa::kBlockBytes) / perRow;
    int64_t share = (c.outer + 4 * maxCores - 1) / (4 * maxCores);
    rows_ = std::max<int64_t>(1, std::min<int64_t>({fit, share, isa::kMaxRepeat}));
    valOff_ = rows_ * inRow_;
    pairOff_ = valOff_ + rows_ * valRow_;
    rowPairOff_ = pairOff_ + rows_ * pairRow_;
    outOff_ = localRowBytes(rowPairOff_ + rows_ * 2 * es_);
    setBytes_ = localRowBytes(outOff_ + rows_ * ib_);
    blockDim_ = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(maxCores, c.outer / rows_)));
  }

  // The vector path takes rows of the last axis of up to 64 chunks (stride fields) that fit UB twice.
  static bool fits(const ArgReduceCompute& c, const Target& target) {
    return c.inner == 1 && c.reduce > 1 && chunksOf(c) <= 64 &&
           rowBytes(c) * 2 + 16 * isa::kBlockBytes <= target.buffer(isa::Space::UB).size;
  }

  KernelCode lower() {
    KernelBuilder b(c_.name, 2);
    b.setSourceLine(c_.sourceLine);
    b.noteBufferBytes(isa::Space::UB, sets_ * setBytes_);
    fillPadding(b);
    rowReg_ = b.allocReg();
    addrReg_ = b.allocReg();
    chunkReg_ = b.allocReg();
    laneReg_ = b.allocReg();
    endReg_ = b.allocReg();
    TilePipeline p;
    p.fullTiles = c_.outer / rows_;
    p.hasTail = c_.outer % rows_ > 0;
    p.sets = sets_;
    p.blockDim = blockDim_;
    p.load = [&](int set, bool tail, int ahead) {
      isa::MemRef gm{isa::Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(0)), ahead * rows_ * c_.reduce * es_};
      int64_t gapBlocks = (inRow_ - localRowBytes(c_.reduce * es_)) / isa::kBlockBytes;
      emitCopyRows(b, isa::Opcode::CopyGmToUb, ub(set, 0), gm, count(tail), c_.reduce * es_, 0, gapBlocks);
    };
    p.compute = [&](int set, bool tail) {
      reduceRows(b, set, count(tail));
      combine(b, set, count(tail));
    };
    p.store = [&](int set, bool tail) {
      isa::MemRef gm{isa::Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(1)), 0};
      emitCopyRows(b, isa::Opcode::CopyUbToGm, gm, ub(set, outOff_), 1, count(tail) * ib_);
    };
    p.advance = [&](int64_t tiles, int countReg) {
      advanceCursor(b, KernelBuilder::argReg(0), rows_ * c_.reduce * es_, tiles, countReg);
      advanceCursor(b, KernelBuilder::argReg(1), rows_ * ib_, tiles, countReg);
    };
    emitTilePipeline(b, p);
    return b.finish(blockDim_);
  }

 private:
  static int64_t chunksOf(const ArgReduceCompute& c) {
    int64_t lanes = isa::kRepeatBytes / dtypeSize(c.dtype);
    return (c.reduce + lanes - 1) / lanes;
  }
  // UB bytes per row: the padded input, its values list and pairs, its (value, chunk) and its result.
  static int64_t rowBytes(const ArgReduceCompute& c) {
    const int64_t es = dtypeSize(c.dtype), chunks = chunksOf(c);
    return chunks * isa::kRepeatBytes + localRowBytes(chunks * es) + localRowBytes(2 * chunks * es) + 2 * es + 8;
  }
  int64_t count(bool tail) const { return tail ? c_.outer % rows_ : rows_; }
  isa::MemRef ub(int set, int64_t offset, int reg = 0) const {
    return isa::MemRef{isa::Space::UB, static_cast<uint8_t>(reg), set * setBytes_ + offset};
  }

  // Every set's input rows hold the identity before the first load (MTE2 waits for V).
  void fillPadding(KernelBuilder& b) const {
    if (c_.reduce % lanes_ == 0) return;
    VectorOp dup;
    dup.op = isa::Opcode::VDup;
    dup.type = c_.dtype;
    dup.scalarIsImm = true;
    if (c_.dtype == DType::Int32) {
      dup.scalarBits = c_.argmin ? 0x7fffffffll : 0x80000000ll;
    } else {
      dup.scalarBits = scalarBitsOf(c_.argmin ? HUGE_VAL : -HUGE_VAL, c_.dtype);
    }
    for (int set = 0; set < sets_; ++set) {
      dup.dst = ub(set, 0);
      emitContiguous(b, dup, rows_ * inRow_ / es_);
    }
    b.setFlag(isa::Pipe::V, isa::Pipe::MTE2, 0);
    b.waitFlag(isa::Pipe::V, isa::Pipe::MTE2, 0);
  }

  isa::Instruction reduction(isa::MemRef dst, isa::MemRef src, int64_t repeats, bool pairs, uint16_t srcRep) const {
    isa::Instruction i;
    i.op = c_.argmin ? isa::Opcode::VCMin : isa::Opcode::VCMax;
    i.type = c_.dtype;
    i.mode = pairs ? 1 : 0;
    i.repeat = static_cast<uint16_t>(repeats);
    i.dst = dst;
    i.src0 = src;
    i.src0Blk = 1;
    i.src0Rep = srcRep;
    i.dstRep = pairs ? 2 : 1;
    return i;
  }

  // Stage one, then stage two, then a V→S flag for the scalar unit.
  void reduceRows(KernelBuilder& b, int set, int64_t rows) {
    const uint16_t chunkBlocks = isa::kRepeatBytes / isa::kBlockBytes;
    b.setCounterMode(false);
    b.setFullMask();
    if (valRow_ == chunks_ * es_ && pairRow_ == 2 * chunks_ * es_) {
      // rows' values and pairs lie back to back: one instruction covers many rows
      const int64_t perInstruction = isa::kMaxRepeat / chunks_;
      for (int64_t r0 = 0; r0 < rows; r0 += perInstruction) {
        int64_t repeats = std::min(perInstruction, rows - r0) * chunks_;
        b.emit(reduction(ub(set, valOff_ + r0 * valRow_), ub(set, r0 * inRow_), repeats, false, chunkBlocks));
        b.emit(reduction(ub(set, pairOff_ + r0 * pairRow_), ub(set, r0 * inRow_), repeats, true, chunkBlocks));
      }
    } else {
      // one row per instruction, its values and pairs starting on 32-byte boundaries
      int loop = b.newLabel(), done = b.newLabel();
      b.li(rowReg_, 0);
      b.li(endReg_, rows);
      b.bind(loop);
      b.branch(isa::Opcode::Bge, rowReg_, endReg_, done);
      b.aluImm(isa::Opcode::Mul, addrReg_, rowReg_, inRow_);
      b.aluImm(isa::Opcode::Mul, chunkReg_, rowReg_, valRow_);
      b.aluImm(isa::Opcode::Mul, laneReg_, rowReg_, pairRow_);
      b.emit(reduction(ub(set, valOff_, chunkReg_), ub(set, 0, addrReg_), chunks_, false, chunkBlocks));
      b.emit(reduction(ub(set, pairOff_, laneReg_), ub(set, 0, addrReg_), chunks_, true, chunkBlocks));
      b.aluImm(isa::Opcode::Add, rowReg_, rowReg_, 1);
      b.jump(loop);
      b.bind(done);
    }
    if (chunks_ > 1) {  // stage two: each row's values list to (value, chunk)
      auto [lo, hi] = firstLanesMask(chunks_);
      b.setMask(lo, hi);
      b.emit(reduction(ub(set, rowPairOff_), ub(set, valOff_), rows, true, static_cast<uint16_t>(valRow_ / isa::kBlockBytes)));
    }
    b.setFlag(isa::Pipe::V, isa::Pipe::S, 0);
    b.waitFlag(isa::Pipe::V, isa::Pipe::S, 0);
  }

  // result[row] = chunk · lanes + lane: chunk from stage two (0 for one chunk), lane from stage one.
  void combine(KernelBuilder& b, int set, int64_t rows) {
    const DType indexType = es_ == 2 ? DType::Int16 : DType::Int32;  // lane and chunk indices < 2^15
    int loop = b.newLabel(), done = b.newLabel();
    b.li(rowReg_, 0);
    b.li(endReg_, rows);
    b.bind(loop);
    b.branch(isa::Opcode::Bge, rowReg_, endReg_, done);
    if (chunks_ > 1) {
      b.aluImm(isa::Opcode::Mul, addrReg_, rowReg_, 2 * es_);
      load(b, chunkReg_, ub(set, rowPairOff_ + es_, addrReg_), indexType);
    } else {
      b.li(chunkReg_, 0);
    }
    b.aluImm(isa::Opcode::Mul, addrReg_, rowReg_, pairRow_);
    b.aluImm(isa::Opcode::Mul, laneReg_, chunkReg_, 2 * es_);
    b.alu(isa::Opcode::Add, addrReg_, addrReg_, laneReg_);
    load(b, laneReg_, ub(set, pairOff_ + es_, addrReg_), indexType);
    b.aluImm(isa::Opcode::Mul, chunkReg_, chunkReg_, lanes_);
    b.alu(isa::Opcode::Add, laneReg_, laneReg_, chunkReg_);
    b.aluImm(isa::Opcode::Mul, addrReg_, rowReg_, ib_);
    isa::Instruction st;
    st.op = isa::Opcode::St;
    st.type = c_.indexType;
    st.ra = static_cast<uint8_t>(laneReg_);
    st.dst = ub(set, outOff_, addrReg_);
    b.emit(st);
    b.aluImm(isa::Opcode::Add, rowReg_, rowReg_, 1);
    b.jump(loop);
    b.bind(done);
  }

  static void load(KernelBuilder& b, int rd, isa::MemRef src, DType t) {
    isa::Instruction ld;
    ld.op = isa::Opcode::Ld;
    ld.type = t;
    ld.rd = static_cast<uint8_t>(rd);
    ld.src0 = src;
    b.emit(ld);
  }

  const ArgReduceCompute& c_;
  const int es_;
  const int ib_;  // bytes of one index written
  const int64_t lanes_, chunks_;
  int64_t inRow_ = 0, valRow_ = 0, pairRow_ = 0, rows_ = 1;
  int64_t valOff_ = 0, pairOff_ = 0, rowPairOff_ = 0, outOff_ = 0, setBytes_ = 0;
  int sets_ = 2, blockDim_ = 1;
  int rowReg_ = 0, addrReg_ = 0, chunkReg_ = 0, laneReg_ = 0, endReg_ = 0;
};

KernelCode lowerArgReduce(const ArgReduceCompute& c, const Target& target, int maxCores) {
  if (VectorArgReduce::fits(c, target)) return VectorArgReduce(c, target, maxCores).lower();
  KernelBuilder b(c.name, 2);
  b.setSourceLine(c.sourceLine);
  const int es = dtypeSize(c.dtype);
  int64_t units = c.outer * c.inner;
  int blockDim = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(maxCores, units)));
  int idx = b.allocReg(), unit = b.allocReg(), count = b.allocReg();
  b.blockIdx(idx);
  emitCoreShare(b, idx, units, blockDim, unit, count);
  int end = b.allocReg(), addr = b.allocReg(), tmp = b.allocReg(), best = b.allocReg(), bestIdx = b.allocReg(),
      k = b.allocReg(), value = b.allocReg(), limit = b.allocReg();
  b.alu(Opcode::Add, end, unit, count);
  b.li(limit, c.reduce);
  int unitLoop = b.newLabel(), unitDone = b.newLabel();
  b.bind(unitLoop);
  b.branch(Opcode::Bge, unit, end, unitDone);
  // addr = in + ((unit / inner) * reduce * inner + unit % inner) * es
  b.aluImm(Opcode::Div, addr, unit, c.inner);
  b.aluImm(Opcode::Mul, addr, addr, c.reduce * c.inner * es);
  b.aluImm(Opcode::Rem, tmp, unit, c.inner);
  b.aluImm(Opcode::Mul, tmp, tmp, es);
  b.alu(Opcode::Add, addr, addr, tmp);
  b.alu(Opcode::Add, addr, addr, KernelBuilder::argReg(0));
  emitLoad(b, best, addr, c.dtype);
  emitKey(b, best, tmp, c.dtype, c.argmin);
  b.li(bestIdx, 0);
  b.li(k, 1);
  int scan = b.newLabel(), scanDone = b.newLabel(), keep = b.newLabel();
  b.bind(scan);
  b.branch(Opcode::Bge, k, limit, scanDone);
  b.aluImm(Opcode::Add, addr, addr, c.inner * es);
  emitLoad(b, value, addr, c.dtype);
  emitKey(b, value, tmp, c.dtype, c.argmin);
  // a strictly better key replaces the best: ties keep the first index
  if (c.argmin) {
    b.branch(Opcode::Bge, value, best, keep);
  } else {
    b.branch(Opcode::Bge, best, value, keep);
  }
  b.aluImm(Opcode::Add, best, value, 0);
  b.aluImm(Opcode::Add, bestIdx, k, 0);
  b.bind(keep);
  b.aluImm(Opcode::Add, k, k, 1);
  b.jump(scan);
  b.bind(scanDone);
  b.aluImm(Opcode::Mul, tmp, unit, dtypeSize(c.indexType));
  b.alu(Opcode::Add, tmp, tmp, KernelBuilder::argReg(1));
  Instruction st;
  st.op = Opcode::St;
  st.type = c.indexType;
  st.ra = static_cast<uint8_t>(bestIdx);
  st.dst = MemRef{Space::GM, static_cast<uint8_t>(tmp), 0};
  b.emit(st);
  b.aluImm(Opcode::Add, unit, unit, 1);
  b.jump(unitLoop);
  b.bind(unitDone);
  return b.finish(blockDim);
}

}  // namespace pyasc::codegen
