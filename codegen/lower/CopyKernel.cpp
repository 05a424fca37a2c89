// Strided copies: DMA row batches through UB, or scalar element moves, inside runtime loops.
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
  if (r.shape.empty()) {
    r.shape = {1};
    r.srcStrides = {1};
    r.dstStrides = {1};
  }
  return r;
}

namespace {

// Emits `body` inside runtime loops over dims [0, depth), moving the src/dst cursor registers
// by each dimension's strides (in bytes). Dimension 0 may be split over the cores.
void emitLoops(KernelBuilder& b, const CopyCompute& c, size_t depth, int es, int blockDim,
               const std::function<void()>& body) {
  int src = KernelBuilder::argReg(0), dst = KernelBuilder::argReg(1);
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
      b.aluImm(Opcode::Mul, tmp, first, c.dstStrides[0] * es);
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
    b.aluImm(Opcode::Add, dst, dst, c.dstStrides[d] * es);
    b.aluImm(Opcode::Add, counter, counter, 1);
    b.jump(loop);
    b.bind(done);
    // rewind the cursors for the enclosing level
    int tmp = b.allocReg();
    b.aluImm(Opcode::Mul, tmp, counter, -c.srcStrides[d] * es);
    b.alu(Opcode::Add, src, src, tmp);
    b.aluImm(Opcode::Mul, tmp, counter, -c.dstStrides[d] * es);
    b.alu(Opcode::Add, dst, dst, tmp);
    b.freeReg(tmp);
    b.freeReg(counter);
    b.freeReg(limit);
  };
  level(0);
}

}  // namespace

