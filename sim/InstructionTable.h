// What the simulator reads from the instruction table (sdk/isa/ISA.def): opcode facts, queues, copy routes.
#pragma once

#include <string>

#include "sdk/isa/ISA.h"
#include "sdk/target/Target.h"

namespace pyasc::sim {

// Mnemonic, pipe rule and format of an opcode, from the one table ISA.def generates.
inline const isa::OpcodeInfo& opcodeEntry(isa::Opcode op) { return isa::opcodeInfo(op); }
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
