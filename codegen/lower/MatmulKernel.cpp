// Cube lowering: a tiling solver over buffer capacities, per-core static tile lists, and a K loop
// with ping-pong L1/L0 buffers synchronised MTE2→MTE1→M→FIX.
#include "codegen/lower/MatmulKernel.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "codegen/isel/DmaIsel.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/lower/ScheduleCheck.h"
#include "codegen/lower/CubeShapes.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Pipe;
using isa::Space;

std::string MatmulSchedule::str() const {
  std::ostringstream os;
  os << "tile=" << tm << "x" << tn << "x" << tk << " l0c_buffers=" << l0cBuffers << " block_dim=" << blockDim;
  return os.str();
}

namespace {

// Bytes of one L1 panel row: bursts are padded to 32 bytes.
int64_t l1RowBytes(int64_t elems, DType t) { return localRowBytes(elems * dtypeSize(t)); }

// UB bytes of the epilogue's bias row (float32, and the float16 one it widens).
int64_t biasBytes(const MatmulCompute& c, int64_t tn) {
  if (!c.epilogue.bias) return 0;
  return localRowBytes(tn * 4) + (c.epilogue.biasType == DType::Float16 ? localRowBytes(tn * 2) : 0);
}

// Columns of one epilogue chunk: the most whole 16-column blocks of a tm × tn tile whose float32
// accumulator (and float16 result) rows fit UB beside the bias row.
int64_t epilogueChunk(const MatmulCompute& c, const Target& target, int64_t tm, int64_t tn) {
  const int64_t room = target.buffer(Space::UB).size - biasBytes(c, tn);
  const int64_t perColumn = tm * (4 + (c.outType == DType::Float16 ? 2 : 0));
  return std::min(roundUp(tn, 16), std::max<int64_t>(0, room / perColumn / 16 * 16));
}

// What keeps a tm×tn×tk tile from fitting (ping-pong L0A, L0B and L1 panels, one L0C tile, the
// epilogue's UB chunk), or "".
std::string tileProblem(const MatmulCompute& c, const Target& target, int64_t tm, int64_t tn, int64_t tk) {
  const int es = dtypeSize(c.inType);
  auto over = [](const char* buffer, int64_t want, int64_t capacity) {
    return std::string(buffer) + " holds " + std::to_string(capacity) + " bytes; the tile needs " + std::to_string(want);
  };
  int64_t l1 = target.buffer(Space::L1).size, l0a = target.buffer(Space::L0A).size,
          l0b = target.buffer(Space::L0B).size, l0c = target.buffer(Space::L0C).size;
  if (tm * tk * es * 2 > l0a) return over("L0A", tm * tk * es * 2, l0a);
  if (tk * tn * es * 2 > l0b) return over("L0B", tk * tn * es * 2, l0b);
  int64_t panelA = tm * l1RowBytes(tk, c.inType);
  int64_t panelB = c.transB ? tn * l1RowBytes(tk, c.inType) : tk * l1RowBytes(tn, c.inType);
  if (2 * (panelA + panelB) > l1) return over("L1", 2 * (panelA + panelB), l1);
  int64_t cBytes = tm * tn * dtypeSize(accumulatorOf(c.inType));
  if (cBytes > l0c) return over("L0C", cBytes, l0c);
  if (c.epilogue.any() && epilogueChunk(c, target, tm, tn) < 16)
    return "UB holds " + std::to_string(target.buffer(Space::UB).size) + " bytes; the epilogue needs a chunk of 16 columns";
  return "";
}

}  // namespace

