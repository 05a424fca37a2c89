// Fused softmax and layer norm, all on the vector unit. Softmax: per row a max written as a whole
// block, a vsub broadcasting that block, one vexp over the tile, a sum per row, then a vmul by the
// broadcast reciprocal of the sum (softmax) or a vsub of its log (log-softmax). Layer norm: per row
// the mean, a vsub of it, the sum of squares (squared into a scratch tile), then a vmul by the
// reciprocal standard deviation, by gamma and a vadd of beta (both rows loaded once).
#include "codegen/lower/SoftmaxKernel.h"

#include <algorithm>
#include <sstream>

#include "codegen/isel/DmaIsel.h"
#include "codegen/lower/ScheduleCheck.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/lower/RowFold.h"
#include "codegen/lower/TilePipeline.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Pipe;
using isa::Space;

std::string SoftmaxSchedule::str() const {
  std::ostringstream os;
  os << "rows_per_tile=" << rowsPerTile << " block_dim=" << blockDim;
  return os.str();
}

namespace {

constexpr int64_t kMaxRowsPerTile = 64;  // bounds the per-row code of one tile

int outputArg(const SoftmaxCompute& c) { return c.kind == RowNorm::LayerNorm ? 3 : 1; }

// Two sets of rows, a scratch row (a scratch tile for layer norm), layer norm's gamma and beta
// rows, the reduction partials and a 32-byte statistics slot per row.
struct Layout {
  int64_t rowBytes, scratch, gamma, beta, partials, stats, setBytes;
};

Layout layoutOf(const SoftmaxCompute& c, int64_t rows) {
  Layout l;
  l.rowBytes = localRowBytes(c.cols * dtypeSize(c.dtype));
  l.setBytes = rows * l.rowBytes;
  l.scratch = 2 * l.setBytes;
  const bool layerNorm = c.kind == RowNorm::LayerNorm;
  l.gamma = l.scratch + (layerNorm ? l.setBytes : l.rowBytes);
  l.beta = l.gamma + (layerNorm ? l.rowBytes : 0);
  l.partials = l.beta + (layerNorm ? l.rowBytes : 0);
  // one repeat's worth, or every row's chunk partials when a tile's rows are reduced together
  const int64_t lanes = isa::kRepeatBytes / dtypeSize(c.dtype), chunks = (c.cols + lanes - 1) / lanes;
  l.stats = l.partials + std::max<int64_t>(isa::kRepeatBytes, localRowBytes(rows * chunks * dtypeSize(c.dtype)));
  return l;
}

int64_t ubBytes(const SoftmaxCompute& c, int64_t rows) {
  Layout l = layoutOf(c, rows);
  return l.stats + rows * isa::kBlockBytes;
}

}  // namespace

SoftmaxSchedule softmaxSchedule(const SoftmaxCompute& c, const Target& target, int64_t rows, int blockDim, int maxCores,
                                const SourceLocation& where) {
  auto fail = [&](const std::string& message) { scheduleError("softmax '" + c.name + "'", c.sourceLine, where, message); };
  int64_t ub = target.buffer(Space::UB).size;
  if (rows < 1 || rows > std::min<int64_t>(kMaxRowsPerTile, c.rows)) {
    fail(std::to_string(rows) + " rows per tile: 1 to " + std::to_string(std::min<int64_t>(kMaxRowsPerTile, c.rows)) +
         " are possible");
  }
  if (ubBytes(c, rows) > ub) {
    fail(std::to_string(rows) + " rows of " + std::to_string(c.cols) + " elements need " + std::to_string(ubBytes(c, rows)) +
         " bytes of UB, but UB holds " + std::to_string(ub) + " bytes");
  }
  int64_t tiles = c.rows / rows;
  if (std::string coreProblem = coreCountProblem(blockDim, tiles, maxCores, "full tiles"); !coreProblem.empty()) fail(coreProblem);
  return SoftmaxSchedule{rows, blockDim};
}

