// Strided copies: DMA row batches through UB, vdup fills, or scalar element moves, inside runtime
// loops; one copy per kernel, or several between the same two tensors.
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
      Instruction get;
      get.op = Opcode::GetBlockIdx;
      get.rd = static_cast<uint8_t>(idx);
      b.emit(get);
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
// element moves through the scalar unit, or rows by DMA through UB (the dimension above them,
// when its gaps are non-negative, batching rows into one DMA of several bursts).
enum class CopyPath { Fill, Scalar, Rows };

struct CopyPlan {
  CopyPath path = CopyPath::Rows;
  size_t loopDims = 0;  // leading dimensions iterated by runtime loops
  bool batch = false;   // Rows: dimension loopDims is batched into multi-burst DMAs
  int64_t half = 0;     // bytes of one of the two UB halves
  int64_t chunkElems = 0, rowsPerDma = 1;
};

CopyPlan planCopy(const CopyCompute& c, const Target& target) {
  const int es = dtypeSize(c.dtype);
  const size_t rank = c.shape.size();
  CopyPlan p;
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

// Cores a copy can use: its outermost loop split over them, or one core when it has no loops.
int coresFor(const CopyCompute& c, const CopyPlan& p, int maxCores) {
  return p.loopDims > 0 ? static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(maxCores, c.shape[0]))) : 1;
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
    Instruction get;
    get.op = Opcode::GetBlockIdx;
    get.rd = static_cast<uint8_t>(blockIdx);
    b.emit(get);
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
