// The simulator's own reading of sdk/isa/ISA.def: mnemonic, pipe rule and format per opcode.
#pragma once

#include <string>

#include "sdk/isa/ISA.h"
#include "sdk/target/Target.h"

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
// The memories a copy instruction (format Dma) moves between, and the bandwidth path it uses.
struct CopyRoute {
  isa::Space src, dst;
  DmaPath path;
};
CopyRoute copyRoute(isa::Opcode op);

// Assembly text for reports and the trace (isa::disassemble), or the mnemonic when a field is
// out of the encoding's range.
std::string instructionText(const isa::Instruction& inst);

}  // namespace pyasc::sim
