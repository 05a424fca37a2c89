// An instruction as a pipe queue holds it: the values of its registers and the vector mask captured at issue.
#pragma once

#include <array>
#include <cstdint>

#include "sdk/isa/ISA.h"

namespace pyasc::sim {

// The 128-bit vector mask and its mode; at kernel start every lane is on, normal mode.
struct VectorMask {
  uint64_t lo = ~0ull, hi = ~0ull;
  bool counter = false;
};

struct IssuedInstruction {
  const isa::Instruction* inst = nullptr;
  int index = 0;  // position in the program
  // The registers the instruction names (its operands' base registers and ra) and their values at
  // issue: all a pipe reads, kept small so that queues stay in cache. Others read as 0.
  std::array<uint8_t, 5> regIds{};
  std::array<uint64_t, 5> regValues{};
  VectorMask mask;

  void capture(const std::array<uint64_t, isa::kScalarRegisters>& regs) {
    regIds = {inst->dst.reg, inst->src0.reg, inst->src1.reg, inst->src2.reg, inst->ra};
    for (size_t i = 0; i < regIds.size(); ++i) regValues[i] = regs[regIds[i]];
  }
  uint64_t reg(uint8_t r) const {
    for (size_t i = 0; i < regIds.size(); ++i) {
      if (regIds[i] == r) return regValues[i];
    }
    return 0;
  }
  uint64_t address(const isa::MemRef& ref) const { return reg(ref.reg) + static_cast<uint64_t>(ref.offset); }
  // The scalar operand of vadds/vdup-style instructions: an immediate bit pattern or a register.
  uint64_t scalarBits() const { return inst->mode == 1 ? static_cast<uint64_t>(inst->imm) : reg(inst->ra); }
};

}  // namespace pyasc::sim