std::string rowKernelRefusal(const SoftmaxCompute& c, const Target& target) {
  const std::string rows = std::string(c.kind == RowNorm::LayerNorm ? "layer norm" : "softmax") + " rows of " +
                           std::to_string(c.cols) + " " + dtypeName(c.dtype) + " elements";
  if (c.kind == RowNorm::LayerNorm && c.cols * dtypeSize(c.dtype) > kMaxLayerNormRowBytes) {
    return rows + " are over " + std::to_string(kMaxLayerNormRowBytes) + " bytes, the longest the fused kernel takes";
  }
  if (c.cols < 1 || ubBytes(c, 1) > target.buffer(Space::UB).size) {
    return rows + " need " + std::to_string(ubBytes(c, 1)) + " bytes of UB, but UB holds " +
           std::to_string(target.buffer(Space::UB).size);
  }
  return "";
}

SoftmaxSchedule scheduleSoftmax(const SoftmaxCompute& c, const Target& target, int maxCores) {
  SoftmaxSchedule s;
  if (!rowKernelRefusal(c, target).empty()) return s;
  int64_t ub = target.buffer(Space::UB).size;
  // no more rows per tile than keep every core busy
  int64_t share = (c.rows + maxCores - 1) / std::max(1, maxCores);
  for (int64_t rows = std::min<int64_t>({kMaxRowsPerTile, c.rows, std::max<int64_t>(1, share)}); rows >= 1; --rows) {
    if (ubBytes(c, rows) <= ub) {
      s.rowsPerTile = rows;
      break;
    }
  }
  if (s.rowsPerTile > 0) {
    int64_t tiles = c.rows / s.rowsPerTile;
    s.blockDim = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(maxCores, tiles)));
  }
  return s;
}

namespace {

class SoftmaxEmitter {
 public:
  SoftmaxEmitter(const SoftmaxCompute& c, const SoftmaxSchedule& s, KernelBuilder& b)
      : c_(c), b_(b), es_(dtypeSize(c.dtype)), lanes_(isa::kRepeatBytes / es_), l_(layoutOf(c, s.rowsPerTile)) {
    b.noteBufferBytes(Space::UB, ubBytes(c, s.rowsPerTile));
  }

  int64_t row(int set, int64_t r) const { return set * l_.setBytes + r * l_.rowBytes; }
  int64_t stat(int64_t r) const { return l_.stats + r * isa::kBlockBytes; }

