// Builds one kernel's instruction stream: scalar registers, labels, loops, flags and source lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/isa/Encoding.h"
#include "sdk/isa/ISA.h"

namespace pyasc::codegen {

// A finished kernel: instructions plus the source line each came from.
struct KernelCode {
  std::string name;
  int blockDim = 1;
  std::vector<isa::Instruction> program;
  std::vector<int> sourceLines;
  std::vector<int64_t> bufferBytes;  // per isa::Space: bytes used (UB, L1, L0A, L0B, L0C)
  std::string schedule;              // the schedule's primitive trace (codegen/schedule), when a template chose it
};

class KernelBuilder {
 public:
  // x1..x<numArgs> hold the kernel's GM arguments; every other register is free for allocation.
  KernelBuilder(std::string name, int numArgs);
  // The most arguments a kernel takes: half of the scalar registers, x0 aside.
  static constexpr int kMaxArgs = isa::kScalarRegisters / 2 - 1;

  static int argReg(int index) { return 1 + index; }
  int allocReg();
  void freeReg(int reg);
  int freeRegs() const;  // scalar registers not allocated

  int newLabel();
  void bind(int label);

  void setSourceLine(int line) { line_ = line; }
  void emit(const isa::Instruction& inst);

  // scalar helpers
  void li(int rd, int64_t value);
  // rd = the index of the core running the kernel (get_block_idx).
  void blockIdx(int rd);
  void alu(isa::Opcode op, int rd, int ra, int rb);
  void aluImm(isa::Opcode op, int rd, int ra, int64_t imm);
  void branch(isa::Opcode op, int ra, int rb, int label);
  void jump(int label);

  // sync
  void setFlag(isa::Pipe src, isa::Pipe dst, int event);
  void waitFlag(isa::Pipe src, isa::Pipe dst, int event);
  void barrier(isa::Pipe pipe);

  // The vector mask: set only when it differs from what the scalar unit last set on this path.
  void setMask(uint64_t lo, uint64_t hi);
  void setFullMask() { setMask(~0ull, ~0ull); }
  // The mask's low 64 bits from a register, its high ones 0: a counter-mode element count computed
  // at run time.
  void setMaskLow(int reg);
  // Normal mode: the mask selects lanes; counter mode: its low 64 bits count elements.
  void setCounterMode(bool counter);
  // The next pipe instruction takes `field` from `reg` (set_field).
  void fieldFromReg(isa::Field field, int reg);

  void noteBufferBytes(isa::Space space, int64_t bytes);
  KernelCode finish(int blockDim);

 private:
  std::string name_;
  std::vector<isa::Instruction> program_;
  std::vector<int> lines_;
  std::vector<bool> regUsed_;
  std::vector<int> labelTarget_;
  std::vector<std::pair<size_t, int>> fixups_;  // instruction index, label
  std::vector<int64_t> bufferBytes_;
  int line_ = 0;
  bool maskKnown_ = false;
  int maskMode_ = 0;  // 0 normal (the state at kernel start), 1 counter, -1 unknown (after a label)
  uint64_t maskLo_ = 0, maskHi_ = 0;
};

}  // namespace pyasc::codegen
