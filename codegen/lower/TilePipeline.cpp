// Tile pipeline emission: core k runs q + (k < r) tiles, from k*q + min(k, r) on, or every
// blockDim-th from k when interleaved; with n buffer sets each tile's load is issued n-1 tiles
// ahead of its compute.
#include "codegen/lower/TilePipeline.h"

namespace pyasc::codegen {

using isa::Opcode;
using isa::Pipe;

void emitCoreShare(KernelBuilder& b, int blockIdx, int64_t total, int blockDim, int firstReg, int countReg) {
  int64_t q = total / blockDim, r = total % blockDim;
  int tmp = b.allocReg();
  b.aluImm(Opcode::Mul, firstReg, blockIdx, q);
  b.aluImm(Opcode::Min, tmp, blockIdx, r);
  b.alu(Opcode::Add, firstReg, firstReg, tmp);
  b.li(countReg, q);
  b.li(tmp, r);
  int noExtra = b.newLabel();
  b.branch(Opcode::Bge, blockIdx, tmp, noExtra);
  b.aluImm(Opcode::Add, countReg, countReg, 1);
  b.bind(noExtra);
  b.freeReg(tmp);
}

void emitCoreShare(KernelBuilder& b, int blockIdx, int totalReg, int blockDim, int firstReg, int countReg) {
  int q = b.allocReg(), r = b.allocReg(), tmp = b.allocReg();
  b.aluImm(Opcode::Div, q, totalReg, blockDim);
  b.aluImm(Opcode::Mul, r, q, blockDim);
  b.alu(Opcode::Sub, r, totalReg, r);
  b.alu(Opcode::Mul, firstReg, blockIdx, q);
  b.alu(Opcode::Min, tmp, blockIdx, r);
  b.alu(Opcode::Add, firstReg, firstReg, tmp);
  b.aluImm(Opcode::Add, countReg, q, 0);
  int noExtra = b.newLabel();
  b.branch(Opcode::Bge, blockIdx, r, noExtra);
  b.aluImm(Opcode::Add, countReg, countReg, 1);
  b.bind(noExtra);
  for (int reg : {q, r, tmp}) b.freeReg(reg);
}

void advanceCursor(KernelBuilder& b, int reg, int64_t stepBytes, int64_t tiles, int countReg) {
  if (countReg < 0) {
    b.aluImm(Opcode::Add, reg, reg, tiles * stepBytes);
    return;
  }
  int t = b.allocReg();
  b.aluImm(Opcode::Mul, t, countReg, stepBytes);
  b.alu(Opcode::Add, reg, reg, t);
  b.freeReg(t);
}

namespace {

void loadTile(KernelBuilder& b, const TilePipeline& p, int set, bool tail, int ahead) {
  b.waitFlag(Pipe::MTE3, Pipe::MTE2, set);
  p.load(set, tail, ahead);
  b.setFlag(Pipe::MTE2, Pipe::V, set);
}

void computeAndStoreTile(KernelBuilder& b, const TilePipeline& p, int set, bool tail) {
  b.waitFlag(Pipe::MTE2, Pipe::V, set);
  p.compute(set, tail);
  b.setFlag(Pipe::V, Pipe::MTE3, set);
  b.waitFlag(Pipe::V, Pipe::MTE3, set);
  p.store(set, tail);
  b.setFlag(Pipe::MTE3, Pipe::MTE2, set);
}

}  // namespace

void emitTilePipeline(KernelBuilder& b, const TilePipeline& p) {
  for (int set = 0; set < p.sets; ++set) b.setFlag(Pipe::MTE3, Pipe::MTE2, set);
  int blockIdx = b.allocReg();
  b.blockIdx(blockIdx);
  if (p.fullTilesReg >= 0 || p.fullTiles > 0) {
    int first = b.allocReg(), count = b.allocReg(), tmp = b.allocReg(), iter = b.allocReg();
    if (p.fullTilesReg >= 0) {
      emitCoreShare(b, blockIdx, p.fullTilesReg, p.blockDim, first, count);
    } else {
      emitCoreShare(b, blockIdx, p.fullTiles, p.blockDim, first, count);
    }
    if (p.interleaved) b.aluImm(Opcode::Add, first, blockIdx, 0);  // same count; first tile k
    p.advance(0, first);
    b.li(iter, 0);
    int loop = b.newLabel(), done = b.newLabel();
    // software pipelining: with n buffer sets, tile i+n-1 is loaded before tile i is computed, so
    // that n-1 loads are in flight while a set's store completes
    const int depth = p.sets - 1;
    for (int k = 0; k < depth; ++k) {
      int none = b.newLabel();
      if (k == 0) {
        b.branch(Opcode::Bge, iter, count, none);
      } else {
        b.aluImm(Opcode::Add, tmp, iter, k);
        b.branch(Opcode::Bge, tmp, count, none);
      }
      loadTile(b, p, k, false, k);
      b.bind(none);
    }
    b.bind(loop);
    for (int set = 0; set < p.sets; ++set) {
      b.branch(Opcode::Bge, iter, count, done);
      if (depth > 0) {
        int noNext = b.newLabel();
        b.aluImm(Opcode::Add, tmp, iter, depth);
        b.branch(Opcode::Bge, tmp, count, noNext);
        loadTile(b, p, (set + depth) % p.sets, false, depth);
        b.bind(noNext);
      } else {
        loadTile(b, p, set, false, 0);
      }
      computeAndStoreTile(b, p, set, false);
      p.advance(coreStride(p), -1);
      b.aluImm(Opcode::Add, iter, iter, 1);
    }
    b.jump(loop);
    b.bind(done);
    for (int reg : {first, count, tmp, iter}) b.freeReg(reg);
  }
  if (p.tailReg >= 0) {
    // the same at run time: the tail's core and its buffer set come from the full tile count, and
    // the set picks one of `sets` copies of the tail's code (flags name their events as immediates)
    int last = b.allocReg(), set = b.allocReg();
    int skip = b.newLabel();
    b.branch(Opcode::Bge, 0, p.tailReg, skip);  // x0: no tail
    if (p.interleaved) {
      b.aluImm(Opcode::Div, set, p.fullTilesReg, p.blockDim);
      b.aluImm(Opcode::Mul, last, set, p.blockDim);
      b.alu(Opcode::Sub, last, p.fullTilesReg, last);
    } else {
      b.li(last, p.blockDim - 1);
      b.aluImm(Opcode::Div, set, p.fullTilesReg, p.blockDim);
    }
    b.branch(Opcode::Bne, blockIdx, last, skip);
    b.aluImm(Opcode::Rem, set, set, p.sets);
    for (int k = 0; k < p.sets; ++k) {
      int other = b.newLabel();
      b.li(last, k);
      b.branch(Opcode::Bne, set, last, other);
      loadTile(b, p, k, true, 0);
      computeAndStoreTile(b, p, k, true);
      b.jump(skip);
      b.bind(other);
    }
    b.bind(skip);
    for (int reg : {last, set}) b.freeReg(reg);
  } else if (p.hasTail) {
    // the tail's core (the last, or core fullTiles % blockDim when interleaved) has its cursors at
    // the tail already; it ran fullTiles / blockDim full tiles (never one of the extra), so the set
    // after its last one, the longest free, is known here and the tail's load need not wait for
    // the last store
    int last = b.allocReg();
    b.li(last, p.interleaved ? p.fullTiles % p.blockDim : p.blockDim - 1);
    int skip = b.newLabel();
    b.branch(Opcode::Bne, blockIdx, last, skip);
    const int set = static_cast<int>(p.fullTiles / p.blockDim % p.sets);
    loadTile(b, p, set, true, 0);
    computeAndStoreTile(b, p, set, true);
    b.bind(skip);
    b.freeReg(last);
  }
  b.freeReg(blockIdx);
  for (int set = 0; set < p.sets; ++set) b.waitFlag(Pipe::MTE3, Pipe::MTE2, set);
}

}  // namespace pyasc::codegen