MatmulSchedule matmulSchedule(const MatmulCompute& c, const Target& target, int64_t tm, int64_t tn, int64_t tk,
                              int blockDim, int maxCores, const SourceLocation& where) {
  auto fail = [&](const std::string& message) { scheduleError("matmul '" + c.name + "'", c.sourceLine, where, message); };
  const int c0 = c0Of(c.inType);
  if (tm < 16 || tm % 16 || tn < 16 || tn % 16 || tk < c0 || tk % c0) {
    fail("tile " + std::to_string(tm) + "x" + std::to_string(tn) + "x" + std::to_string(tk) +
         ": m and n must be multiples of 16, k of " + std::to_string(c0));
  }
  std::string problem = tileProblem(c, target, tm, tn, tk);
  if (!problem.empty()) fail("tile " + std::to_string(tm) + "x" + std::to_string(tn) + "x" + std::to_string(tk) + ": " + problem);
  int64_t tiles = ceilDiv(c.m, tm) * ceilDiv(c.n, tn) * c.batch;
  if (std::string coreProblem = coreCountProblem(blockDim, tiles, maxCores, "tiles"); !coreProblem.empty()) fail(coreProblem);
  int64_t cBytes = tm * tn * dtypeSize(accumulatorOf(c.inType));
  return MatmulSchedule{tm, tn, tk, 2 * cBytes <= target.buffer(Space::L0C).size ? 2 : 1, blockDim, 0};
}

MatmulSchedule scheduleMatmul(const MatmulCompute& c, const Target& target, int maxCores) {
  const int es = dtypeSize(c.inType);
  const int c0 = c0Of(c.inType);
  const int accBytes = dtypeSize(accumulatorOf(c.inType));
  const int64_t l1 = target.buffer(Space::L1).size, l0a = target.buffer(Space::L0A).size,
                l0b = target.buffer(Space::L0B).size, l0c = target.buffer(Space::L0C).size;
  MatmulSchedule best;
  double bestScore = -1;
  // run-time rows: one tile holds them all
  for (int64_t tm = c.dynamicRows ? roundUp(c.m, 16) : 16; tm <= std::min<int64_t>(512, roundUp(c.m, 16)); tm += 16) {
    for (int64_t tn = 16; tn <= std::min<int64_t>(512, roundUp(c.n, 16)); tn += 16) {
      for (int64_t tk = c0; tk <= std::min<int64_t>(512, roundUp(c.k, c0)); tk += c0) {
        if (!tileProblem(c, target, tm, tn, tk).empty()) continue;
        int64_t cBytes = tm * tn * accBytes;
        int buffers = 2 * cBytes <= l0c ? 2 : 1;
        // modelled cycles of one K step: the slowest of the overlapped pipes
        double mmad = double(tm) * tn * tk / (16.0 * 16 * c0) / cubeRate(target, c.inType) * (c0 / 16.0);
        // A's rows of tk and B's rows of tn (or tk when stored N×K), each a GM copy of whole lines
        double mte2 = gmCopyCycles(target, tm, tk * es, (c.k - tk) * es, DmaPath::GmToL1, maxCores) +
                      (c.transB ? gmCopyCycles(target, tn, tk * es, (c.k - tk) * es, DmaPath::GmToL1, maxCores)
                                : gmCopyCycles(target, tk, tn * es, (c.n - tn) * es, DmaPath::GmToL1, maxCores));
        double mte1 = double(tm * tk * es) / target.bw(DmaPath::L1ToL0A) + double(tk * tn * es) / target.bw(DmaPath::L1ToL0B);
        double step = std::max({mmad, mte2, mte1}) + target.cubeStartup;
        int64_t tiles = ceilDiv(c.m, tm) * ceilDiv(c.n, tn) * c.batch;
        int64_t steps = ceilDiv(c.k, tk);
        int cores = static_cast<int>(std::min<int64_t>(maxCores, tiles));
        double fix = double(tm * tn * dtypeSize(c.outType)) / target.bw(DmaPath::L0CToGm);
        double perTile = steps * step + (buffers == 2 ? 0 : fix);
        double total = ceilDiv(tiles, cores) * perTile + fix;
        double useful = double(c.m) * c.n * c.k * c.batch;
        double score = useful / total;
        if (score > bestScore * 1.0001) {
          bestScore = score;
          best = MatmulSchedule{tm, tn, tk, buffers, cores, step};
        }
      }
    }
  }
  if (bestScore < 0) {
    Diagnostic d;
    d.range.begin.line = c.sourceLine;
    d.message = "matmul '" + c.name + "': no tile fits L0A (" + std::to_string(l0a) + " bytes), L0B (" +
                std::to_string(l0b) + " bytes), L0C (" + std::to_string(l0c) + " bytes) and L1 (" +
                std::to_string(l1) + " bytes) for " + dtypeName(c.inType) + " inputs";
    throw CompileError(d);
  }
  return best;
}