  void load(int set, int64_t rows, int64_t gmOffset) {
    emitCopyRows(b_, Opcode::CopyGmToUb, MemRef{Space::UB, 0, row(set, 0)},
                 MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(0)), gmOffset}, rows, c_.cols * es_);
  }

  void store(int set, int64_t rows) {
    emitCopyRows(b_, Opcode::CopyUbToGm, MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(outputArg(c_))), 0},
                 MemRef{Space::UB, 0, row(set, 0)}, rows, c_.cols * es_);
  }

  // Layer norm's gamma and beta, once per core, ahead of the first tile on the same MTE2 queue.
  void loadAffine() {
    for (auto [arg, offset] : {std::pair{1, l_.gamma}, std::pair{2, l_.beta}}) {
      emitCopyRows(b_, Opcode::CopyGmToUb, MemRef{Space::UB, 0, offset},
                   MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(arg)), 0}, 1, c_.cols * es_);
    }
  }

  void compute(int set, int64_t rows) {
    if (c_.kind == RowNorm::LayerNorm) return layerNorm(set, rows);
    tileReduce(Opcode::VMax, Opcode::VCMax, row(set, 0), rows);
    perRow(set, rows, Opcode::VSub);  // x − max
    if (c_.kind == RowNorm::LogSoftmax) {
      // Σ exp(x − max) per row on a scratch copy; the shifted rows stay for the result
      for (int64_t r = 0; r < rows; ++r) {
        unary(Opcode::VExp, l_.scratch, row(set, r), c_.cols);
        rowReduce(Opcode::VAdd, Opcode::VCAdd, l_.scratch, stat(r));
      }
      unary(Opcode::VLn, stat(0), stat(0), rows * isa::kBlockBytes / es_);
      perRow(set, rows, Opcode::VSub);  // (x − max) − log Σ
      return;
    }
    unary(Opcode::VExp, row(set, 0), row(set, 0), (rows - 1) * l_.rowBytes / es_ + c_.cols);
    tileReduce(Opcode::VAdd, Opcode::VCAdd, row(set, 0), rows);
    unary(Opcode::VRec, stat(0), stat(0), rows * isa::kBlockBytes / es_);
    perRow(set, rows, Opcode::VMul);  // e · (1 / Σ e): one reciprocal per row, not a division per element
  }

 private:
  void layerNorm(int set, int64_t rows) {
    const int64_t slots = rows * isa::kBlockBytes / es_;  // every row's statistics slot
    const double invCols = 1.0 / static_cast<double>(c_.cols);
    tileReduce(Opcode::VAdd, Opcode::VCAdd, row(set, 0), rows);
    scalarOp(Opcode::VMuls, stat(0), slots, invCols);  // mean
    perRow(set, rows, Opcode::VSub);                    // x − mean
    VectorOp square;
    square.op = Opcode::VMul;
    square.type = c_.dtype;
    square.dst = MemRef{Space::UB, 0, l_.scratch};
    square.src0 = square.src1 = MemRef{Space::UB, 0, row(set, 0)};
    emitContiguous(b_, square, (rows - 1) * l_.rowBytes / es_ + c_.cols);
    tileReduce(Opcode::VAdd, Opcode::VCAdd, l_.scratch, rows);  // Σ (x − mean)²
    scalarOp(Opcode::VMuls, stat(0), slots, invCols);
    scalarOp(Opcode::VAdds, stat(0), slots, c_.epsilon);
    unary(Opcode::VSqrt, stat(0), stat(0), slots);
    unary(Opcode::VRec, stat(0), stat(0), slots);
    perRow(set, rows, Opcode::VMul);  // (x − mean) / σ
    for (int64_t r = 0; r < rows; ++r) {
      for (auto [op, affine] : {std::pair{Opcode::VMul, l_.gamma}, std::pair{Opcode::VAdd, l_.beta}}) {
        VectorOp v;
        v.op = op;
        v.type = c_.dtype;
        v.dst = v.src0 = MemRef{Space::UB, 0, row(set, r)};
        v.src1 = MemRef{Space::UB, 0, affine};
        emitContiguous(b_, v, c_.cols);
      }
    }
  }

  // x ⊕= constant over `count` elements at `offset`.
  void scalarOp(Opcode op, int64_t offset, int64_t count, double value) {
    VectorOp v;
    v.op = op;
    v.type = c_.dtype;
    v.dst = v.src0 = MemRef{Space::UB, 0, offset};
    v.scalarIsImm = true;
    v.scalarBits = scalarBitsOf(value, c_.dtype);
    emitContiguous(b_, v, count);
  }

  void unary(Opcode op, int64_t dst, int64_t src, int64_t count) {
    VectorOp u;
    u.op = op;
    u.type = c_.dtype;
    u.dst = MemRef{Space::UB, 0, dst};
    u.src0 = MemRef{Space::UB, 0, src};
    emitContiguous(b_, u, count);
  }

  // Every row's max or sum (of the tile at `base`) into its statistics slot. Rows of whole repeats whose partials stay
  // 32-byte aligned are reduced together: one lane reduction per chunk of all the rows (as many rows
  // per instruction as 255 repeats hold), then per row one over its partials, repeated to fill the
  // slot; other rows one at a time.
  void tileReduce(Opcode combine, Opcode laneReduce, int64_t base, int64_t rows) {
    const int64_t chunks = (c_.cols + lanes_ - 1) / lanes_, perBlock = isa::kBlockBytes / es_;
    const bool together = chunks > 1 && chunks <= lanes_ && c_.cols % lanes_ == 0 && (chunks * es_) % isa::kBlockBytes == 0;
    if (!together) {
      for (int64_t r = 0; r < rows; ++r) rowReduce(combine, laneReduce, base + r * l_.rowBytes, stat(r));
      return;
    }
    b_.setCounterMode(false);
    b_.setFullMask();
    const int64_t rowsPerInstruction = isa::kMaxRepeat / chunks;
    for (int64_t r0 = 0; r0 < rows; r0 += rowsPerInstruction) {
      Instruction red = laneReduction(laneReduce, partials() + r0 * chunks * es_, base + r0 * l_.rowBytes,
                                      std::min(rowsPerInstruction, rows - r0) * chunks);
      red.src0Rep = isa::kRepeatBytes / isa::kBlockBytes;
      b_.emit(red);
    }
    auto [lo, hi] = firstLanesMask(chunks);
    b_.setMask(lo, hi);
    for (int64_t r = 0; r < rows; ++r) emitLaneReduce(laneReduce, stat(r), partials() + r * chunks * es_, perBlock);
  }

  Instruction laneReduction(Opcode op, int64_t dst, int64_t src, int64_t repeats) const {
    Instruction red;
    red.op = op;
    red.type = c_.dtype;
    red.dst = MemRef{Space::UB, 0, dst};
    red.src0 = MemRef{Space::UB, 0, src};
    red.repeat = static_cast<uint16_t>(repeats);
    red.dstRep = 1;
    return red;
  }

  // The row's max or sum into its 32-byte statistics slot: one lane reduction per repeat into the
  // partials (after pairwise folds when there would be more than one repeat of them), then one
  // over the partials.
  void rowReduce(Opcode combine, Opcode laneReduce, int64_t rowOffset, int64_t statOffset) {
    const int64_t perBlock = isa::kBlockBytes / es_;
    int64_t n = c_.cols, src = rowOffset;
    if (n > lanes_ * lanes_) {  // more partials than one repeat holds: fold first
      n = foldRow(b_, combine, c_.dtype, rowOffset, l_.scratch, c_.cols, lanes_ * lanes_);
      src = l_.scratch;
    }
    if (n > lanes_) {
      b_.setCounterMode(true);
      b_.setMask(static_cast<uint64_t>(n), 0);
      emitLaneReduce(laneReduce, partials(), src, 1);
      src = partials();
      n = (n + lanes_ - 1) / lanes_;
    }
    // the last reduction re-reads its source once per lane of a block, so that the statistic
    // fills its whole 32-byte slot and later instructions can broadcast the block
    b_.setCounterMode(false);
    auto [lo, hi] = firstLanesMask(n);
    b_.setMask(lo, hi);
    emitLaneReduce(laneReduce, statOffset, src, perBlock);
  }

  // One value per repeat at consecutive elements of `dst`; with `copies` > 1 (normal mask mode)
  // the same source is reduced that many times.
  void emitLaneReduce(Opcode op, int64_t dst, int64_t src, int64_t copies) {
    Instruction red = laneReduction(op, dst, src, copies);
    if (copies > 1) red.src0Rep = 0;
    b_.emit(red);
  }


  // row ⊕= its statistic, broadcast from the row's 32-byte slot.
  void perRow(int set, int64_t rows, Opcode op) {
    for (int64_t r = 0; r < rows; ++r) {
      VectorOp v;
      v.op = op;
      v.type = c_.dtype;
      v.dst = v.src0 = MemRef{Space::UB, 0, row(set, r)};
      v.src1 = MemRef{Space::UB, 0, stat(r)};
      v.src1Broadcast = true;
      emitContiguous(b_, v, c_.cols);
    }
  }

  int64_t partials() const { return l_.partials; }

  const SoftmaxCompute& c_;
  KernelBuilder& b_;
  int es_, lanes_;
  Layout l_;
};

}  // namespace

