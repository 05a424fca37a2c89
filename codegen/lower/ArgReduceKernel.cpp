// Argmax/argmin on the scalar unit: each core scans its share of output elements; a float's bits
// become a signed key (negative floats: minus their magnitude bits) so integer compares order them.
#include "codegen/lower/ArgReduceKernel.h"

#include <algorithm>

#include "codegen/lower/TilePipeline.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Space;

namespace {

// key = bits when the sign is clear, −(bits & magnitude mask) when it is set; an int32 (loaded
// sign-extended) is its own key.
void emitKey(KernelBuilder& b, int reg, int scratch, DType t) {
  if (t == DType::Int32) return;
  int64_t magnitude = t == DType::Float16 ? 0x7fff : 0x7fffffff;
  b.aluImm(Opcode::And, scratch, reg, magnitude);
  int positive = b.newLabel();
  b.branch(Opcode::Beq, scratch, reg, positive);
  b.alu(Opcode::Sub, reg, 0, scratch);
  b.bind(positive);
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

KernelCode lowerArgReduce(const ArgReduceCompute& c, const Target& target, int maxCores) {
  KernelBuilder b(c.name, 2);
  b.setSourceLine(c.sourceLine);
  const int es = dtypeSize(c.dtype);
  int64_t units = c.outer * c.inner;
  int blockDim = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(maxCores, units)));
  int idx = b.allocReg(), unit = b.allocReg(), count = b.allocReg();
  Instruction get;
  get.op = Opcode::GetBlockIdx;
  get.rd = static_cast<uint8_t>(idx);
  b.emit(get);
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
  emitKey(b, best, tmp, c.dtype);
  b.li(bestIdx, 0);
  b.li(k, 1);
  int scan = b.newLabel(), scanDone = b.newLabel(), keep = b.newLabel();
  b.bind(scan);
  b.branch(Opcode::Bge, k, limit, scanDone);
  b.aluImm(Opcode::Add, addr, addr, c.inner * es);
  emitLoad(b, value, addr, c.dtype);
  emitKey(b, value, tmp, c.dtype);
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
  b.aluImm(Opcode::Mul, tmp, unit, 8);
  b.alu(Opcode::Add, tmp, tmp, KernelBuilder::argReg(1));
  Instruction st;
  st.op = Opcode::St;
  st.type = DType::Int64;
  st.ra = static_cast<uint8_t>(bestIdx);
  st.dst = MemRef{Space::GM, static_cast<uint8_t>(tmp), 0};
  b.emit(st);
  b.aluImm(Opcode::Add, unit, unit, 1);
  b.jump(unitLoop);
  b.bind(unitDone);
  return b.finish(blockDim);
}

}  // namespace pyasc::codegen