namespace {

// One output tile's geometry, all static.
struct TileJob {
  int64_t batch, row, col;  // batch index, first output row and column
  int64_t rows, cols;       // valid rows/cols (≤ tm, tn)
};

class MatmulEmitter {
 public:
  MatmulEmitter(const MatmulCompute& c, const MatmulSchedule& s, KernelBuilder& b, const Target& target, int rowsReg)
      : c_(c), s_(s), b_(b), es_(dtypeSize(c.inType)), c0_(c0Of(c.inType)), rowsReg_(rowsReg) {
    int64_t panelA = s.tm * l1RowBytes(s.tk, c.inType);
    int64_t panelB = c.transB ? s.tn * l1RowBytes(s.tk, c.inType) : s.tk * l1RowBytes(s.tn, c.inType);
    for (int p = 0; p < 2; ++p) {
      l1A_[p] = p * (panelA + panelB);
      l1B_[p] = l1A_[p] + panelA;
      l0a_[p] = p * s.tm * s.tk * es_;
      l0b_[p] = p * s.tk * s.tn * es_;
    }
    cBytes_ = s.tm * s.tn * dtypeSize(accumulatorOf(c.inType));
    b.noteBufferBytes(Space::L1, 2 * (panelA + panelB));
    b.noteBufferBytes(Space::L0A, 2 * s.tm * s.tk * es_);
    b.noteBufferBytes(Space::L0B, 2 * s.tk * s.tn * es_);
    b.noteBufferBytes(Space::L0C, s.l0cBuffers * cBytes_);
    if (c.epilogue.any()) {
      // UB: the tile's float32 bias row (and the float16 one it is converted from), then one chunk
      // of every tile row: the float32 accumulator and the float16 result
      ubHalfBias_ = c.epilogue.bias ? localRowBytes(s.tn * 4) : 0;
      chunk_ = epilogueChunk(c, target, s.tm, s.tn);
      ubAcc_ = biasBytes(c, s.tn);
      ubOut_ = ubAcc_ + s.tm * chunk_ * 4;
      b.noteBufferBytes(Space::UB, ubOut_ + (c.outType == DType::Float16 ? s.tm * chunk_ * 2 : 0));
    }
  }

  // The epilogue's flags: the chunk buffer is free (MTE3→FIX) and the bias row is (V→MTE2).
  void prologue() {
    emitCubeFlagPrologue(b_, s_.l0cBuffers);
    if (!c_.epilogue.any()) return;
    b_.setFlag(Pipe::MTE3, Pipe::FIX, 0);
    if (c_.epilogue.bias) b_.setFlag(Pipe::V, Pipe::MTE2, 0);
  }
  void epilogue() {
    emitCubeFlagEpilogue(b_, s_.l0cBuffers);
    if (!c_.epilogue.any()) return;
    b_.waitFlag(Pipe::MTE3, Pipe::FIX, 0);
    if (c_.epilogue.bias) b_.waitFlag(Pipe::V, Pipe::MTE2, 0);
  }