KernelCode lowerSoftmax(const SoftmaxCompute& c, const SoftmaxSchedule& s, const Target& target) {
  KernelBuilder b(c.name, outputArg(c) + 1);
  b.setSourceLine(c.sourceLine);
  SoftmaxEmitter e(c, s, b);
  if (c.kind == RowNorm::LayerNorm) e.loadAffine();
  int64_t tailRows = c.rows % s.rowsPerTile;
  auto rows = [&](bool tail) { return tail ? tailRows : s.rowsPerTile; };
  int64_t tileBytes = s.rowsPerTile * c.cols * dtypeSize(c.dtype);
  TilePipeline p;
  p.fullTiles = c.rows / s.rowsPerTile;
  p.hasTail = tailRows > 0;
  p.sets = 2;
  p.blockDim = s.blockDim;
  p.load = [&](int set, bool tail, int ahead) { e.load(set, rows(tail), ahead * tileBytes); };
  p.compute = [&](int set, bool tail) { e.compute(set, rows(tail)); };
  p.store = [&](int set, bool tail) { e.store(set, rows(tail)); };
  p.advance = [&](int64_t tiles, int countReg) {
    advanceCursor(b, KernelBuilder::argReg(0), tileBytes, tiles, countReg);
    advanceCursor(b, KernelBuilder::argReg(outputArg(c)), tileBytes, tiles, countReg);
  };
  emitTilePipeline(b, p);
  return b.finish(s.blockDim);
}

}  // namespace pyasc::codegen
