// Checks of an instruction's fields at issue: types an opcode accepts and operands the units
// cannot run without (always), and the ISA's field limits and mask rules (sanitizer only).
#pragma once

#include "sdk/isa/ISA.h"
#include "sim/IssuedInstruction.h"

namespace pyasc::sim {

// Throws Violation describing the first problem.
void checkFields(const isa::Instruction& inst, const VectorMask& mask, bool sanitize);

}  // namespace pyasc::sim
