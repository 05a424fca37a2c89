// The scalar unit's own instructions: ALU, loads/stores, branches, block ids and the vector mask.
#pragma once

#include <array>
#include <cstdint>

#include "sdk/isa/ISA.h"
#include "sim/CoreMemory.h"
#include "sim/IssuedInstruction.h"

namespace pyasc::sim {

struct ScalarState {
  std::array<uint64_t, isa::kScalarRegisters> regs{};
  VectorMask mask;
  uint64_t pc = 0;
  int blockIdx = 0, blockDim = 1;
};

// Executes one S-pipe instruction other than sync and `end`, advancing pc (branches included).
void runScalar(const isa::Instruction& inst, ScalarState& state, CoreMemory& mem);

}  // namespace pyasc::sim
