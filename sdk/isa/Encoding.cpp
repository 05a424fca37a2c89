// Encoder and decoder of the 32-byte instruction format; the layout table below is the only
// place that says which fields a format encodes and how wide they are (docs/isa.md mirrors it).
#include "sdk/isa/Encoding.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

#include "sdk/support/Diagnostics.h"

namespace pyasc::isa {

namespace {

constexpr int64_t kOffsetMin = -(int64_t{1} << 39);
constexpr int64_t kOffsetMax = (int64_t{1} << 39) - 1;
constexpr int kSpaceBits = 3;
constexpr int kRegBits = 5;
constexpr int kOffsetBits = 40;

// A field of `bits` bits holding 0 .. 2^bits - 1.
FieldSpec u(Field f, int bits) { return {f, bits, 0, (int64_t{1} << bits) - 1}; }
// A field of `bits` bits holding 0 .. max (enumerations with unused encodings).
FieldSpec upTo(Field f, int bits, int64_t max) { return {f, bits, 0, max}; }
FieldSpec address(Field f) { return {f, kAddressBits, kOffsetMin, kOffsetMax}; }
FieldSpec signed64(Field f) {
  return {f, 64, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
}
FieldSpec type(Field f) { return upTo(f, 4, kDTypeCount - 1); }
FieldSpec reg(Field f) { return u(f, kRegBits); }
FieldSpec flagBit() { return u(Field::Mode, 1); }

struct FormatLayout {
  Format format;
  std::vector<FieldSpec> fields;
};

// Vector iteration fields shared by the vector formats: repeat count and 8-bit strides.
std::vector<FieldSpec> withVectorIteration(std::vector<FieldSpec> fields, std::vector<Field> blockStrides,
                                           std::vector<Field> repeatStrides, int blockBits = 8) {
  fields.push_back(u(Field::Repeat, 8));
  for (Field f : blockStrides) fields.push_back(u(f, blockBits));
  for (Field f : repeatStrides) fields.push_back(u(f, 8));
  return fields;
}

const std::vector<FormatLayout>& layouts() {
  using F = Field;
  static const std::vector<FormatLayout> table = {
      {Format::None, {}},
      {Format::ScalarLi, {reg(F::Rd), signed64(F::Imm)}},
      {Format::ScalarAlu, {flagBit(), reg(F::Rd), reg(F::Ra), reg(F::Rb), signed64(F::Imm)}},
      {Format::ScalarLoad, {type(F::Type), reg(F::Rd), address(F::Src0)}},
      {Format::ScalarStore, {type(F::Type), reg(F::Ra), address(F::Dst)}},
      {Format::ScalarDst, {reg(F::Rd)}},
      {Format::Branch, {reg(F::Ra), reg(F::Rb), u(F::Imm, 32)}},
      {Format::Jump, {u(F::Imm, 32)}},
      {Format::MaskSet, {reg(F::Ra), reg(F::Rb)}},
      {Format::MaskMode, {flagBit()}},
      {Format::Flag, {upTo(F::SrcPipe, 3, kPipeCount - 1), upTo(F::DstPipe, 3, kPipeCount - 1), u(F::Event, 3)}},
      {Format::Barrier, {upTo(F::SrcPipe, 3, kPipeCount)}},
      {Format::Dma,
       {flagBit(), address(F::Dst), address(F::Src0), upTo(F::NBurst, 12, kMaxNBurst), u(F::BurstLen, 16),
        u(F::SrcGap, 16), u(F::DstGap, 16)}},
      {Format::LoadFractal,
       {type(F::Type), flagBit(), address(F::Dst), address(F::Src0), u(F::M, 12), u(F::K, 12), u(F::N, 12),
        u(F::SrcStride, 16), u(F::ValidRows, 12), u(F::ValidCols, 12)}},
      {Format::Img2Col,
       {type(F::Type), address(F::Dst), address(F::Src0), u(F::H, 12), u(F::W, 12), u(F::C, 12), u(F::Kh, 8),
        u(F::Kw, 8), u(F::StrideH, 6), u(F::StrideW, 6), u(F::PadT, 6), u(F::PadB, 6), u(F::PadL, 6),
        u(F::PadR, 6), u(F::DilH, 6), u(F::DilW, 6), u(F::PosStart, 16), u(F::M, 12), u(F::K, 12)}},
      {Format::Fixpipe,
       {type(F::Type), type(F::Type2), upTo(F::Mode, 3, 4), address(F::Dst), address(F::Src0), u(F::M, 12),
        u(F::N, 12), u(F::DstStride, 16), u(F::ValidRows, 12), u(F::ValidCols, 12)}},
      {Format::Mmad,
       {type(F::Type), type(F::Type2), flagBit(), address(F::Dst), address(F::Src0), address(F::Src1),
        u(F::M, 12), u(F::K, 12), u(F::N, 12)}},
      {Format::VBinary,
       withVectorIteration({type(F::Type), address(F::Dst), address(F::Src0), address(F::Src1)},
                           {F::DstBlk, F::Src0Blk, F::Src1Blk}, {F::DstRep, F::Src0Rep, F::Src1Rep})},
      {Format::VScalar,
       withVectorIteration({type(F::Type), flagBit(), address(F::Dst), address(F::Src0), reg(F::Ra), u(F::Imm, 32)},
                           {F::DstBlk, F::Src0Blk}, {F::DstRep, F::Src0Rep})},
      {Format::VUnary,
       withVectorIteration({type(F::Type), address(F::Dst), address(F::Src0)}, {F::DstBlk, F::Src0Blk},
                           {F::DstRep, F::Src0Rep})},
      {Format::VConv,
       withVectorIteration({type(F::Type), type(F::Type2), upTo(F::Mode, 3, 4), address(F::Dst), address(F::Src0)},
                           {F::DstBlk, F::Src0Blk}, {F::DstRep, F::Src0Rep})},
      {Format::VCmp,
       withVectorIteration({type(F::Type), upTo(F::Mode, 3, kCmpModeCount - 1), address(F::Dst), address(F::Src0),
                            address(F::Src1)},
                           {F::Src0Blk, F::Src1Blk}, {F::Src0Rep, F::Src1Rep})},
      // Four address operands leave room for 6-bit block strides only.
      {Format::VSelect,
       withVectorIteration({type(F::Type), address(F::Dst), address(F::Src0), address(F::Src1), address(F::Src2)},
                           {F::DstBlk, F::Src0Blk, F::Src1Blk}, {F::DstRep, F::Src0Rep, F::Src1Rep}, 6)},
      {Format::VDup,
       withVectorIteration({type(F::Type), flagBit(), address(F::Dst), reg(F::Ra), u(F::Imm, 32)}, {F::DstBlk},
                           {F::DstRep})},
      {Format::VReduce,
       withVectorIteration({type(F::Type), flagBit(), address(F::Dst), address(F::Src0)}, {F::Src0Blk},
                           {F::DstRep, F::Src0Rep})},
      {Format::VTranspose, withVectorIteration({address(F::Dst), address(F::Src0)}, {}, {F::DstRep, F::Src0Rep})},
      // the field a register supplies, counted from Repeat (0) to PosStart (31)
      {Format::FieldSet, {u(F::Imm, 5), reg(F::Ra)}},
  };
  return table;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string where(size_t index) {
  return "instruction " + std::to_string(index) + " (offset " + hex(index * kInstructionBytes) + "): ";
}

// Field bits, least-significant first from bit `pos`, a byte's worth at a time.
void putBits(std::array<uint8_t, kInstructionBytes>& bytes, int& pos, int bits, uint64_t value) {
  for (int done = 0; done < bits;) {
    const int shift = pos % 8, take = std::min(8 - shift, bits - done);
    const unsigned part = static_cast<unsigned>(value >> done) & ((1u << take) - 1);
    bytes[static_cast<size_t>(pos / 8)] |= static_cast<uint8_t>(part << shift);
    done += take;
    pos += take;
  }
}

uint64_t getBits(const uint8_t* bytes, int& pos, int bits) {
  uint64_t value = 0;
  for (int done = 0; done < bits;) {
    const int shift = pos % 8, take = std::min(8 - shift, bits - done);
    value |= static_cast<uint64_t>((bytes[pos / 8] >> shift) & ((1u << take) - 1)) << done;
    done += take;
    pos += take;
  }
  return value;
}

int64_t signExtend(uint64_t value, int bits) {
  if (bits == 64) return static_cast<int64_t>(value);
  uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((value ^ sign) - sign);
}

std::string rangeText(const FieldSpec& spec) {
  return std::to_string(spec.min) + ".." + std::to_string(spec.max);
}

// A field that the mode bit or the opcode leaves unused must be zero, so that every valid binary
// has exactly one text form. Returns what is wrong, or "" when nothing is.
std::string unusedFieldError(const Instruction& i) {
  auto mustBeZero = [](const char* field, int64_t value, const std::string& why) {
    return value == 0 ? std::string() : std::string(field) + "=" + std::to_string(value) + " must be 0 " + why;
  };
  switch (opcodeInfo(i.op).format) {
    case Format::ScalarAlu:
      return i.mode ? mustBeZero("rb", i.rb, "when mode=1 selects imm")
                    : mustBeZero("imm", i.imm, "when mode=0 selects rb");
    case Format::VScalar:
    case Format::VDup:
      return i.mode ? mustBeZero("ra", i.ra, "when mode=1 selects imm")
                    : mustBeZero("imm", i.imm, "when mode=0 selects ra");
    case Format::LoadFractal:
      return i.op == Opcode::LoadL0A ? mustBeZero("n", i.n, "in load_l0a") : mustBeZero("m", i.m, "in load_l0b");
    default: return "";
  }
}

}  // namespace

const char* fieldName(Field f) {
  static const char* const names[] = {
      "type", "type2", "mode", "dst", "src0", "src1", "src2", "rd", "ra", "rb", "imm",
      "repeat", "dstBlk", "src0Blk", "src1Blk", "dstRep", "src0Rep", "src1Rep",
      "nburst", "burstLen", "srcGap", "dstGap", "m", "k", "n", "srcStride", "dstStride", "validRows", "validCols",
      "h", "w", "c", "kh", "kw", "strideH", "strideW", "padT", "padB", "padL", "padR", "dilH", "dilW", "posStart",
      "srcPipe", "dstPipe", "event",
  };
  return names[static_cast<int>(f)];
}

bool parseFieldName(const std::string& name, Field& out) {
  for (int f = 0; f <= static_cast<int>(Field::Event); ++f) {
    if (name == fieldName(static_cast<Field>(f))) {
      out = static_cast<Field>(f);
      return true;
    }
  }
  return false;
}

bool isAddressField(Field f) { return f == Field::Dst || f == Field::Src0 || f == Field::Src1 || f == Field::Src2; }

const std::vector<FieldSpec>& formatFields(Format format) {
  for (const FormatLayout& layout : layouts()) {
    if (layout.format == format) return layout.fields;
  }
  throw CompileError(SourceLocation{}, "internal error: format " + std::to_string(static_cast<int>(format)) +
                                           " has no encoding layout");
}

const FieldSpec* findField(Format format, Field field) {
  for (const FieldSpec& spec : formatFields(format)) {
    if (spec.field == field) return &spec;
  }
  return nullptr;
}

int64_t getField(const Instruction& i, Field field) {
  switch (field) {
    case Field::Type: return static_cast<int64_t>(i.type);
    case Field::Type2: return static_cast<int64_t>(i.type2);
    case Field::Mode: return i.mode;
    case Field::Rd: return i.rd;
    case Field::Ra: return i.ra;
    case Field::Rb: return i.rb;
    case Field::Imm: return i.imm;
    case Field::Repeat: return i.repeat;
    case Field::DstBlk: return i.dstBlk;
    case Field::Src0Blk: return i.src0Blk;
    case Field::Src1Blk: return i.src1Blk;
    case Field::DstRep: return i.dstRep;
    case Field::Src0Rep: return i.src0Rep;
    case Field::Src1Rep: return i.src1Rep;
    case Field::NBurst: return i.nburst;
    case Field::BurstLen: return i.burstLen;
    case Field::SrcGap: return i.srcGap;
    case Field::DstGap: return i.dstGap;
    case Field::M: return i.m;
    case Field::K: return i.k;
    case Field::N: return i.n;
    case Field::SrcStride: return i.srcStride;
    case Field::DstStride: return i.dstStride;
    case Field::ValidRows: return i.validRows;
    case Field::ValidCols: return i.validCols;
    case Field::H: return i.h;
    case Field::W: return i.w;
    case Field::C: return i.c;
    case Field::Kh: return i.kh;
    case Field::Kw: return i.kw;
    case Field::StrideH: return i.strideH;
    case Field::StrideW: return i.strideW;
    case Field::PadT: return i.padT;
    case Field::PadB: return i.padB;
    case Field::PadL: return i.padL;
    case Field::PadR: return i.padR;
    case Field::DilH: return i.dilH;
    case Field::DilW: return i.dilW;
    case Field::PosStart: return i.posStart;
    case Field::SrcPipe: return static_cast<int64_t>(i.srcPipe);
    case Field::DstPipe: return static_cast<int64_t>(i.dstPipe);
    case Field::Event: return i.event;
    case Field::Dst:
    case Field::Src0:
    case Field::Src1:
    case Field::Src2: break;
  }
  throw CompileError(SourceLocation{}, std::string("internal error: field '") + fieldName(field) +
                                           "' is an address operand");
}

void setField(Instruction& i, Field field, int64_t v) {
  auto u8 = static_cast<uint8_t>(v);
  auto u16 = static_cast<uint16_t>(v);
  switch (field) {
    case Field::Type: i.type = static_cast<DType>(v); return;
    case Field::Type2: i.type2 = static_cast<DType>(v); return;
    case Field::Mode: i.mode = u8; return;
    case Field::Rd: i.rd = u8; return;
    case Field::Ra: i.ra = u8; return;
    case Field::Rb: i.rb = u8; return;
    case Field::Imm: i.imm = v; return;
    case Field::Repeat: i.repeat = u16; return;
    case Field::DstBlk: i.dstBlk = u16; return;
    case Field::Src0Blk: i.src0Blk = u16; return;
    case Field::Src1Blk: i.src1Blk = u16; return;
    case Field::DstRep: i.dstRep = u16; return;
    case Field::Src0Rep: i.src0Rep = u16; return;
    case Field::Src1Rep: i.src1Rep = u16; return;
    case Field::NBurst: i.nburst = u16; return;
    case Field::BurstLen: i.burstLen = u16; return;
    case Field::SrcGap: i.srcGap = u16; return;
    case Field::DstGap: i.dstGap = u16; return;
    case Field::M: i.m = u16; return;
    case Field::K: i.k = u16; return;
    case Field::N: i.n = u16; return;
    case Field::SrcStride: i.srcStride = u16; return;
    case Field::DstStride: i.dstStride = u16; return;
    case Field::ValidRows: i.validRows = u16; return;
    case Field::ValidCols: i.validCols = u16; return;
    case Field::H: i.h = u16; return;
    case Field::W: i.w = u16; return;
    case Field::C: i.c = u16; return;
    case Field::Kh: i.kh = u8; return;
    case Field::Kw: i.kw = u8; return;
    case Field::StrideH: i.strideH = u8; return;
    case Field::StrideW: i.strideW = u8; return;
    case Field::PadT: i.padT = u8; return;
    case Field::PadB: i.padB = u8; return;
    case Field::PadL: i.padL = u8; return;
    case Field::PadR: i.padR = u8; return;
    case Field::DilH: i.dilH = u8; return;
    case Field::DilW: i.dilW = u8; return;
    case Field::PosStart: i.posStart = u16; return;
    case Field::SrcPipe: i.srcPipe = static_cast<Pipe>(v); return;
    case Field::DstPipe: i.dstPipe = static_cast<Pipe>(v); return;
    case Field::Event: i.event = u8; return;
    case Field::Dst:
    case Field::Src0:
    case Field::Src1:
    case Field::Src2: break;
  }
  throw CompileError(SourceLocation{}, std::string("internal error: field '") + fieldName(field) +
                                           "' is an address operand");
}

MemRef& addressField(Instruction& i, Field field) {
  return const_cast<MemRef&>(addressField(static_cast<const Instruction&>(i), field));
}

const MemRef& addressField(const Instruction& i, Field field) {
  switch (field) {
    case Field::Dst: return i.dst;
    case Field::Src0: return i.src0;
    case Field::Src1: return i.src1;
    case Field::Src2: return i.src2;
    default: break;
  }
  throw CompileError(SourceLocation{}, std::string("internal error: field '") + fieldName(field) +
                                           "' is not an address operand");
}

std::array<uint8_t, kInstructionBytes> encode(const Instruction& inst) {
  if (static_cast<int>(inst.op) >= kOpcodeCount) {
    throw CompileError(SourceLocation{}, "cannot encode opcode " + std::to_string(static_cast<int>(inst.op)));
  }
  const OpcodeInfo& info = opcodeInfo(inst.op);
  auto fail = [&](const std::string& what) {
    throw CompileError(SourceLocation{}, std::string("cannot encode ") + info.mnemonic + ": " + what);
  };
  std::array<uint8_t, kInstructionBytes> bytes{};
  bytes[0] = static_cast<uint8_t>(inst.op);
  int pos = kOpcodeBits;
  for (const FieldSpec& spec : formatFields(info.format)) {
    if (isAddressField(spec.field)) {
      const MemRef& ref = addressField(inst, spec.field);
      std::string name = fieldName(spec.field);
      if (static_cast<int>(ref.space) >= kSpaceCount) {
        fail(name + " space " + std::to_string(static_cast<int>(ref.space)) + " is not a memory space");
      }
      if (ref.reg >= kScalarRegisters) fail(name + " register x" + std::to_string(ref.reg) + " does not exist");
      if (ref.offset < spec.min || ref.offset > spec.max) {
        fail(name + " offset " + std::to_string(ref.offset) + " is out of range " + rangeText(spec));
      }
      putBits(bytes, pos, kSpaceBits, static_cast<uint64_t>(ref.space));
      putBits(bytes, pos, kRegBits, ref.reg);
      putBits(bytes, pos, kOffsetBits, static_cast<uint64_t>(ref.offset));
      continue;
    }
    int64_t value = getField(inst, spec.field);
    if (value < spec.min || value > spec.max) {
      fail(std::string(fieldName(spec.field)) + "=" + std::to_string(value) + " is out of range " + rangeText(spec));
    }
    putBits(bytes, pos, spec.bits, static_cast<uint64_t>(value));
  }
  std::string unused = unusedFieldError(inst);
  if (!unused.empty()) fail(unused);
  return bytes;
}

namespace {

Instruction decodeAt(const uint8_t* bytes, size_t index) {
  auto fail = [&](const std::string& what) { throw CompileError(SourceLocation{}, where(index) + what); };
  if (bytes[0] >= kOpcodeCount) fail("unknown opcode " + hex(bytes[0]));
  Instruction inst;
  inst.op = static_cast<Opcode>(bytes[0]);
  const OpcodeInfo& info = opcodeInfo(inst.op);
  const std::string_view mnemonic = info.mnemonic;  // for messages
  int pos = kOpcodeBits;
  for (const FieldSpec& spec : formatFields(info.format)) {
    if (isAddressField(spec.field)) {
      MemRef& ref = addressField(inst, spec.field);
      uint64_t space = getBits(bytes, pos, kSpaceBits);
      if (space >= static_cast<uint64_t>(kSpaceCount)) {
        fail(std::string(mnemonic) + " " + fieldName(spec.field) + " has invalid memory space " + std::to_string(space));
      }
      ref.space = static_cast<Space>(space);
      ref.reg = static_cast<uint8_t>(getBits(bytes, pos, kRegBits));
      ref.offset = signExtend(getBits(bytes, pos, kOffsetBits), kOffsetBits);
      continue;
    }
    uint64_t raw = getBits(bytes, pos, spec.bits);
    int64_t value = spec.min < 0 ? signExtend(raw, spec.bits) : static_cast<int64_t>(raw);
    if (value < spec.min || value > spec.max) {
      fail(std::string(mnemonic) + " has " + fieldName(spec.field) + "=" + std::to_string(value) + ", out of range " +
           rangeText(spec));
    }
    setField(inst, spec.field, value);
  }
  for (int bit = pos; bit < kInstructionBytes * 8;) {
    if (bit % 8 == 0 && bytes[bit / 8] == 0) {  // a whole zero byte
      bit += 8;
      continue;
    }
    if ((bytes[bit / 8] >> (bit % 8)) & 1) {
      fail("padding bit " + std::to_string(bit) + " of " + std::string(mnemonic) + " is set (its fields end at bit " +
           std::to_string(pos - 1) + ")");
    }
    ++bit;
  }
  std::string unused = unusedFieldError(inst);
  if (!unused.empty()) fail(std::string(mnemonic) + ": " + unused);
  return inst;
}

std::string truncatedMessage(size_t size) {
  return "truncated binary: " + std::to_string(size) + " bytes is not a multiple of the " +
         std::to_string(kInstructionBytes) + "-byte instruction size";
}

}  // namespace

Instruction decode(const uint8_t* bytes, size_t size) {
  if (size < static_cast<size_t>(kInstructionBytes)) throw CompileError(SourceLocation{}, truncatedMessage(size));
  return decodeAt(bytes, 0);
}

std::vector<uint8_t> encodeProgram(const std::vector<Instruction>& program) {
  std::vector<uint8_t> out;
  out.reserve(program.size() * kInstructionBytes);
  for (size_t i = 0; i < program.size(); ++i) {
    std::array<uint8_t, kInstructionBytes> bytes;
    try {
      bytes = encode(program[i]);
    } catch (const CompileError& e) {
      throw CompileError(SourceLocation{}, where(i) + e.diagnostic().message);
    }
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

std::vector<Instruction> decodeProgram(const std::vector<uint8_t>& bytes) {
  if (bytes.size() % kInstructionBytes != 0) throw CompileError(SourceLocation{}, truncatedMessage(bytes.size()));
  std::vector<Instruction> program;
  program.reserve(bytes.size() / kInstructionBytes);
  for (size_t i = 0; i * kInstructionBytes < bytes.size(); ++i) {
    program.push_back(decodeAt(bytes.data() + i * kInstructionBytes, i));
  }
  return program;
}

}  // namespace pyasc::isa
