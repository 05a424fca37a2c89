// Strided copies: DMA row batches through UB, vdup fills, vtranspose tiles or scalar element moves,
// inside runtime loops; one copy per kernel, or several between the same two tensors.
#include "codegen/lower/CopyKernel.h"

#include <algorithm>
#include <functional>

#include "codegen/isel/DmaIsel.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/lower/TilePipeline.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Pipe;
using isa::Space;

CopyCompute canonicalCopy(const CopyCompute& c) {
  CopyCompute r = c;
  r.shape.clear();
  r.srcStrides.clear();
  r.dstStrides.clear();
  for (size_t k = 0; k < c.shape.size(); ++k) {
    if (c.shape[k] == 1) continue;
    if (!r.shape.empty() && r.srcStrides.back() == c.srcStrides[k] * c.shape[k] &&
        r.dstStrides.back() == c.dstStrides[k] * c.shape[k]) {
      r.shape.back() *= c.shape[k];
      r.srcStrides.back() = c.srcStrides[k];
      r.dstStrides.back() = c.dstStrides[k];
      continue;
    }
    r.shape.push_back(c.shape[k]);
    r.srcStrides.push_back(c.srcStrides[k]);
    r.dstStrides.push_back(c.dstStrides[k]);
  }
  // a contiguous last dimension of extent 1 stays, so that rows of one element still move by DMA
  bool unitRows = !c.shape.empty() && c.shape.back() == 1 && c.srcStrides.back() == 1 && c.dstStrides.back() == 1;
  if (r.shape.empty() || (unitRows && (r.srcStrides.back() != 1 || r.dstStrides.back() != 1))) {
    r.shape.push_back(1);
    r.srcStrides.push_back(1);
    r.dstStrides.push_back(1);
  }
  return r;
}

