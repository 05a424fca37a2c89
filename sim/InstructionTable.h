// The simulator's own reading of sdk/isa/ISA.def: mnemonic, pipe rule and format per opcode.
#pragma once

#include <string>

#include "sdk/isa/ISA.h"

namespace pyasc::sim {

struct OpcodeEntry {
  const char* mnemonic;
  isa::PipeRule rule;
  isa::Pipe pipe;  // for PipeRule::Fixed
  isa::Format format;
};

const OpcodeEntry& opcodeEntry(isa::Opcode op);
// The pipe whose queue the scalar unit issues the instruction into (S runs it in place).
isa::Pipe queuePipe(const isa::Instruction& inst);
// The pipe a `pipe_barrier` names.
inline isa::Pipe barrierPipe(const isa::Instruction& inst) { return inst.srcPipe; }
// Assembly text for reports and the trace (isa::disassemble).
std::string instructionText(const isa::Instruction& inst);

}  // namespace pyasc::sim
