// Field validation per format, following the type lists and limits of docs/isa.md.
#include "sim/InstructionChecks.h"

#include <string>

#include "sim/CoreMemory.h"
#include "sim/InstructionTable.h"
#include "sim/Violation.h"

namespace pyasc::sim {

namespace {

using isa::Format;
using isa::Opcode;

bool oneOf(DType t, std::initializer_list<DType> allowed) {
  for (DType a : allowed) {
    if (a == t) return true;
  }
  return false;
}

[[noreturn]] void badType(const isa::Instruction& inst, DType t) {
  throw Violation(std::string("invalid type ") + dtypeShortName(t) + " for " + opcodeEntry(inst.op).mnemonic);
}

void requireType(const isa::Instruction& inst, DType t, std::initializer_list<DType> allowed) {
  if (!oneOf(t, allowed)) badType(inst, t);
}

void checkTypes(const isa::Instruction& inst) {
  const DType F16 = DType::Float16, F32 = DType::Float32, S32 = DType::Int32, S8 = DType::Int8, U8 = DType::UInt8;
  switch (opcodeEntry(inst.op).format) {
    case Format::VBinary: case Format::VScalar: case Format::VUnary:
      switch (inst.op) {
        case Opcode::VDiv: case Opcode::VExp: case Opcode::VLn: case Opcode::VSqrt: case Opcode::VRsqrt:
        case Opcode::VRec: case Opcode::VLRelu:
          return requireType(inst, inst.type, {F16, F32});
        default:
          return requireType(inst, inst.type, {F16, F32, S32});
      }
    case Format::VCmp: case Format::VSelect: case Format::VDup: case Format::VReduce:
      return requireType(inst, inst.type, {F16, F32, S32});
    case Format::VTranspose: return requireType(inst, inst.type, {F16, DType::Int16});
    case Format::VConv: {
      static const std::pair<DType, DType> pairs[] = {{F32, F16}, {F16, F32}, {F16, S32}, {F32, S32}, {S32, F32},
                                                      {S32, F16}, {F16, S8},  {S8, F16},  {F16, U8},  {U8, F16}};
      for (const auto& p : pairs) {
        if (p.first == inst.type && p.second == inst.type2) return;
      }
      throw Violation(std::string("invalid conversion ") + dtypeShortName(inst.type) + " to " +
                      dtypeShortName(inst.type2) + " for vconv");
    }
    case Format::Mmad:
      if ((inst.type == F16 && inst.type2 == F32) || (inst.type == S8 && inst.type2 == S32) ||
          (inst.type == F32 && inst.type2 == F32)) {
        return;
      }
      throw Violation(std::string("invalid type pair ") + dtypeShortName(inst.type) + "." +
                      dtypeShortName(inst.type2) + " for mmad");
    case Format::Fixpipe:
      requireType(inst, inst.type, {F32, S32});
      return requireType(inst, inst.type2, {F16, F32, S32});
    case Format::LoadFractal: return requireType(inst, inst.type, {F16, F32, S8});
    case Format::Img2Col: return requireType(inst, inst.type, {F16, S8});
    case Format::ScalarLoad: case Format::ScalarStore:
      if (inst.type == DType::Float64) badType(inst, inst.type);
      return;
    default: return;
  }
}

void requireSpace(const isa::Instruction& inst, const char* operand, const isa::MemRef& ref, isa::Space space) {
  if (ref.space != space) {
    throw Violation(std::string(opcodeEntry(inst.op).mnemonic) + " " + operand + " must be in " + isa::spaceName(space) +
                    ", not " + isa::spaceName(ref.space));
  }
}

// The memory each address operand must name, per format.
void checkSpaces(const isa::Instruction& inst) {
  using isa::Space;
  switch (opcodeEntry(inst.op).format) {
    case Format::Dma: {
      CopyRoute r = copyRoute(inst.op);
      requireSpace(inst, "dst", inst.dst, r.dst);
      return requireSpace(inst, "src", inst.src0, r.src);
    }
    case Format::LoadFractal: case Format::Img2Col:
      requireSpace(inst, "dst", inst.dst, inst.op == Opcode::LoadL0B ? Space::L0B : Space::L0A);
      return requireSpace(inst, "src", inst.src0, Space::L1);
    case Format::Fixpipe:
      requireSpace(inst, "dst", inst.dst, inst.op == Opcode::FixL0CToGm ? Space::GM : Space::UB);
      return requireSpace(inst, "src", inst.src0, Space::L0C);
    case Format::Mmad:
      requireSpace(inst, "dst", inst.dst, Space::L0C);
      requireSpace(inst, "src0", inst.src0, Space::L0A);
      return requireSpace(inst, "src1", inst.src1, Space::L0B);
    case Format::VSelect:
      requireSpace(inst, "sel", inst.src2, Space::UB);
      [[fallthrough]];
    case Format::VBinary: case Format::VCmp:
      requireSpace(inst, "src1", inst.src1, Space::UB);
      [[fallthrough]];
    case Format::VScalar: case Format::VUnary: case Format::VConv: case Format::VReduce: case Format::VTranspose:
      requireSpace(inst, "src0", inst.src0, Space::UB);
      [[fallthrough]];
    case Format::VDup:
      return requireSpace(inst, "dst", inst.dst, Space::UB);
    default: return;
  }
}

bool validPipe(isa::Pipe p) { return static_cast<int>(p) < isa::kPipeCount; }

// Operands without which a unit cannot compute addresses (division by zero, unknown pipes,
// fractal shapes whose layout would not fit the range the unit checked).
void checkStructure(const isa::Instruction& inst) {
  Format f = opcodeEntry(inst.op).format;
  if (f == Format::LoadFractal || f == Format::Img2Col) {
    int c0 = isa::kBlockBytes / dtypeSize(inst.type);
    bool isB = inst.op == Opcode::LoadL0B;
    int rows = isB ? inst.k : inst.m, cols = isB ? inst.n : inst.k;
    int rowUnit = isB ? c0 : 16, colUnit = isB ? 16 : c0;
    if (rows % rowUnit != 0 || cols % colUnit != 0) {
      throw Violation(std::string(opcodeEntry(inst.op).mnemonic) + " " + (isB ? "k" : "m") + "=" + std::to_string(rows) +
                      " must be a multiple of " + std::to_string(rowUnit) + " and " + (isB ? "n" : "k") + "=" +
                      std::to_string(cols) + " of " + std::to_string(colUnit));
    }
  }
  if (f == Format::Flag) {
    if (!validPipe(inst.srcPipe) || !validPipe(inst.dstPipe)) throw Violation("flag pipes must be S, V, M, MTE1, MTE2, MTE3 or FIX");
    if (inst.event >= isa::kFlagEvents) throw Violation("event id " + std::to_string(inst.event) + " out of range (0-7)");
  }
  if (f == Format::Img2Col) {
    if (inst.c == 0 || inst.kh == 0 || inst.kw == 0 || inst.strideH == 0 || inst.strideW == 0 || inst.dilH == 0 ||
        inst.dilW == 0) {
      throw Violation("img2col needs non-zero c, kernel, stride and dilation");
    }
  }
}

void limit(const char* name, uint64_t value, uint64_t max) {
  if (value > max) throw Violation(std::string(name) + " " + std::to_string(value) + " out of range (max " + std::to_string(max) + ")");
}

void checkLimits(const isa::Instruction& inst, const VectorMask& mask) {
  Format f = opcodeEntry(inst.op).format;
  bool vector = f == Format::VBinary || f == Format::VScalar || f == Format::VUnary || f == Format::VConv ||
                f == Format::VCmp || f == Format::VSelect || f == Format::VDup || f == Format::VReduce ||
                f == Format::VTranspose;
  if (vector) {
    if (!mask.counter || f == Format::VTranspose) limit("repeat", inst.repeat, isa::kMaxRepeat);
    bool stridedDst = f != Format::VCmp && f != Format::VReduce && f != Format::VTranspose;
    if (stridedDst && inst.dstBlk == 0) throw Violation("dst block stride 0");
    if (mask.counter && mask.hi != 0 && f != Format::VTranspose) {
      throw Violation("mask mode misuse: counter mode takes the element count in mask bits 0-63, but bits 64-127 are " +
                      hexText(mask.hi));
    }
  }
  if (f == Format::Dma) {
    limit("nburst", inst.nburst, isa::kMaxNBurst);
    limit("src gap", inst.srcGap, isa::kMaxBurstLen);
    limit("dst gap", inst.dstGap, isa::kMaxBurstLen);
  }
  if (f == Format::Mmad || f == Format::LoadFractal || f == Format::Fixpipe || f == Format::Img2Col) {
    limit("m", inst.m, 4095);
    limit("n", inst.n, 4095);
    limit("k", inst.k, 4095);
  }
}

}  // namespace

void checkFields(const isa::Instruction& inst, const VectorMask& mask, bool sanitize) {
  checkTypes(inst);
  checkSpaces(inst);
  checkStructure(inst);
  if (sanitize) checkLimits(inst, mask);
}

}  // namespace pyasc::sim
