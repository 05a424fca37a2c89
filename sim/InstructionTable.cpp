// Builds the opcode table from ISA.def and names pipes, spaces and instructions for reports.
#include "sim/InstructionTable.h"

#include "sdk/support/Float16.h"

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

bool hasTypeSuffix(Format f) {
  switch (f) {
    case Format::ScalarLoad: case Format::ScalarStore: case Format::Dma: case Format::LoadFractal:
    case Format::Img2Col: case Format::Fixpipe: case Format::Mmad: case Format::VBinary:
    case Format::VScalar: case Format::VUnary: case Format::VConv: case Format::VCmp:
    case Format::VSelect: case Format::VDup: case Format::VReduce: case Format::VTranspose:
      return true;
    default:
      return false;
  }
}

const char* cmpModeText(isa::CmpMode m) {
  static const char* const names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[static_cast<int>(m) % 6];
}

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

const char* pipeLabel(isa::Pipe pipe) {
  static const char* const names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
  return names[static_cast<int>(pipe)];
}

const char* spaceLabel(isa::Space space) {
  static const char* const names[] = {"gm", "ub", "l1", "l0a", "l0b", "l0c"};
  return names[static_cast<int>(space)];
}

std::string instructionText(const isa::Instruction& inst) {
  const OpcodeEntry& e = opcodeEntry(inst.op);
  std::string text = e.mnemonic;
  if (e.format == Format::Dma) {
    if (inst.mode == 1) text += ".b";
    return text;
  }
  if (e.format == Format::Flag) {
    return text + " " + pipeLabel(inst.srcPipe) + ", " + pipeLabel(inst.dstPipe) + ", " +
           std::to_string(inst.event);
  }
  if (e.format == Format::Barrier) return text + " " + pipeLabel(barrierPipe(inst));
  if (!hasTypeSuffix(e.format)) return text;
  if (e.format == Format::VTranspose) return text + ".b16";
  text += std::string(".") + dtypeShortName(inst.type);
  if (e.format == Format::VConv || e.format == Format::Mmad || e.format == Format::Fixpipe) {
    text += std::string(".") + dtypeShortName(inst.type2);
  }
  if (e.format == Format::VConv || e.format == Format::Fixpipe) {
    text += std::string(".") + roundModeName(static_cast<RoundMode>(inst.mode));
  }
  if (e.format == Format::VCmp) text += std::string(".") + cmpModeText(static_cast<isa::CmpMode>(inst.mode));
  return text;
}

}  // namespace pyasc::sim