namespace {

// Emits `body` inside runtime loops over dims [0, depth), moving the `src`/`dst` cursor registers
// by each dimension's strides (in bytes). Dimension 0 may be split over the cores.
void emitLoops(KernelBuilder& b, const CopyCompute& c, size_t depth, int blockDim, int src, int dst,
               const std::function<void()>& body) {
  const int es = dtypeSize(c.dtype), dstEs = dtypeSize(c.toType.value_or(c.dtype));
  std::function<void(size_t)> level = [&](size_t d) {
    if (d == depth) {
      body();
      return;
    }
    int64_t extent = c.shape[d];
    int counter = b.allocReg(), limit = b.allocReg();
    if (d == 0 && blockDim > 1) {
      // each core takes its share of indices; the cursors move to its first one
      int idx = b.allocReg(), first = b.allocReg(), tmp = b.allocReg();
      b.blockIdx(idx);
      emitCoreShare(b, idx, extent, blockDim, first, limit);
      b.aluImm(Opcode::Mul, tmp, first, c.srcStrides[0] * es);
      b.alu(Opcode::Add, src, src, tmp);
      b.aluImm(Opcode::Mul, tmp, first, c.dstStrides[0] * dstEs);
      b.alu(Opcode::Add, dst, dst, tmp);
      for (int reg : {idx, first, tmp}) b.freeReg(reg);
    } else {
      b.li(limit, extent);
    }
    b.li(counter, 0);
    int loop = b.newLabel(), done = b.newLabel();
    b.bind(loop);
    b.branch(Opcode::Bge, counter, limit, done);
    level(d + 1);
    b.aluImm(Opcode::Add, src, src, c.srcStrides[d] * es);
    b.aluImm(Opcode::Add, dst, dst, c.dstStrides[d] * dstEs);
    b.aluImm(Opcode::Add, counter, counter, 1);
    b.jump(loop);
    b.bind(done);
    // rewind the cursors for the enclosing level
    int tmp = b.allocReg();
    b.aluImm(Opcode::Mul, tmp, counter, -c.srcStrides[d] * es);
    b.alu(Opcode::Add, src, src, tmp);
    b.aluImm(Opcode::Mul, tmp, counter, -c.dstStrides[d] * dstEs);
    b.alu(Opcode::Add, dst, dst, tmp);
    b.freeReg(tmp);
    b.freeReg(counter);
    b.freeReg(limit);
  };
  level(0);
}

// How a canonical copy moves: a broadcast along the last axis (scalar read, vdup, DMA out),
// 2-D transposes of 16- or 32-bit elements through vtranspose, element moves through the scalar
// unit, or rows by DMA through UB (the dimension above them, when its gaps are non-negative,
// batching rows into one DMA of several bursts).
enum class CopyPath { Fill, Transpose, Scalar, Rows };

struct CopyPlan {
  CopyPath path = CopyPath::Rows;
  size_t loopDims = 0;  // leading dimensions iterated by runtime loops
  bool batch = false;   // Rows: dimension loopDims is batched into multi-burst DMAs
  int64_t half = 0;     // bytes of one of the two UB halves
  int64_t chunkElems = 0, rowsPerDma = 1;
  int64_t groups = 0;   // Transpose: a tile's input rows in units of 16 (16-bit) or 128 (32-bit)
  int sets = 2;         // Transpose: UB buffer sets in rotation
};

// Transposes smaller than this stay on the scalar unit.
constexpr int64_t kMinVectorTranspose = 512;

// A canonical copy whose second-to-last dimension reads contiguously and whose last one writes
// contiguously is a batch of 2-D transposes of R = shape[-1] input rows (pitch S = srcStrides[-1])
// by C = shape[-2] columns into C output rows (pitch D = dstStrides[-2]).
bool vectorTransposable(const CopyCompute& c) {
  const size_t rank = c.shape.size();
  const int es = dtypeSize(c.dtype);
  if (rank < 2 || c.toType || (es != 2 && es != 4)) return false;
  const int64_t rows = c.shape[rank - 1], cols = c.shape[rank - 2];
  return c.srcStrides[rank - 2] == 1 && c.dstStrides[rank - 1] == 1 && c.srcStrides[rank - 1] >= cols &&
         c.dstStrides[rank - 2] >= rows && rows * cols >= kMinVectorTranspose;
}

CopyPlan planCopy(const CopyCompute& c, const Target& target) {
  const int es = dtypeSize(c.dtype);
  const size_t rank = c.shape.size();
  CopyPlan p;
  if (vectorTransposable(c)) {
    // 16-bit: up to 8 groups of 16 rows (one vmov repeat of blocks); 32-bit: one group of 128,
    // measured fastest on [2048, 2048] (7467 cycles, against 7593 with two groups and 8004 with four)
    p.path = CopyPath::Transpose;
    p.loopDims = rank;
    const int64_t unit = es == 2 ? 16 : 128;
    p.groups = std::min<int64_t>(es == 2 ? 8 : 1, (c.shape[rank - 1] + unit - 1) / unit);
    // as many sets as UB holds, up to eight: each load then runs sets-1 tiles ahead of its
    // compute, hiding the DMA round trips of small tiles
    const int64_t setBytes = 2 * p.groups * unit * isa::kBlockBytes;
    p.sets = static_cast<int>(std::clamp<int64_t>(target.buffer(Space::UB).size / setBytes, 2, 8));
    return p;
  }
  if (c.srcStrides.back() == 0 && c.dstStrides.back() == 1 && !c.toType &&
      (c.dtype == DType::Float16 || c.dtype == DType::Float32 || c.dtype == DType::Int32)) {
    p.path = CopyPath::Fill;
    p.loopDims = rank - 1;
    p.half = target.buffer(Space::UB).size / 2 / isa::kRepeatBytes * isa::kRepeatBytes;
    p.chunkElems = std::min<int64_t>(c.shape.back(), p.half / es);
    return p;
  }
  if (c.srcStrides.back() != 1 || c.dstStrides.back() != 1 || c.toType) {
    p.path = CopyPath::Scalar;
    p.loopDims = rank;
    return p;
  }
  const int64_t rowElems = c.shape.back();
  p.half = target.buffer(Space::UB).size / 2 / isa::kBlockBytes * isa::kBlockBytes;
  p.chunkElems = std::min<int64_t>(rowElems, p.half / es / 256 * 256 > 0 ? p.half / es / 256 * 256 : rowElems);
  p.batch = rank >= 2 && c.srcStrides[rank - 2] >= rowElems && c.dstStrides[rank - 2] >= rowElems &&
            p.chunkElems == rowElems && (c.srcStrides[rank - 2] - rowElems) * es <= isa::kMaxBurstLen &&
            (c.dstStrides[rank - 2] - rowElems) * es <= isa::kMaxBurstLen;
  if (p.batch) p.rowsPerDma = std::min<int64_t>({c.shape[rank - 2], isa::kMaxNBurst, p.half / localRowBytes(rowElems * es)});
  p.loopDims = rank - 1 - (p.batch ? 1 : 0);
  return p;
}

// Tiles of a vector transpose: TR input rows by TC input columns (one 32-byte block of a row).
struct TransposeTiles {
  int64_t rows, cols, srcPitch, dstPitch;  // R, C, S, D (elements)
  int64_t tileRows, tileCols, blocks, strips, count;
};

TransposeTiles transposeTiles(const CopyCompute& c, const CopyPlan& p) {
  const size_t rank = c.shape.size();
  const int es = dtypeSize(c.dtype);
  TransposeTiles t;
  t.rows = c.shape[rank - 1];
  t.cols = c.shape[rank - 2];
  t.srcPitch = c.srcStrides[rank - 1];
  t.dstPitch = c.dstStrides[rank - 2];
  t.tileRows = p.groups * (es == 2 ? 16 : 128);
  t.tileCols = isa::kBlockBytes / es;
  t.blocks = (t.rows + t.tileRows - 1) / t.tileRows;
  t.strips = (t.cols + t.tileCols - 1) / t.tileCols;
  t.count = t.blocks * t.strips;
  for (size_t d = 0; d + 2 < rank; ++d) t.count *= c.shape[d];
  return t;
}

// Cores a copy can use: its outermost loop (a transpose's tiles) split over them, or one core
// when it has no loops.
int coresFor(const CopyCompute& c, const CopyPlan& p, int maxCores) {
  if (p.path == CopyPath::Transpose) return static_cast<int>(std::min<int64_t>(maxCores, transposeTiles(c, p).count));
  return p.loopDims > 0 ? static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(maxCores, c.shape[0]))) : 1;
}