KernelCode lowerCopy(const CopyCompute& original, const Target& target, int maxCores) {
  CopyCompute c = canonicalCopy(original);
  const int es = dtypeSize(c.dtype);
  int scalarArgs = (c.srcOffsetArg ? 1 : 0) + (c.dstOffsetArg ? 1 : 0);
  KernelBuilder b(c.name, 2 + scalarArgs);
  b.setSourceLine(c.sourceLine);
  int nextArg = 2;
  if (c.srcOffsetArg) b.alu(Opcode::Add, KernelBuilder::argReg(0), KernelBuilder::argReg(0), KernelBuilder::argReg(nextArg++));
  if (c.dstOffsetArg) b.alu(Opcode::Add, KernelBuilder::argReg(1), KernelBuilder::argReg(1), KernelBuilder::argReg(nextArg++));
  b.aluImm(Opcode::Add, KernelBuilder::argReg(0), KernelBuilder::argReg(0), c.srcOffset * es);
  b.aluImm(Opcode::Add, KernelBuilder::argReg(1), KernelBuilder::argReg(1), c.dstOffset * es);
  size_t rank = c.shape.size();
  bool rows = c.srcStrides.back() == 1 && c.dstStrides.back() == 1;
  bool fill = c.srcStrides.back() == 0 && c.dstStrides.back() == 1 &&
              (c.dtype == DType::Float16 || c.dtype == DType::Float32 || c.dtype == DType::Int32);
  if (fill) {
    // broadcast along the last axis: each row is one source element, read by the scalar unit
    // and spread by vdup, then written out; UB is reused only after MTE3 has read it
    int64_t half = target.buffer(Space::UB).size / 2 / isa::kRepeatBytes * isa::kRepeatBytes;
    int64_t rowElems = c.shape.back(), chunk = std::min<int64_t>(rowElems, half / es);
    CopyCompute loops = c;
    loops.shape.pop_back();
    int blockDim = rank > 1 ? static_cast<int>(std::min<int64_t>(maxCores, c.shape[0])) : 1;
    b.noteBufferBytes(Space::UB, (chunk * es + isa::kBlockBytes - 1) / isa::kBlockBytes * isa::kBlockBytes);
    int value = b.allocReg();
    b.setFlag(Pipe::MTE3, Pipe::V, 0);
    emitLoops(b, loops, rank - 1, es, blockDim, [&] {
      Instruction ld;
      ld.op = Opcode::Ld;
      ld.type = c.dtype;
      ld.rd = static_cast<uint8_t>(value);
      ld.src0 = MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(0)), 0};
      b.emit(ld);
      for (int64_t e0 = 0; e0 < rowElems; e0 += chunk) {
        int64_t n = std::min(chunk, rowElems - e0);
        b.waitFlag(Pipe::MTE3, Pipe::V, 0);
        VectorOp dup;
        dup.op = Opcode::VDup;
        dup.type = c.dtype;
        dup.dst = MemRef{Space::UB, 0, 0};
        dup.scalarReg = value;
        emitContiguous(b, dup, n);
        b.setFlag(Pipe::V, Pipe::MTE3, 0);
        b.waitFlag(Pipe::V, Pipe::MTE3, 0);
        emitCopyRows(b, Opcode::CopyUbToGm, MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(1)), e0 * es},
                     MemRef{Space::UB, 0, 0}, 1, n * es);
        b.setFlag(Pipe::MTE3, Pipe::V, 0);
      }
    });
    b.waitFlag(Pipe::MTE3, Pipe::V, 0);
    return b.finish(blockDim);
  }
  if (!rows) {
    // element moves through the scalar unit: every dimension is a loop
    int blockDim = static_cast<int>(std::min<int64_t>(maxCores, c.shape[0]));
    int value = b.allocReg();
    emitLoops(b, c, rank, es, blockDim, [&] {
      Instruction ld;
      ld.op = Opcode::Ld;
      ld.type = c.dtype;
      ld.rd = static_cast<uint8_t>(value);
      ld.src0 = MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(0)), 0};
      b.emit(ld);
      Instruction st;
      st.op = Opcode::St;
      st.type = c.dtype;
      st.ra = static_cast<uint8_t>(value);
      st.dst = MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(1)), 0};
      b.emit(st);
    });
    return b.finish(blockDim);
  }
  // rows of `rowElems` contiguous elements; the next dimension, when its gaps are non-negative,
  // batches rows into one DMA of several bursts
  int64_t rowElems = c.shape.back();
  int64_t half = target.buffer(Space::UB).size / 2 / isa::kBlockBytes * isa::kBlockBytes;
  int64_t chunkElems = std::min<int64_t>(rowElems, half / es / 256 * 256 > 0 ? half / es / 256 * 256 : rowElems);
  bool batch = rank >= 2 && c.srcStrides[rank - 2] >= rowElems && c.dstStrides[rank - 2] >= rowElems &&
               chunkElems == rowElems && (c.srcStrides[rank - 2] - rowElems) * es <= isa::kMaxBurstLen &&
               (c.dstStrides[rank - 2] - rowElems) * es <= isa::kMaxBurstLen;
  int64_t rowsPerDma = 1;
  if (batch) rowsPerDma = std::min<int64_t>({c.shape[rank - 2], isa::kMaxNBurst, half / localRowBytes(rowElems * es)});
  size_t loopDims = rank - 1 - (batch ? 1 : 0);
  // iteration space of the loops: outer dims, then (batched rows in chunks) handled statically
  CopyCompute loops = c;
  loops.shape.resize(loopDims);
  int blockDim = loopDims > 0 ? static_cast<int>(std::min<int64_t>(maxCores, c.shape[0])) : 1;
  b.noteBufferBytes(Space::UB, 2 * half);
  for (int set = 0; set < 2; ++set) b.setFlag(Pipe::MTE3, Pipe::MTE2, set);
  int parity = 0;
  auto moveOnce = [&](int64_t srcOff, int64_t dstOff, int64_t nrows, int64_t elems) {
    int set = parity;
    parity ^= 1;
    MemRef ub{Space::UB, 0, set * half};
    MemRef src{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(0)), srcOff * es};
    MemRef dst{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(1)), dstOff * es};
    int64_t srcGap = nrows > 1 ? (c.srcStrides[rank - 2] - elems) * es : 0;
    int64_t dstGap = nrows > 1 ? (c.dstStrides[rank - 2] - elems) * es : 0;
    b.waitFlag(Pipe::MTE3, Pipe::MTE2, set);
    emitCopyRows(b, Opcode::CopyGmToUb, ub, src, nrows, elems * es, srcGap);
    b.setFlag(Pipe::MTE2, Pipe::MTE3, set);
    b.waitFlag(Pipe::MTE2, Pipe::MTE3, set);
    emitCopyRows(b, Opcode::CopyUbToGm, dst, ub, nrows, elems * es, dstGap);
    b.setFlag(Pipe::MTE3, Pipe::MTE2, set);
  };
  emitLoops(b, loops, loopDims, es, blockDim, [&] {
    parity = 0;  // the loop body is one code path: it must start and end on the same set
    if (batch) {
      int64_t total = c.shape[rank - 2];
      for (int64_t r0 = 0; r0 < total; r0 += rowsPerDma)
        moveOnce(r0 * c.srcStrides[rank - 2], r0 * c.dstStrides[rank - 2], std::min(rowsPerDma, total - r0), rowElems);
    } else {
      for (int64_t e0 = 0; e0 < rowElems; e0 += chunkElems) moveOnce(e0, e0, 1, std::min(chunkElems, rowElems - e0));
    }
  });
  for (int set = 0; set < 2; ++set) b.waitFlag(Pipe::MTE3, Pipe::MTE2, set);
  return b.finish(blockDim);
}

}  // namespace pyasc::codegen