  // Emits one output tile; `q` selects the L0C buffer.
  void tile(const TileJob& job, int q) {
    int64_t aOff = (job.batch * c_.m * c_.k + job.row * c_.k) * es_;
    int64_t bBatch = c_.batchB ? job.batch * c_.k * c_.n : 0;
    int64_t bOff = (bBatch + (c_.transB ? job.col * c_.k : job.col)) * es_;
    int regA = b_.allocReg(), regB = b_.allocReg();
    b_.aluImm(Opcode::Add, regA, KernelBuilder::argReg(0), aOff);
    b_.aluImm(Opcode::Add, regB, KernelBuilder::argReg(1), bOff);
    int64_t steps = ceilDiv(c_.k, s_.tk);
    int64_t kTail = c_.k - (steps - 1) * s_.tk;
    b_.waitFlag(Pipe::FIX, Pipe::M, q);
    // step 0 and the last step are static; the full steps between run in a loop of pairs
    auto stepAt = [&](int64_t index, int parity, int64_t kValid) {
      kStep(job, parity, kValid, index == 0, q, regA, regB);
      if (index + 1 < steps) advance(regA, regB);
    };
    stepAt(0, 0, steps == 1 ? kTail : s_.tk);
    int64_t middle = std::max<int64_t>(0, steps - 2);
    int64_t pairs = middle / 2;
    if (pairs > 0) {
      int counter = b_.allocReg(), limit = b_.allocReg();
      b_.li(counter, 0);
      b_.li(limit, pairs);
      int loop = b_.newLabel();
      b_.bind(loop);
      kStep(job, 1, s_.tk, false, q, regA, regB);
      advance(regA, regB);
      kStep(job, 0, s_.tk, false, q, regA, regB);
      advance(regA, regB);
      b_.aluImm(Opcode::Add, counter, counter, 1);
      b_.branch(Opcode::Blt, counter, limit, loop);
      b_.freeReg(counter);
      b_.freeReg(limit);
    }
    int64_t next = 1 + 2 * pairs;
    if (middle % 2 == 1) stepAt(next, static_cast<int>(next % 2), s_.tk);
    if (steps > 1) stepAt(steps - 1, static_cast<int>((steps - 1) % 2), kTail);
    b_.freeReg(regA);
    b_.freeReg(regB);
    // drain the accumulator
    b_.setFlag(Pipe::M, Pipe::FIX, q);
    b_.waitFlag(Pipe::M, Pipe::FIX, q);
    if (c_.epilogue.any()) {
      finish(job, q);
      b_.setFlag(Pipe::FIX, Pipe::M, q);
      return;
    }
    Instruction fix;
    fix.op = Opcode::FixL0CToGm;
    fix.type = accumulatorOf(c_.inType);
    fix.type2 = c_.outType;
    fix.dst = MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(2)),
                     (job.batch * c_.m * c_.n + job.row * c_.n + job.col) * dtypeSize(c_.outType)};
    fix.src0 = MemRef{Space::L0C, 0, q * cBytes_};
    fix.m = static_cast<uint16_t>(s_.tm);
    fix.n = static_cast<uint16_t>(s_.tn);
    fix.dstStride = static_cast<uint16_t>(c_.n);
    fix.validRows = static_cast<uint16_t>(job.rows);
    fix.validCols = static_cast<uint16_t>(job.cols);
    if (rowsReg_ >= 0) b_.fieldFromReg(isa::Field::ValidRows, rowsReg_);
    b_.emit(fix);
    b_.setFlag(Pipe::FIX, Pipe::M, q);
  }

 private:
  // The tile through UB, chunk by chunk: the fixpipe moves the accumulator's columns, the vector
  // unit adds the bias row (repeat stride 0) with the ReLU, or applies the ReLU, and converts a
  // float16 result; MTE3 writes the rows.
  void finish(const TileJob& job, int q) {
    const int os = dtypeSize(c_.outType);
    const bool half = c_.outType == DType::Float16;
    auto ub = [](int64_t at) { return MemRef{Space::UB, 0, at}; };
    if (c_.epilogue.bias) {  // once the vector unit is done with the last tile's
      const bool halfBias = c_.epilogue.biasType == DType::Float16;
      const int bs = dtypeSize(c_.epilogue.biasType);
      b_.waitFlag(Pipe::V, Pipe::MTE2, 0);
      emitCopyRows(b_, Opcode::CopyGmToUb, ub(halfBias ? ubHalfBias_ : 0),
                   MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(3)), job.col * bs}, 1, job.cols * bs);
      b_.setFlag(Pipe::MTE2, Pipe::V, 0);
      b_.waitFlag(Pipe::MTE2, Pipe::V, 0);
      if (halfBias) emitConvert(b_, 0, ubHalfBias_, DType::Float16, DType::Float32, job.cols);
    }
    for (int64_t j = 0; j < job.cols; j += chunk_) {
      const int64_t cols = std::min(chunk_, job.cols - j), pitch = roundUp(cols, 16);
      b_.waitFlag(Pipe::MTE3, Pipe::FIX, 0);
      if (rowsReg_ >= 0) b_.fieldFromReg(isa::Field::ValidRows, rowsReg_);
      b_.emit(fixColumnsToUb(q * cBytes_, s_.tm, j, cols, job.rows, ubAcc_));
      b_.setFlag(Pipe::FIX, Pipe::V, 0);
      b_.waitFlag(Pipe::FIX, Pipe::V, 0);
      auto vector = [&](Opcode op, int64_t dst, int64_t src0, int64_t src1, bool row, DType type2 = DType::Float32) {
        VectorOp v;
        v.op = op;
        v.type = DType::Float32;
        v.type2 = type2;
        v.dst = ub(dst);
        v.src0 = ub(src0);
        v.src1 = ub(src1);
        emitRows(b_, v, job.rows, cols, pitch, row, rowsReg_);
      };
      if (c_.epilogue.bias) {
        vector(c_.epilogue.relu ? Opcode::VAddRelu : Opcode::VAdd, ubAcc_, ubAcc_, j * 4, true);
      } else {
        vector(Opcode::VRelu, ubAcc_, ubAcc_, 0, false);
      }
      if (half) vector(Opcode::VConv, ubOut_, ubAcc_, 0, false, DType::Float16);
      b_.setFlag(Pipe::V, Pipe::MTE3, 0);
      b_.waitFlag(Pipe::V, Pipe::MTE3, 0);
      const MemRef to{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(2)),
                      (job.batch * c_.m * c_.n + job.row * c_.n + job.col + j) * os};
      const int64_t gap = (c_.n - cols) * os, localGap = (pitch * os - localRowBytes(cols * os)) / isa::kBlockBytes;
      if (rowsReg_ >= 0) {
        emitCopyRowsCounted(b_, Opcode::CopyUbToGm, to, ub(half ? ubOut_ : ubAcc_), rowsReg_, job.rows, cols * os, gap, localGap);
      } else {
        emitCopyRows(b_, Opcode::CopyUbToGm, to, ub(half ? ubOut_ : ubAcc_), job.rows, cols * os, gap, localGap);
      }
      b_.setFlag(Pipe::MTE3, Pipe::FIX, 0);
    }
    if (c_.epilogue.bias) b_.setFlag(Pipe::V, Pipe::MTE2, 0);
  }

  void advance(int regA, int regB) {
    b_.aluImm(Opcode::Add, regA, regA, s_.tk * es_);
    b_.aluImm(Opcode::Add, regB, regB, (c_.transB ? s_.tk : s_.tk * c_.n) * es_);
  }

  // GM rows → L1 panel: `rows` runs of `elems` elements of a row-major matrix with `rowStride`
  // elements per row; the panel rows are 32-byte padded.
  void loadPanel(int64_t l1Offset, int reg, int64_t rows, int64_t elems, int64_t rowStride) {
    emitCopyRows(b_, Opcode::CopyGmToL1, MemRef{Space::L1, 0, l1Offset}, MemRef{Space::GM, static_cast<uint8_t>(reg), 0},
                     rows, elems * es_, (rowStride - elems) * es_);
  }

  void kStep(const TileJob& job, int p, int64_t kValid, bool init, int q, int regA, int regB) {
    int64_t kPad = roundUp(kValid, c0_);
    b_.waitFlag(Pipe::MTE1, Pipe::MTE2, p);
    if (rowsReg_ >= 0) {
      emitCopyRowsCounted(b_, Opcode::CopyGmToL1, MemRef{Space::L1, 0, l1A_[p]}, MemRef{Space::GM, static_cast<uint8_t>(regA), 0},
                          rowsReg_, job.rows, kValid * es_, (c_.k - kValid) * es_);
    } else {
      loadPanel(l1A_[p], regA, job.rows, kValid, c_.k);
    }
    if (c_.transB) {
      loadPanel(l1B_[p], regB, job.cols, kValid, c_.k);
    } else {
      loadPanel(l1B_[p], regB, kValid, job.cols, c_.n);
    }
    b_.setFlag(Pipe::MTE2, Pipe::MTE1, p);
    b_.waitFlag(Pipe::MTE2, Pipe::MTE1, p);
    b_.waitFlag(Pipe::M, Pipe::MTE1, p);
    Instruction la;
    la.op = Opcode::LoadL0A;
    la.type = c_.inType;
    la.dst = MemRef{Space::L0A, 0, l0a_[p]};
    la.src0 = MemRef{Space::L1, 0, l1A_[p]};
    la.m = static_cast<uint16_t>(s_.tm);
    la.k = static_cast<uint16_t>(kPad);
    la.srcStride = static_cast<uint16_t>(l1RowBytes(kValid, c_.inType) / es_);
    la.validRows = static_cast<uint16_t>(job.rows);
    la.validCols = static_cast<uint16_t>(kValid);
    if (rowsReg_ >= 0) b_.fieldFromReg(isa::Field::ValidRows, rowsReg_);
    b_.emit(la);
    Instruction lb;
    lb.op = Opcode::LoadL0B;
    lb.type = c_.inType;
    lb.dst = MemRef{Space::L0B, 0, l0b_[p]};
    lb.src0 = MemRef{Space::L1, 0, l1B_[p]};
    lb.k = static_cast<uint16_t>(kPad);
    lb.n = static_cast<uint16_t>(s_.tn);
    lb.srcStride = static_cast<uint16_t>((c_.transB ? l1RowBytes(kValid, c_.inType) : l1RowBytes(job.cols, c_.inType)) / es_);
    lb.validRows = static_cast<uint16_t>(kValid);
    lb.validCols = static_cast<uint16_t>(job.cols);
    lb.mode = c_.transB ? 1 : 0;
    b_.emit(lb);
    b_.setFlag(Pipe::MTE1, Pipe::MTE2, p);
    b_.setFlag(Pipe::MTE1, Pipe::M, p);
    b_.waitFlag(Pipe::MTE1, Pipe::M, p);
    b_.emit(mmadInstruction(c_.inType, q * cBytes_, l0a_[p], l0b_[p], s_.tm, kPad, s_.tn, init));
    b_.setFlag(Pipe::M, Pipe::MTE1, p);
  }

  const MatmulCompute& c_;
  const MatmulSchedule& s_;
  KernelBuilder& b_;
  int es_, c0_;
  int64_t l1A_[2], l1B_[2], l0a_[2], l0b_[2];
  int64_t cBytes_ = 0;
  int64_t ubHalfBias_ = 0, chunk_ = 0, ubAcc_ = 0, ubOut_ = 0;
  int rowsReg_ = -1;  // dynamic rows: the register holding them
};

}  // namespace