// The vector transpose of a canonical copy (see vectorTransposable): tiles of TR rows × TC columns,
// TR = 16·groups (16-bit) or 128·groups (32-bit), in a multi-buffered tile pipeline whose tiles,
// split over the cores, run innermost over row blocks, then column strips, then the outer
// dimensions. Edge tiles move fewer rows or columns; the vector work is the same for every tile.
// Each tile's load runs sets-1 tiles ahead (CopyPlan::sets).
//
// 16-bit: rows land one 32-byte block each in A; vtranspose turns each 16×16 block into B block
// 16k + c (column c of rows 16k..16k+15); a vmov gathers them into A block c·groups + k, so that
// output row c leaves as one contiguous burst.
//
// 32-bit: an element is a pair of 16-bit halves h, a row block of 8 columns (c, h) in 16-bit
// lanes 2c + h. Row r = 128k + 8s + t loads into A block (8k + t)·16 + s; vtranspose puts lane
// (c, h) of A's 16 blocks s into B block (8k + t)·16 + 2c + h at lane s; a vmov permutes blocks to
// A block (c·groups + k)·16 + 2t + h; a second vtranspose leaves lanes (t, h) — the 8 elements of
// rows 128k + 8s .. 128k + 8s + 7 in column c — in B block (c·groups + k)·16 + s: output row c,
// contiguous.
void emitTranspose(KernelBuilder& b, const CopyCompute& c, const CopyPlan& p, int blockDim, int src, int dst) {
  const int es = dtypeSize(c.dtype);
  const bool wide = es == 4;
  const size_t rank = c.shape.size();
  const TransposeTiles t = transposeTiles(c, p);
  const int64_t m = p.groups, bufBytes = t.tileRows * isa::kBlockBytes, setBytes = 2 * bufBytes;
  b.noteBufferBytes(Space::UB, p.sets * setBytes);
  auto ub = [&](int set, int buffer, int64_t block) {
    return MemRef{Space::UB, 0, set * setBytes + buffer * bufBytes + block * isa::kBlockBytes};
  };
  // tile dimensions, innermost first: {extent, source bytes, destination bytes} per step
  struct Dim {
    int64_t extent, srcStep, dstStep;
  };
  std::vector<Dim> dims = {{t.blocks, t.tileRows * t.srcPitch * es, t.tileRows * es},
                           {t.strips, t.tileCols * es, t.tileCols * t.dstPitch * es}};
  for (size_t d = rank - 2; d-- > 0;) dims.push_back({c.shape[d], c.srcStrides[d] * es, c.dstStrides[d] * es});
  const int tile = b.allocReg();
  b.li(tile, 0);
  // the GM address of tile `tile` + ahead in `address`, its row block in `block`, its strip in `strip`
  auto locate = [&](int64_t ahead, bool source, int address, int block, int strip) {
    int rest = b.allocReg(), coord = b.allocReg();
    b.aluImm(Opcode::Add, rest, tile, ahead);
    b.alu(Opcode::Add, address, source ? src : dst, 0);
    for (size_t d = 0; d < dims.size(); ++d) {
      if (d + 1 < dims.size()) {
        b.aluImm(Opcode::Rem, coord, rest, dims[d].extent);
        b.aluImm(Opcode::Div, rest, rest, dims[d].extent);
      } else {
        b.alu(Opcode::Add, coord, rest, 0);
      }
      if (d == 0) b.alu(Opcode::Add, block, coord, 0);
      if (d == 1) b.alu(Opcode::Add, strip, coord, 0);
      b.aluImm(Opcode::Mul, coord, coord, source ? dims[d].srcStep : dims[d].dstStep);
      b.alu(Opcode::Add, address, address, coord);
    }
    b.freeReg(rest);
    b.freeReg(coord);
  };
  // emits `body(validRows, validCols)` for each tile size, branching on the tile's block and strip
  const int64_t lastRows = t.rows - (t.blocks - 1) * t.tileRows, lastCols = t.cols - (t.strips - 1) * t.tileCols;
  auto bySize = [&](int block, int strip, const std::function<void(int64_t, int64_t)>& body) {
    int lastBlock = b.allocReg(), lastStrip = b.allocReg(), done = b.newLabel();
    b.li(lastBlock, t.blocks - 1);
    b.li(lastStrip, t.strips - 1);
    for (bool edgeRows : {false, true}) {
      if (edgeRows && lastRows == t.tileRows) continue;
      for (bool edgeCols : {false, true}) {
        if (edgeCols && lastCols == t.tileCols) continue;
        int next = b.newLabel();
        if (lastRows != t.tileRows) b.branch(edgeRows ? Opcode::Bne : Opcode::Beq, block, lastBlock, next);
        if (lastCols != t.tileCols) b.branch(edgeCols ? Opcode::Bne : Opcode::Beq, strip, lastStrip, next);
        body(edgeRows ? lastRows : t.tileRows, edgeCols ? lastCols : t.tileCols);
        b.jump(done);
        b.bind(next);
      }
    }
    b.bind(done);
    b.freeReg(lastBlock);
    b.freeReg(lastStrip);
  };
  auto gmAt = [](int reg, int64_t offset) { return MemRef{Space::GM, static_cast<uint8_t>(reg), offset}; };
  auto vectorOp = [&](Opcode op, MemRef to, MemRef from, int64_t repeat, int dstBlk, int srcBlk, int64_t dstRep,
                      int64_t srcRep) {
    Instruction i;
    i.op = op;
    i.type = DType::Float16;  // 16-bit lanes: bits move unchanged
    i.dst = to;
    i.src0 = from;
    i.repeat = static_cast<uint16_t>(repeat);
    i.dstBlk = static_cast<uint8_t>(dstBlk);
    i.src0Blk = static_cast<uint8_t>(srcBlk);
    i.dstRep = static_cast<uint16_t>(dstRep);
    i.src0Rep = static_cast<uint16_t>(srcRep);
    b.emit(i);
  };
  TilePipeline pipe;
  pipe.fullTiles = t.count;
  pipe.sets = p.sets;
  pipe.blockDim = blockDim;
  pipe.load = [&](int set, bool, int ahead) {
    int address = b.allocReg(), block = b.allocReg(), strip = b.allocReg();
    locate(ahead, true, address, block, strip);
    bySize(block, strip, [&](int64_t rows, int64_t cols) {
      const int64_t rowBytes = cols * es, pitch = t.srcPitch * es;
      if (!wide) {
        emitCopyRows(b, Opcode::CopyGmToUb, ub(set, 0, 0), gmAt(address, 0), rows, rowBytes, pitch - rowBytes);
        return;
      }
      for (int64_t k = 0; k < m; ++k)
        for (int64_t r = 0; r < 8; ++r) {
          const int64_t first = 128 * k + r, n = first < rows ? std::min<int64_t>(16, (rows - first + 7) / 8) : 0;
          if (n > 0) {
            emitCopyRows(b, Opcode::CopyGmToUb, ub(set, 0, (8 * k + r) * 16), gmAt(address, first * pitch), n, rowBytes,
                         8 * pitch - rowBytes);
          }
        }
    });
    for (int reg : {address, block, strip}) b.freeReg(reg);
  };
  pipe.compute = [&](int set, bool) {
    b.setCounterMode(false);
    if (!wide) {
      vectorOp(Opcode::VTranspose, ub(set, 1, 0), ub(set, 0, 0), m, 1, 1, 16, 16);
      auto [lo, hi] = firstLanesMask(16 * m);
      b.setMask(lo, hi);
      vectorOp(Opcode::VMov, ub(set, 0, 0), ub(set, 1, 0), 16, 1, 16, m, 1);
      return;
    }
    vectorOp(Opcode::VTranspose, ub(set, 1, 0), ub(set, 0, 0), 8 * m, 1, 1, 16, 16);
    b.setFullMask();
    for (int64_t k = 0; k < m; ++k)
      for (int64_t h = 0; h < 2; ++h) vectorOp(Opcode::VMov, ub(set, 0, 16 * k + h), ub(set, 1, 128 * k + h), 8, 2, 16, 16 * m, 2);
    vectorOp(Opcode::VTranspose, ub(set, 1, 0), ub(set, 0, 0), 8 * m, 1, 1, 16, 16);
  };
  pipe.store = [&](int set, bool) {
    int address = b.allocReg(), block = b.allocReg(), strip = b.allocReg();
    locate(0, false, address, block, strip);
    bySize(block, strip, [&](int64_t rows, int64_t cols) {
      // output row pitch in UB: groups blocks (16-bit, in A) or 16·groups (32-bit, in B)
      const int64_t rowBytes = rows * es, pitchBlocks = wide ? 16 * m : m;
      emitCopyRows(b, Opcode::CopyUbToGm, gmAt(address, 0), ub(set, wide ? 1 : 0, 0), cols, rowBytes,
                   (t.dstPitch - rows) * es, pitchBlocks - localRowBytes(rowBytes) / isa::kBlockBytes);
    });
    for (int reg : {address, block, strip}) b.freeReg(reg);
  };
  pipe.advance = [&](int64_t tiles, int countReg) {
    if (countReg >= 0) {
      b.alu(Opcode::Add, tile, tile, countReg);
    } else {
      b.aluImm(Opcode::Add, tile, tile, tiles);
    }
  };
  emitTilePipeline(b, pipe);
  b.freeReg(tile);
}

