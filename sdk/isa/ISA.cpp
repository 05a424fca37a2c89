// The opcode table generated from ISA.def, and the names of pipes, spaces and compare modes.
#include "sdk/isa/ISA.h"

#include <cctype>

namespace pyasc::isa {

namespace {

// The pipe column of ISA.def: a fixed pipe, or a rule that reads it from the operands.
struct PipeSpec {
  PipeRule rule;
  Pipe pipe;
};
namespace pipe_spec {
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
}  // namespace pipe_spec

const OpcodeInfo kOpcodes[kOpcodeCount] = {
#define INST(Enum, Mnemonic, PipeColumn, Fmt) \
  {Opcode::Enum, Mnemonic, pipe_spec::PipeColumn.rule, pipe_spec::PipeColumn.pipe, Format::Fmt},
#include "sdk/isa/ISA.def"
#undef INST
};

const char* const kPipeNames[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
const char* const kSpaceNames[] = {"gm", "ub", "l1", "l0a", "l0b", "l0c"};
const char* const kCmpModeNames[] = {"eq", "ne", "lt", "le", "gt", "ge"};

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

VectorCost vectorCost(Opcode op) {
  switch (op) {
    case Opcode::VAdd:
    case Opcode::VSub:
    case Opcode::VMul:
    case Opcode::VMax:
    case Opcode::VMin:
    case Opcode::VAddRelu:
    case Opcode::VCmp:
    case Opcode::VSel: return VectorCost::Binary;
    case Opcode::VMla: return VectorCost::MultiplyAdd;
    case Opcode::VExp:
    case Opcode::VLn:
    case Opcode::VSqrt:
    case Opcode::VDiv: return VectorCost::Transcendental;
    case Opcode::VCAdd:
    case Opcode::VCMax:
    case Opcode::VCMin: return VectorCost::Reduction;
    case Opcode::VConv: return VectorCost::Conversion;
    case Opcode::VTranspose: return VectorCost::Transpose;
    default: return VectorCost::Unary;
  }
}

const char* vectorCostName(VectorCost cost) {
  static const char* const kNames[kVectorCostCount] = {"unary",     "binary",     "multiply_add", "transcendental",
                                                       "reduction", "conversion", "transpose"};
  return kNames[static_cast<int>(cost)];
}

const char* pipeName(Pipe p) { return kPipeNames[static_cast<int>(p)]; }

bool parsePipe(const std::string& name, Pipe& out) {
  std::string wanted = lower(name);
  for (int i = 0; i <= kPipeCount; ++i) {
    if (wanted == lower(kPipeNames[i])) {
      out = static_cast<Pipe>(i);
      return true;
    }
  }
  return false;
}

const char* spaceName(Space s) { return kSpaceNames[static_cast<int>(s)]; }

bool parseSpace(const std::string& name, Space& out) {
  for (int i = 0; i < kSpaceCount; ++i) {
    if (name == kSpaceNames[i]) {
      out = static_cast<Space>(i);
      return true;
    }
  }
  return false;
}

const char* cmpModeName(CmpMode m) { return kCmpModeNames[static_cast<int>(m)]; }

bool parseCmpMode(const std::string& name, CmpMode& out) {
  for (int i = 0; i < kCmpModeCount; ++i) {
    if (name == kCmpModeNames[i]) {
      out = static_cast<CmpMode>(i);
      return true;
    }
  }
  return false;
}

const OpcodeInfo& opcodeInfo(Opcode op) { return kOpcodes[static_cast<int>(op)]; }

bool parseMnemonic(const std::string& mnemonic, Opcode& out) {
  for (const OpcodeInfo& info : kOpcodes) {
    if (mnemonic == info.mnemonic) {
      out = info.op;
      return true;
    }
  }
  return false;
}

bool Instruction::operator==(const Instruction& o) const {
  return op == o.op && type == o.type && type2 == o.type2 && mode == o.mode && dst == o.dst &&
         src0 == o.src0 && src1 == o.src1 && src2 == o.src2 && rd == o.rd && ra == o.ra && rb == o.rb &&
         imm == o.imm && repeat == o.repeat && dstBlk == o.dstBlk && src0Blk == o.src0Blk &&
         src1Blk == o.src1Blk && dstRep == o.dstRep && src0Rep == o.src0Rep && src1Rep == o.src1Rep &&
         nburst == o.nburst && burstLen == o.burstLen && srcGap == o.srcGap && dstGap == o.dstGap &&
         m == o.m && k == o.k && n == o.n && srcStride == o.srcStride && dstStride == o.dstStride &&
         validRows == o.validRows && validCols == o.validCols && h == o.h && w == o.w && c == o.c &&
         kh == o.kh && kw == o.kw && strideH == o.strideH && strideW == o.strideW && padT == o.padT &&
         padB == o.padB && padL == o.padL && padR == o.padR && dilH == o.dilH && dilW == o.dilW &&
         posStart == o.posStart && srcPipe == o.srcPipe && dstPipe == o.dstPipe && event == o.event;
}

Pipe issuePipe(const Instruction& inst) {
  const OpcodeInfo& info = opcodeInfo(inst.op);
  switch (info.pipeRule) {
    case PipeRule::Fixed: return info.pipe;
    case PipeRule::Src: return inst.srcPipe;
    case PipeRule::Dst: return inst.dstPipe;
    case PipeRule::Own: return inst.srcPipe;
  }
  return info.pipe;
}

}  // namespace pyasc::isa
