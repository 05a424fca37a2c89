// Builds the opcode table from ISA.def; resolves queue pipes; instruction text for reports.
#include "sim/InstructionTable.h"

#include "sdk/isa/Assembler.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::sim {

namespace {

using isa::Format;
using isa::Pipe;
using isa::PipeRule;

// One constant per pipe column spelling in ISA.def.
struct PipeSpec {
  PipeRule rule;
  Pipe pipe;
};
namespace spec {
constexpr PipeSpec S{PipeRule::Fixed, Pipe::S};
constexpr PipeSpec V{PipeRule::Fixed, Pipe::V};
constexpr PipeSpec M{PipeRule::Fixed, Pipe::M};
constexpr PipeSpec MTE1{PipeRule::Fixed, Pipe::MTE1};
constexpr PipeSpec MTE2{PipeRule::Fixed, Pipe::MTE2};
constexpr PipeSpec MTE3{PipeRule::Fixed, Pipe::MTE3};
constexpr PipeSpec FIX{PipeRule::Fixed, Pipe::FIX};
constexpr PipeSpec Src{PipeRule::Src, Pipe::S};
constexpr PipeSpec Dst{PipeRule::Dst, Pipe::S};
constexpr PipeSpec Own{PipeRule::Own, Pipe::S};
}  // namespace spec

const OpcodeEntry kTable[] = {
#define INST(Enum, Mnemonic, PipeColumn, Fmt) {Mnemonic, spec::PipeColumn.rule, spec::PipeColumn.pipe, Format::Fmt},
#include "sdk/isa/ISA.def"
#undef INST
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == isa::kOpcodeCount, "one entry per opcode");

}  // namespace

const OpcodeEntry& opcodeEntry(isa::Opcode op) { return kTable[static_cast<int>(op)]; }

isa::Pipe queuePipe(const isa::Instruction& inst) {
  const OpcodeEntry& e = opcodeEntry(inst.op);
  switch (e.rule) {
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