// The instructions of one canonical copy from the cursors `src` to `dst` (byte addresses in GM,
// offsets already applied), its outermost loop split over `blockDim` cores. Self-contained: its
// flags are balanced, so copies can follow each other in one kernel.
void emitCopy(KernelBuilder& b, const CopyCompute& c, const CopyPlan& p, int blockDim, int src, int dst) {
  const int es = dtypeSize(c.dtype);
  const size_t rank = c.shape.size();
  auto gm = [](int reg, int64_t offset) { return MemRef{Space::GM, static_cast<uint8_t>(reg), offset}; };
  CopyCompute loops = c;
  loops.shape.resize(p.loopDims);
  if (p.path == CopyPath::Fill) {
    // broadcast along the last axis: each row is one source element, read by the scalar unit
    // and spread by vdup, then written out; UB is reused only after MTE3 has read it
    int64_t rowElems = c.shape.back();
    b.noteBufferBytes(Space::UB, localRowBytes(p.chunkElems * es));
    int value = b.allocReg();
    b.setFlag(Pipe::MTE3, Pipe::V, 0);
    emitLoops(b, loops, p.loopDims, blockDim, src, dst, [&] {
      Instruction ld;
      ld.op = Opcode::Ld;
      ld.type = c.dtype;
      ld.rd = static_cast<uint8_t>(value);
      ld.src0 = gm(src, 0);
      b.emit(ld);
      for (int64_t e0 = 0; e0 < rowElems; e0 += p.chunkElems) {
        int64_t n = std::min(p.chunkElems, rowElems - e0);
        b.waitFlag(Pipe::MTE3, Pipe::V, 0);
        VectorOp dup;
        dup.op = Opcode::VDup;
        dup.type = c.dtype;
        dup.dst = MemRef{Space::UB, 0, 0};
        dup.scalarReg = value;
        emitContiguous(b, dup, n);
        b.setFlag(Pipe::V, Pipe::MTE3, 0);
        b.waitFlag(Pipe::V, Pipe::MTE3, 0);
        emitCopyRows(b, Opcode::CopyUbToGm, gm(dst, e0 * es), MemRef{Space::UB, 0, 0}, 1, n * es);
        b.setFlag(Pipe::MTE3, Pipe::V, 0);
      }
    });
    b.waitFlag(Pipe::MTE3, Pipe::V, 0);
    b.freeReg(value);
    return;
  }
  if (p.path == CopyPath::Transpose) {
    emitTranspose(b, c, p, blockDim, src, dst);
    return;
  }
  if (p.path == CopyPath::Scalar) {
    // element moves through the scalar unit: every dimension is a loop
    int value = b.allocReg();
    emitLoops(b, loops, p.loopDims, blockDim, src, dst, [&] {
      Instruction ld;
      ld.op = Opcode::Ld;
      ld.type = c.dtype;
      ld.rd = static_cast<uint8_t>(value);
      ld.src0 = gm(src, 0);
      b.emit(ld);
      Instruction st;
      st.op = Opcode::St;
      st.type = c.toType.value_or(c.dtype);
      st.ra = static_cast<uint8_t>(value);
      st.dst = gm(dst, 0);
      b.emit(st);
    });
    b.freeReg(value);
    return;
  }
  int64_t rowElems = c.shape.back();
  b.noteBufferBytes(Space::UB, 2 * p.half);
  for (int set = 0; set < 2; ++set) b.setFlag(Pipe::MTE3, Pipe::MTE2, set);
  int parity = 0;
  auto moveOnce = [&](int64_t srcOff, int64_t dstOff, int64_t nrows, int64_t elems) {
    int set = parity;
    parity ^= 1;
    MemRef ub{Space::UB, 0, set * p.half};
    int64_t srcGap = nrows > 1 ? (c.srcStrides[rank - 2] - elems) * es : 0;
    int64_t dstGap = nrows > 1 ? (c.dstStrides[rank - 2] - elems) * es : 0;
    b.waitFlag(Pipe::MTE3, Pipe::MTE2, set);
    emitCopyRows(b, Opcode::CopyGmToUb, ub, gm(src, srcOff * es), nrows, elems * es, srcGap);
    b.setFlag(Pipe::MTE2, Pipe::MTE3, set);
    b.waitFlag(Pipe::MTE2, Pipe::MTE3, set);
    emitCopyRows(b, Opcode::CopyUbToGm, gm(dst, dstOff * es), ub, nrows, elems * es, dstGap);
    b.setFlag(Pipe::MTE3, Pipe::MTE2, set);
  };
  emitLoops(b, loops, p.loopDims, blockDim, src, dst, [&] {
    parity = 0;  // the loop body is one code path: it must start and end on the same set
    if (p.batch) {
      int64_t total = c.shape[rank - 2];
      for (int64_t r0 = 0; r0 < total; r0 += p.rowsPerDma)
        moveOnce(r0 * c.srcStrides[rank - 2], r0 * c.dstStrides[rank - 2], std::min(p.rowsPerDma, total - r0), rowElems);
    } else {
      for (int64_t e0 = 0; e0 < rowElems; e0 += p.chunkElems) moveOnce(e0, e0, 1, std::min(p.chunkElems, rowElems - e0));
    }
  });
  for (int set = 0; set < 2; ++set) b.waitFlag(Pipe::MTE3, Pipe::MTE2, set);
}

}  // namespace