KernelCode lowerMatmul(const MatmulCompute& c, const MatmulSchedule& s, const Target& target) {
  const int tensors = 3 + (c.epilogue.bias ? 1 : 0);
  KernelBuilder b(c.name, tensors + (c.dynamicRows ? 1 : 0));
  b.setSourceLine(c.sourceLine);
  if (c.dynamicRows && (c.batch != 1 || s.tm < c.m)) throw std::logic_error("lowerMatmul: run-time rows in more than one tile");
  std::vector<TileJob> jobs;
  for (int64_t bi = 0; bi < c.batch; ++bi)
    for (int64_t r = 0; r < c.m; r += s.tm)
      for (int64_t col = 0; col < c.n; col += s.tn)
        jobs.push_back(TileJob{bi, r, col, std::min(s.tm, c.m - r), std::min(s.tn, c.n - col)});
  MatmulEmitter emitter(c, s, b, target, c.dynamicRows ? KernelBuilder::argReg(tensors) : -1);
  emitter.prologue();
  int blockIdx = b.allocReg(), coreId = b.allocReg();
  b.blockIdx(blockIdx);
  int done = b.newLabel();
  size_t perCore = jobs.size() / s.blockDim, extra = jobs.size() % s.blockDim, next = 0;
  for (int core = 0; core < s.blockDim; ++core) {
    size_t count = perCore + (static_cast<size_t>(core) < extra ? 1 : 0);
    int skip = b.newLabel();
    b.li(coreId, core);
    b.branch(Opcode::Bne, blockIdx, coreId, skip);
    for (size_t j = 0; j < count; ++j) emitter.tile(jobs[next + j], static_cast<int>(j % s.l0cBuffers));
    b.jump(done);
    b.bind(skip);
    next += count;
  }
  b.bind(done);
  emitter.epilogue();
  return b.finish(s.blockDim);
}

}  // namespace pyasc::codegen
