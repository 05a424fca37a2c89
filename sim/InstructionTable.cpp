// Resolves queue pipes and copy routes; instruction text for reports.
#include "sim/InstructionTable.h"

#include "sdk/isa/Assembler.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::sim {

using isa::Pipe;
using isa::PipeRule;

isa::Pipe queuePipe(const isa::Instruction& inst) {
  const isa::OpcodeInfo& e = opcodeEntry(inst.op);
  switch (e.pipeRule) {
    case PipeRule::Fixed: return e.pipe;
    case PipeRule::Src: return inst.srcPipe;
    case PipeRule::Dst: return inst.dstPipe;
    case PipeRule::Own: return barrierPipe(inst) == Pipe::All ? Pipe::S : barrierPipe(inst);
  }
  return Pipe::S;
}

CopyRoute copyRoute(isa::Opcode op) {
  using isa::Opcode;
  using isa::Space;
  switch (op) {
    case Opcode::CopyGmToUb: return {Space::GM, Space::UB, DmaPath::GmToUb};
    case Opcode::CopyGmToL1: return {Space::GM, Space::L1, DmaPath::GmToL1};
    case Opcode::CopyUbToGm: return {Space::UB, Space::GM, DmaPath::UbToGm};
    case Opcode::CopyUbToUb: return {Space::UB, Space::UB, DmaPath::UbToUb};
    default: return {Space::L1, Space::UB, DmaPath::L1ToUb};
  }
}

std::string instructionText(const isa::Instruction& inst) {
  try {
    return isa::disassemble(inst);
  } catch (const CompileError&) {  // a field the encoding cannot hold: name the instruction only
    return opcodeEntry(inst.op).mnemonic;
  }
}

}  // namespace pyasc::sim
