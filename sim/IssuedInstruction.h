// An instruction as a pipe queue holds it: the register values and vector mask captured at issue.
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
  std::array<uint64_t, isa::kScalarRegisters> regs{};
  VectorMask mask;

  uint64_t address(const isa::MemRef& ref) const { return regs[ref.reg] + static_cast<uint64_t>(ref.offset); }
  // The scalar operand of vadds/vdup-style instructions: an immediate bit pattern or a register.
  uint64_t scalarBits() const { return inst->mode == 1 ? static_cast<uint64_t>(inst->imm) : regs[inst->ra]; }
};

}  // namespace pyasc::sim
