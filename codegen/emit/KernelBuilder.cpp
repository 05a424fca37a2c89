// KernelBuilder: instruction emission with register allocation and label fix-ups.
#include "codegen/emit/KernelBuilder.h"

#include <stdexcept>

#include "sdk/isa/Encoding.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::Opcode;

KernelBuilder::KernelBuilder(std::string name, int numArgs)
    : name_(std::move(name)), regUsed_(isa::kScalarRegisters, false), bufferBytes_(isa::kSpaceCount, 0) {
  if (numArgs > kMaxArgs) throw std::invalid_argument("too many kernel arguments");
  for (int r = 0; r <= numArgs; ++r) regUsed_[r] = true;
}

int KernelBuilder::allocReg() {
  for (int r = 1; r < isa::kScalarRegisters; ++r) {
    if (!regUsed_[r]) {
      regUsed_[r] = true;
      return r;
    }
  }
  throw std::runtime_error("kernel '" + name_ + "' ran out of scalar registers");
}

void KernelBuilder::freeReg(int reg) { regUsed_[reg] = false; }

int KernelBuilder::freeRegs() const {
  int n = 0;
  for (int r = 1; r < isa::kScalarRegisters; ++r) n += regUsed_[r] ? 0 : 1;
  return n;
}

int KernelBuilder::newLabel() {
  labelTarget_.push_back(-1);
  return static_cast<int>(labelTarget_.size()) - 1;
}

void KernelBuilder::bind(int label) {
  labelTarget_[label] = static_cast<int>(program_.size());
  maskKnown_ = false;  // another path may arrive here with another mask or mask mode
  maskMode_ = -1;
}

void KernelBuilder::emit(const Instruction& inst) {
  program_.push_back(inst);
  lines_.push_back(line_);
}

void KernelBuilder::li(int rd, int64_t value) {
  Instruction i;
  i.op = Opcode::Li;
  i.rd = static_cast<uint8_t>(rd);
  i.imm = value;
  emit(i);
}

void KernelBuilder::blockIdx(int rd) {
  Instruction i;
  i.op = Opcode::GetBlockIdx;
  i.rd = static_cast<uint8_t>(rd);
  emit(i);
}

void KernelBuilder::alu(Opcode op, int rd, int ra, int rb) {
  Instruction i;
  i.op = op;
  i.rd = static_cast<uint8_t>(rd);
  i.ra = static_cast<uint8_t>(ra);
  i.rb = static_cast<uint8_t>(rb);
  emit(i);
}

void KernelBuilder::aluImm(Opcode op, int rd, int ra, int64_t imm) {
  Instruction i;
  i.op = op;
  i.rd = static_cast<uint8_t>(rd);
  i.ra = static_cast<uint8_t>(ra);
  i.imm = imm;
  i.mode = 1;
  emit(i);
}

void KernelBuilder::branch(Opcode op, int ra, int rb, int label) {
  Instruction i;
  i.op = op;
  i.ra = static_cast<uint8_t>(ra);
  i.rb = static_cast<uint8_t>(rb);
  fixups_.emplace_back(program_.size(), label);
  emit(i);
}

void KernelBuilder::jump(int label) {
  Instruction i;
  i.op = Opcode::Jmp;
  fixups_.emplace_back(program_.size(), label);
  emit(i);
}

static Instruction flagInstruction(Opcode op, isa::Pipe src, isa::Pipe dst, int event) {
  Instruction i;
  i.op = op;
  i.srcPipe = src;
  i.dstPipe = dst;
  i.event = static_cast<uint8_t>(event);
  return i;
}

void KernelBuilder::setFlag(isa::Pipe src, isa::Pipe dst, int event) {
  emit(flagInstruction(Opcode::SetFlag, src, dst, event));
}

void KernelBuilder::waitFlag(isa::Pipe src, isa::Pipe dst, int event) {
  emit(flagInstruction(Opcode::WaitFlag, src, dst, event));
}

void KernelBuilder::barrier(isa::Pipe pipe) {
  Instruction i;
  i.op = Opcode::Barrier;
  i.srcPipe = pipe;
  emit(i);
}

void KernelBuilder::setMask(uint64_t lo, uint64_t hi) {
  if (maskKnown_ && maskLo_ == lo && maskHi_ == hi) return;
  int rLo = allocReg();
  int rHi = allocReg();
  li(rLo, static_cast<int64_t>(lo));
  li(rHi, static_cast<int64_t>(hi));
  Instruction i;
  i.op = Opcode::SetVMask;
  i.ra = static_cast<uint8_t>(rLo);
  i.rb = static_cast<uint8_t>(rHi);
  emit(i);
  freeReg(rLo);
  freeReg(rHi);
  maskKnown_ = true;
  maskLo_ = lo;
  maskHi_ = hi;
}

void KernelBuilder::setMaskLow(int reg) {
  Instruction i;
  i.op = Opcode::SetVMask;
  i.ra = static_cast<uint8_t>(reg);
  i.rb = 0;
  emit(i);
  maskKnown_ = false;
}

void KernelBuilder::fieldFromReg(isa::Field field, int reg) {
  Instruction i;
  i.op = Opcode::SetField;
  i.imm = static_cast<int64_t>(field) - static_cast<int64_t>(isa::kFirstRegisterField);
  i.ra = static_cast<uint8_t>(reg);
  emit(i);
}

void KernelBuilder::setCounterMode(bool counter) {
  if (maskMode_ == (counter ? 1 : 0)) return;
  Instruction i;
  i.op = Opcode::SetMaskMode;
  i.mode = counter ? 1 : 0;
  emit(i);
  maskMode_ = counter ? 1 : 0;
  maskKnown_ = false;
}

void KernelBuilder::noteBufferBytes(isa::Space space, int64_t bytes) {
  int64_t& used = bufferBytes_[static_cast<int>(space)];
  if (bytes > used) used = bytes;
}

KernelCode KernelBuilder::finish(int blockDim) {
  Instruction end;
  end.op = Opcode::End;
  emit(end);
  for (const auto& [index, label] : fixups_) {
    if (labelTarget_[label] < 0) throw std::logic_error("kernel '" + name_ + "': unbound label");
    program_[index].imm = labelTarget_[label];
  }
  // every instruction must fit its encoding; a field out of range is a code generator bug
  for (size_t i = 0; i < program_.size(); ++i) {
    try {
      isa::encode(program_[i]);
    } catch (const CompileError& e) {
      throw std::logic_error("kernel '" + name_ + "' instruction " + std::to_string(i) + ": " + e.diagnostic().message);
    }
  }
  return KernelCode{name_, blockDim, std::move(program_), std::move(lines_), bufferBytes_, ""};
}

}  // namespace pyasc::codegen
