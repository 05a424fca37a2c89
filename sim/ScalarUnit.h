// The scalar unit's own instructions: ALU, loads/stores, branches, block ids and the vector mask.
#pragma once

#include <array>
#include <cstdint>

#include "sdk/isa/ISA.h"
#include "sim/CoreMemory.h"
#include "sim/IssuedInstruction.h"

namespace pyasc::sim {

// A field `set_field` supplies to the next instruction issued to a pipe (its imm: the field's number from
// isa::kFirstRegisterField).
struct FieldOverride {
  uint8_t field = 0;
  uint64_t value = 0;
};
constexpr int kMaxFieldOverrides = 8;

struct ScalarState {
  std::array<uint64_t, isa::kScalarRegisters> regs{};
  VectorMask mask;
  std::array<FieldOverride, kMaxFieldOverrides> fields{};  // pending set_field values, in order
  int fieldCount = 0;
  uint64_t pc = 0;
  int blockIdx = 0, blockDim = 1;
};

// Executes one S-pipe instruction other than sync and `end`, advancing pc (branches included).
void runScalar(const isa::Instruction& inst, ScalarState& state, CoreMemory& mem);

}  // namespace pyasc::sim
