// Random instructions for ISA tests, generated from the encoding table so new opcodes are covered.
#pragma once

#include <random>

#include "sdk/isa/Encoding.h"

namespace pyasc::isa::test {

// A random valid instance of `op`: every field its format encodes takes a random in-range value,
// except the one its mode bit or opcode leaves unused (which the encoder requires to be zero);
// every other field keeps its default.
inline Instruction randomInstruction(Opcode op, std::mt19937_64& rng) {
  Instruction inst;
  inst.op = op;
  for (const FieldSpec& spec : formatFields(opcodeInfo(op).format)) {
    if (isAddressField(spec.field)) {
      MemRef& ref = addressField(inst, spec.field);
      ref.space = static_cast<Space>(std::uniform_int_distribution<int>(0, kSpaceCount - 1)(rng));
      ref.reg = static_cast<uint8_t>(std::uniform_int_distribution<int>(0, kScalarRegisters - 1)(rng));
      ref.offset = std::uniform_int_distribution<int64_t>(spec.min, spec.max)(rng);
      continue;
    }
    setField(inst, spec.field, std::uniform_int_distribution<int64_t>(spec.min, spec.max)(rng));
  }
  switch (opcodeInfo(op).format) {
    case Format::ScalarAlu:
      if (inst.mode) inst.rb = 0; else inst.imm = 0;
      break;
    case Format::VScalar:
    case Format::VDup:
      if (inst.mode) inst.ra = 0; else inst.imm = 0;
      break;
    case Format::LoadFractal:
      if (op == Opcode::LoadL0A) inst.n = 0; else inst.m = 0;
      break;
    default: break;
  }
  return inst;
}

}  // namespace pyasc::isa::test