namespace {

// A copy without loops that moves more than one DMA's worth, cut along the dimension its DMAs step
// over (its batched rows, or the elements of its one row) into pieces for up to `maxCores` cores.
std::vector<CopyCompute> splitForCores(const CopyCompute& c, const CopyPlan& p, int maxCores) {
  if (p.loopDims > 0 || p.path == CopyPath::Scalar || maxCores < 2) return {c};
  const size_t d = p.batch ? c.shape.size() - 2 : c.shape.size() - 1;
  const int64_t units = c.shape[d], perDma = p.batch ? p.rowsPerDma : p.chunkElems;
  const int64_t pieces = std::min<int64_t>(maxCores, (units + perDma - 1) / perDma);
  if (pieces < 2) return {c};
  std::vector<CopyCompute> out;
  for (int64_t k = 0; k < pieces; ++k) {
    const int64_t first = units * k / pieces, last = units * (k + 1) / pieces;
    CopyCompute piece = c;
    piece.shape[d] = last - first;
    piece.srcOffset += first * c.srcStrides[d];
    piece.dstOffset += first * c.dstStrides[d];
    out.push_back(piece);
  }
  return out;
}

// Emits copies from the GM addresses in `srcBase`/`dstBase` (each copy adds its own offsets) and
// returns the kernel's block_dim: copies with loops split their outermost loop over the cores,
// copies without loops (large ones cut first) go to the cores in turn. A lone copy moves the base
// registers themselves as its cursors.
int emitCopies(KernelBuilder& b, const std::vector<CopyCompute>& originals, const Target& target, int maxCores,
               int srcBase, int dstBase) {
  std::vector<CopyCompute> copies;
  std::vector<CopyPlan> plans;
  for (const CopyCompute& original : originals) {
    CopyCompute canonical = canonicalCopy(original);
    for (const CopyCompute& piece : splitForCores(canonical, planCopy(canonical, target), maxCores)) {
      copies.push_back(piece);
      plans.push_back(planCopy(piece, target));
    }
  }
  int64_t loopless = 0;
  int blockDim = 1;
  for (size_t k = 0; k < copies.size(); ++k) {
    blockDim = std::max(blockDim, coresFor(copies[k], plans[k], maxCores));
    loopless += plans[k].loopDims == 0 ? 1 : 0;
  }
  blockDim = static_cast<int>(std::max<int64_t>(blockDim, std::min<int64_t>(maxCores, loopless)));
  const bool lone = copies.size() == 1;
  int blockIdx = -1, core = -1, src = srcBase, dst = dstBase;
  if (!lone) {
    blockIdx = b.allocReg();
    core = b.allocReg();
    src = b.allocReg();
    dst = b.allocReg();
    b.blockIdx(blockIdx);
  }
  int64_t nextCore = 0;
  for (size_t k = 0; k < copies.size(); ++k) {
    const CopyCompute& c = copies[k];
    const int es = dtypeSize(c.dtype), dstEs = dtypeSize(c.toType.value_or(c.dtype));
    b.setSourceLine(c.sourceLine);
    // copies may write neighbouring bytes of one GM block through different pipes
    if (k > 0) b.barrier(Pipe::All);
    int skip = -1;
    if (plans[k].loopDims == 0 && blockDim > 1) {
      skip = b.newLabel();
      b.li(core, nextCore++ % blockDim);
      b.branch(Opcode::Bne, blockIdx, core, skip);
    }
    b.aluImm(Opcode::Add, src, srcBase, c.srcOffset * es);
    b.aluImm(Opcode::Add, dst, dstBase, c.dstOffset * dstEs);
    emitCopy(b, c, plans[k], plans[k].loopDims > 0 ? blockDim : 1, src, dst);
    if (skip >= 0) b.bind(skip);
  }
  return blockDim;
}

}  // namespace

KernelCode lowerCopy(const CopyCompute& c, const Target& target, int maxCores) {
  int scalarArgs = (c.srcOffsetArg ? 1 : 0) + (c.dstOffsetArg ? 1 : 0);
  KernelBuilder b(c.name, 2 + scalarArgs);
  b.setSourceLine(c.sourceLine);
  int src = KernelBuilder::argReg(0), dst = KernelBuilder::argReg(1);
  int nextArg = 2;
  if (c.srcOffsetArg) b.alu(Opcode::Add, src, src, KernelBuilder::argReg(nextArg++));
  if (c.dstOffsetArg) b.alu(Opcode::Add, dst, dst, KernelBuilder::argReg(nextArg++));
  int blockDim = emitCopies(b, {c}, target, maxCores, src, dst);
  return b.finish(blockDim);
}

KernelCode lowerCopies(const std::string& name, const std::vector<CopyCompute>& pieces, const Target& target,
                       int maxCores) {
  KernelBuilder b(name, 2);
  int blockDim = emitCopies(b, pieces, target, maxCores, KernelBuilder::argReg(0), KernelBuilder::argReg(1));
  return b.finish(blockDim);
}

}  // namespace pyasc::codegen
