// Text form of instructions: the canonical disassembly and an assembler that reads it back.
#pragma once

#include <string>
#include <vector>

#include "sdk/isa/ISA.h"

namespace pyasc::isa {

// Canonical text of one instruction: every field its format encodes, in a fixed order
// (docs/isa.md, "Assembly syntax"), so that assemble(disassemble(i)) == i. Throws CompileError,
// as encode() does, for an instruction that has no encoding.
std::string disassemble(const Instruction& inst);

// Assembles a program: one instruction per line, labels (`loop:`), comments (`;` or `//` to the
// end of the line), blank lines, decimal and hex numbers. Checks syntax and field ranges (not
// alignment or types, which the simulator checks); errors are CompileError at file:line:col.
std::vector<Instruction> assemble(const std::string& text, const std::string& fileName);

}  // namespace pyasc::isa
