// Assembler and disassembler; one syntax table per format drives both, so printed text always
// assembles back to the same instruction. Field ranges come from the encoding table.
#include "sdk/isa/Assembler.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>

#include "sdk/isa/Encoding.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/support/Float16.h"
#include "sdk/support/EditDistance.h"

namespace pyasc::isa {

namespace {

// The dot-separated suffixes after a mnemonic.
enum class Suffix {
  None,
  Type,       // vadd.f16
  TypeIdx,    // vcmax.f16 or vcmax.f16.idx (mode 1)
  TypeCmp,    // vcmp.f16.lt
  Convert,    // vconv.f32.f16.rint: source type, destination type, rounding mode
  TypePair,   // mmad.f16.f32: source type, accumulator type
  ByteMode,   // copy_gm_ub or copy_gm_ub.b (mode 1)
  Bits16,     // vtranspose.b16
};

enum class OperandKind {
  Register,           // x0..x31 into a register field
  Address,            // space[xR+offset] into an address field
  Integer,            // a number into the field
  RegisterOrInteger,  // rb, or imm with mode 1
  Target,             // branch target: instruction index or label
  Scalar,             // ra, or #imm (a bit pattern) with mode 1
  PipeName,           // S V M MTE1 MTE2 MTE3 FIX ALL
  MaskModeName,       // normal | counter (mode)
  FieldName,          // a geometry field's name (set_field) into imm
};

struct OperandSyntax {
  OperandKind kind;
  Field field;
};

struct OptionSyntax {
  const char* key;
  std::vector<Field> fields;  // one value per field, joined by the separator
  char separator;
};

struct Syntax {
  Suffix suffix;
  std::vector<OperandSyntax> operands;
  std::vector<OptionSyntax> options;
  const char* flag;  // trailing keyword that sets mode 1, or nullptr
};

const Syntax& syntaxOf(Opcode op) {
  using K = OperandKind;
  using F = Field;
  static const OptionSyntax repeat{"repeat", {F::Repeat}, '/'};
  static const Syntax none{Suffix::None, {}, {}, nullptr};
  static const Syntax li{Suffix::None, {{K::Register, F::Rd}, {K::Integer, F::Imm}}, {}, nullptr};
  static const Syntax alu{Suffix::None,
                          {{K::Register, F::Rd}, {K::Register, F::Ra}, {K::RegisterOrInteger, F::Rb}}, {}, nullptr};
  static const Syntax load{Suffix::Type, {{K::Register, F::Rd}, {K::Address, F::Src0}}, {}, nullptr};
  static const Syntax store{Suffix::Type, {{K::Register, F::Ra}, {K::Address, F::Dst}}, {}, nullptr};
  static const Syntax scalarDst{Suffix::None, {{K::Register, F::Rd}}, {}, nullptr};
  static const Syntax branch{Suffix::None,
                             {{K::Register, F::Ra}, {K::Register, F::Rb}, {K::Target, F::Imm}}, {}, nullptr};
  static const Syntax jump{Suffix::None, {{K::Target, F::Imm}}, {}, nullptr};
  static const Syntax maskSet{Suffix::None, {{K::Register, F::Ra}, {K::Register, F::Rb}}, {}, nullptr};
  static const Syntax maskMode{Suffix::None, {{K::MaskModeName, F::Mode}}, {}, nullptr};
  static const Syntax fieldSet{Suffix::None, {{K::FieldName, F::Imm}, {K::Register, F::Ra}}, {}, nullptr};
  static const Syntax flag{Suffix::None,
                           {{K::PipeName, F::SrcPipe}, {K::PipeName, F::DstPipe}, {K::Integer, F::Event}}, {},
                           nullptr};
  static const Syntax barrier{Suffix::None, {{K::PipeName, F::SrcPipe}}, {}, nullptr};
  static const Syntax dma{Suffix::ByteMode,
                          {{K::Address, F::Dst}, {K::Address, F::Src0}},
                          {{"nburst", {F::NBurst}, '/'},
                           {"len", {F::BurstLen}, '/'},
                           {"srcgap", {F::SrcGap}, '/'},
                           {"dstgap", {F::DstGap}, '/'}},
                          nullptr};
  static const Syntax loadL0A{Suffix::Type,
                              {{K::Address, F::Dst}, {K::Address, F::Src0}},
                              {{"m", {F::M}, '/'},
                               {"k", {F::K}, '/'},
                               {"stride", {F::SrcStride}, '/'},
                               {"valid", {F::ValidRows, F::ValidCols}, '/'}},
                              "trans"};
  static const Syntax loadL0B{Suffix::Type,
                              {{K::Address, F::Dst}, {K::Address, F::Src0}},
                              {{"k", {F::K}, '/'},
                               {"n", {F::N}, '/'},
                               {"stride", {F::SrcStride}, '/'},
                               {"valid", {F::ValidRows, F::ValidCols}, '/'}},
                              "trans"};
  static const Syntax img2col{Suffix::Type,
                              {{K::Address, F::Dst}, {K::Address, F::Src0}},
                              {{"h", {F::H}, '/'},
                               {"w", {F::W}, '/'},
                               {"c", {F::C}, '/'},
                               {"kernel", {F::Kh, F::Kw}, 'x'},
                               {"stride", {F::StrideH, F::StrideW}, 'x'},
                               {"pad", {F::PadT, F::PadB, F::PadL, F::PadR}, '/'},
                               {"dilation", {F::DilH, F::DilW}, 'x'},
                               {"pos", {F::PosStart}, '/'},
                               {"m", {F::M}, '/'},
                               {"k", {F::K}, '/'}},
                              nullptr};
  static const Syntax fixpipe{Suffix::Convert,
                              {{K::Address, F::Dst}, {K::Address, F::Src0}},
                              {{"m", {F::M}, '/'},
                               {"n", {F::N}, '/'},
                               {"stride", {F::DstStride}, '/'},
                               {"valid", {F::ValidRows, F::ValidCols}, '/'}},
                              nullptr};
  static const Syntax mmad{Suffix::TypePair,
                           {{K::Address, F::Dst}, {K::Address, F::Src0}, {K::Address, F::Src1}},
                           {{"m", {F::M}, '/'}, {"k", {F::K}, '/'}, {"n", {F::N}, '/'}},
                           "init"};
  static const Syntax vbinary{Suffix::Type,
                              {{K::Address, F::Dst}, {K::Address, F::Src0}, {K::Address, F::Src1}},
                              {repeat,
                               {"blk", {F::DstBlk, F::Src0Blk, F::Src1Blk}, '/'},
                               {"rep", {F::DstRep, F::Src0Rep, F::Src1Rep}, '/'}},
                              nullptr};
  static const OptionSyntax blk2{"blk", {F::DstBlk, F::Src0Blk}, '/'};
  static const OptionSyntax rep2{"rep", {F::DstRep, F::Src0Rep}, '/'};
  static const Syntax vscalar{Suffix::Type,
                              {{K::Address, F::Dst}, {K::Address, F::Src0}, {K::Scalar, F::Ra}},
                              {repeat, blk2, rep2},
                              nullptr};
  static const Syntax vunary{Suffix::Type, {{K::Address, F::Dst}, {K::Address, F::Src0}}, {repeat, blk2, rep2},
                             nullptr};
  static const Syntax vconv{Suffix::Convert, {{K::Address, F::Dst}, {K::Address, F::Src0}}, {repeat, blk2, rep2},
                            nullptr};
  static const Syntax vcmp{Suffix::TypeCmp,
                           {{K::Address, F::Dst}, {K::Address, F::Src0}, {K::Address, F::Src1}},
                           {repeat,
                            {"blk", {F::Src0Blk, F::Src1Blk}, '/'},
                            {"rep", {F::Src0Rep, F::Src1Rep}, '/'}},
                           nullptr};
  static const Syntax vsel{Suffix::Type,
                           {{K::Address, F::Dst}, {K::Address, F::Src0}, {K::Address, F::Src1}, {K::Address, F::Src2}},
                           {repeat,
                            {"blk", {F::DstBlk, F::Src0Blk, F::Src1Blk}, '/'},
                            {"rep", {F::DstRep, F::Src0Rep, F::Src1Rep}, '/'}},
                           nullptr};
  static const Syntax vdup{Suffix::Type,
                           {{K::Address, F::Dst}, {K::Scalar, F::Ra}},
                           {repeat, {"blk", {F::DstBlk}, '/'}, {"rep", {F::DstRep}, '/'}},
                           nullptr};
  static const Syntax vreduce{Suffix::TypeIdx,
                              {{K::Address, F::Dst}, {K::Address, F::Src0}},
                              {repeat, {"blk", {F::Src0Blk}, '/'}, rep2},
                              nullptr};
  static const Syntax vtranspose{Suffix::Bits16, {{K::Address, F::Dst}, {K::Address, F::Src0}}, {repeat, rep2},
                                 nullptr};
  switch (opcodeInfo(op).format) {
    case Format::None: return none;
    case Format::ScalarLi: return li;
    case Format::ScalarAlu: return alu;
    case Format::ScalarLoad: return load;
    case Format::ScalarStore: return store;
    case Format::ScalarDst: return scalarDst;
    case Format::Branch: return branch;
    case Format::Jump: return jump;
    case Format::MaskSet: return maskSet;
    case Format::MaskMode: return maskMode;
    case Format::Flag: return flag;
    case Format::Barrier: return barrier;
    case Format::Dma: return dma;
    case Format::LoadFractal: return op == Opcode::LoadL0B ? loadL0B : loadL0A;
    case Format::Img2Col: return img2col;
    case Format::Fixpipe: return fixpipe;
    case Format::Mmad: return mmad;
    case Format::VBinary: return vbinary;
    case Format::VScalar: return vscalar;
    case Format::VUnary: return vunary;
    case Format::VConv: return vconv;
    case Format::VCmp: return vcmp;
    case Format::VSelect: return vsel;
    case Format::VDup: return vdup;
    case Format::VReduce: return vreduce;
    case Format::VTranspose: return vtranspose;
    case Format::FieldSet: return fieldSet;
  }
  return none;
}

const char* const kRoundModeList = "rint, floor, ceil, trunc or round";
const char* const kCmpModeList = "eq, ne, lt, le, gt or ge";

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// ---------------------------------------------------------------------------------------------
// Disassembly

std::string addressText(const MemRef& ref) {
  std::string s = std::string(spaceName(ref.space)) + "[";
  uint64_t magnitude = ref.offset < 0 ? 0 - static_cast<uint64_t>(ref.offset) : static_cast<uint64_t>(ref.offset);
  if (ref.reg != 0) {
    s += "x" + std::to_string(ref.reg) + (ref.offset < 0 ? "-" : "+");
  } else if (ref.offset < 0) {
    s += "-";
  }
  return s + hex(magnitude) + "]";
}

std::string suffixText(Suffix suffix, const Instruction& inst) {
  std::string t = std::string(".") + dtypeShortName(inst.type);
  std::string t2 = std::string(".") + dtypeShortName(inst.type2);
  switch (suffix) {
    case Suffix::None: return "";
    case Suffix::Type: return t;
    case Suffix::TypeIdx: return t + (inst.mode ? ".idx" : "");
    case Suffix::TypeCmp: return t + "." + cmpModeName(static_cast<CmpMode>(inst.mode));
    case Suffix::Convert: return t + t2 + "." + roundModeName(static_cast<RoundMode>(inst.mode));
    case Suffix::TypePair: return t + t2;
    case Suffix::ByteMode: return inst.mode ? ".b" : "";
    case Suffix::Bits16: return ".b16";
  }
  return "";
}

std::string operandText(const OperandSyntax& operand, const Instruction& inst) {
  switch (operand.kind) {
    case OperandKind::Register: return "x" + std::to_string(getField(inst, operand.field));
    case OperandKind::Address: return addressText(addressField(inst, operand.field));
    case OperandKind::Integer:
    case OperandKind::Target: return std::to_string(getField(inst, operand.field));
    case OperandKind::RegisterOrInteger:
      return inst.mode ? std::to_string(inst.imm) : "x" + std::to_string(getField(inst, operand.field));
    case OperandKind::Scalar:
      if (inst.mode) return "#" + hex(static_cast<uint64_t>(inst.imm));
      return "x" + std::to_string(getField(inst, operand.field));
    case OperandKind::PipeName: return pipeName(static_cast<Pipe>(getField(inst, operand.field)));
    case OperandKind::MaskModeName: return inst.mode ? "counter" : "normal";
    case OperandKind::FieldName: return fieldName(registerField(getField(inst, operand.field)));
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Assembly

struct Token {
  std::string text;
  int col;  // 1-based column of text[0]
};

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// A number as written: sign and magnitude, so that 64-bit patterns and negative values both fit.
struct Number {
  bool negative = false;
  uint64_t magnitude = 0;
};

// Scans [+-]?(0x[0-9a-f]+|[0-9]+) at s[pos]; false when there is no number or it overflows 64 bits.
bool scanNumber(const std::string& s, size_t& pos, Number& out, bool& overflow) {
  overflow = false;
  size_t p = pos;
  out = Number{};
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) out.negative = s[p++] == '-';
  int base = 10;
  if (p + 1 < s.size() && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X') && p + 2 < s.size() &&
      std::isxdigit(static_cast<unsigned char>(s[p + 2]))) {
    base = 16;
    p += 2;
  }
  size_t digitsStart = p;
  while (p < s.size()) {
    char c = s[p];
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c))) {
      digit = std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    } else {
      break;
    }
    if (out.magnitude > (std::numeric_limits<uint64_t>::max() - digit) / base) overflow = true;
    out.magnitude = out.magnitude * base + digit;
    ++p;
  }
  if (p == digitsStart) return false;
  pos = p;
  return !overflow;
}

// The end of the number-shaped text at s[pos]: sign, optional 0x (when `hex`), then digits.
size_t numberEnd(const std::string& s, size_t pos, bool hex) {
  size_t p = pos;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) ++p;
  bool hexDigits = hex && p + 2 < s.size() && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X') &&
                   std::isxdigit(static_cast<unsigned char>(s[p + 2]));
  if (hexDigits) p += 2;
  size_t digits = p;
  while (p < s.size() && (hexDigits ? std::isxdigit(static_cast<unsigned char>(s[p]))
                                    : std::isdigit(static_cast<unsigned char>(s[p])))) {
    ++p;
  }
  return p == digits ? pos : p;
}

// The value of a number in a field of `spec`, or false when it is outside the field's range.
// A 64-bit signed field also takes unsigned 64-bit patterns; a 32-bit bit pattern (`pattern`)
// also takes negative 32-bit values as their two's complement.
bool fieldValue(const Number& number, const FieldSpec& spec, int64_t& out, bool pattern = false) {
  if (spec.bits == 64 && spec.min < 0) {
    if (number.negative && number.magnitude > uint64_t{1} << 63) return false;
    out = static_cast<int64_t>(number.negative ? 0 - number.magnitude : number.magnitude);
    return true;
  }
  if (number.magnitude > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
  int64_t value = number.negative ? -static_cast<int64_t>(number.magnitude) : static_cast<int64_t>(number.magnitude);
  if (pattern && value < 0 && value >= std::numeric_limits<int32_t>::min()) {
    value += int64_t{1} << 32;
  }
  if (value < spec.min || value > spec.max) return false;
  out = value;
  return true;
}

std::string rangeText(const FieldSpec& spec) { return std::to_string(spec.min) + ".." + std::to_string(spec.max); }

// A reference to a label, resolved once the whole file has been read.
struct LabelUse {
  size_t instruction;
  Token label;
};

class LineAssembler {
 public:
  LineAssembler(const std::string& file, int line, std::vector<LabelUse>& labelUses, size_t index)
      : file_(file), line_(line), labelUses_(labelUses), index_(index) {}

  Instruction assemble(const Token& statement);

 private:
  [[noreturn]] void error(int col, const std::string& message) const {
    throw CompileError(SourceLocation{file_, line_, col}, message);
  }

  void parseSuffixes(const Syntax& syntax, const std::vector<Token>& suffixes, const Token& mnemonic);
  DType parseType(const Token& token) const;
  void parseOperand(const OperandSyntax& operand, const Token& token);
  void parseOption(const Syntax& syntax, const Token& token, std::vector<std::string>& seen);
  uint8_t parseRegister(const Token& token) const;
  MemRef parseAddress(const Token& token, const FieldSpec& spec) const;
  int64_t parseFieldNumber(const Token& token, Field field, const std::string& what, bool pattern = false) const;
  int64_t parseFloatPattern(const Token& token) const;

  const FieldSpec& spec(Field field) const {
    const FieldSpec* s = findField(opcodeInfo(inst_.op).format, field);
    if (!s) error(1, std::string("internal error: field ") + fieldName(field) + " is not encoded");
    return *s;
  }

  std::string file_;
  int line_;
  std::vector<LabelUse>& labelUses_;
  size_t index_;
  Instruction inst_;
  std::string mnemonic_;
};

std::vector<Token> splitOperands(const std::string& text, int col) {
  std::vector<Token> out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string piece = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t first = piece.find_first_not_of(" \t");
    size_t last = piece.find_last_not_of(" \t");
    if (first == std::string::npos) {
      out.push_back(Token{"", col + static_cast<int>(start)});
    } else {
      out.push_back(Token{piece.substr(first, last - first + 1), col + static_cast<int>(start + first)});
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Instruction LineAssembler::assemble(const Token& statement) {
  const std::string& text = statement.text;
  size_t mnemonicEnd = text.find_first_of(" \t");
  std::string word = text.substr(0, mnemonicEnd);
  std::vector<Token> parts;
  size_t start = 0;
  while (true) {
    size_t dot = word.find('.', start);
    parts.push_back(Token{word.substr(start, dot == std::string::npos ? std::string::npos : dot - start),
                          statement.col + static_cast<int>(start)});
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const Token mnemonic = parts.front();
  Opcode op;
  if (!parseMnemonic(mnemonic.text, op)) {
    std::string best;
    size_t bestDistance = 3;
    for (int i = 0; i < kOpcodeCount; ++i) {
      std::string candidate = opcodeInfo(static_cast<Opcode>(i)).mnemonic;
      size_t d = editDistance(mnemonic.text, candidate);
      if (d < bestDistance && d < candidate.size()) {
        bestDistance = d;
        best = candidate;
      }
    }
    std::string hint = best.empty() ? "" : "; did you mean '" + best + "'?";
    error(mnemonic.col, "unknown mnemonic '" + mnemonic.text + "'" + hint);
  }
  inst_.op = op;
  mnemonic_ = mnemonic.text;
  const Syntax& syntax = syntaxOf(op);
  parseSuffixes(syntax, std::vector<Token>(parts.begin() + 1, parts.end()), mnemonic);

  std::vector<Token> operands;
  if (mnemonicEnd != std::string::npos && text.find_first_not_of(" \t", mnemonicEnd) != std::string::npos) {
    operands = splitOperands(text.substr(mnemonicEnd), statement.col + static_cast<int>(mnemonicEnd));
  }
  std::vector<Token> positional;
  std::vector<Token> options;
  bool flagSeen = false;
  for (const Token& operand : operands) {
    if (operand.text.empty()) error(operand.col, "expected an operand");
    if (operand.text.find('=') != std::string::npos) {
      options.push_back(operand);
    } else if (syntax.flag && operand.text == syntax.flag) {
      if (flagSeen) error(operand.col, std::string("duplicate '") + syntax.flag + "'");
      flagSeen = true;
    } else if (!options.empty() || flagSeen) {
      error(operand.col, "unexpected operand '" + operand.text + "' after the options of " + mnemonic_);
    } else {
      positional.push_back(operand);
    }
  }
  if (positional.size() != syntax.operands.size()) {
    size_t want = syntax.operands.size();
    std::string got = ", got " + std::to_string(positional.size());
    if (want == 0) error(mnemonic.col, mnemonic_ + " takes no operands" + got);
    error(mnemonic.col, mnemonic_ + " needs " + std::to_string(want) + (want == 1 ? " operand" : " operands") + got);
  }
  for (size_t i = 0; i < positional.size(); ++i) parseOperand(syntax.operands[i], positional[i]);
  std::vector<std::string> seen;
  for (const Token& option : options) parseOption(syntax, option, seen);
  if (flagSeen) inst_.mode = 1;
  return inst_;
}

DType LineAssembler::parseType(const Token& token) const {
  for (int i = 0; i < kDTypeCount; ++i) {
    if (token.text == dtypeShortName(static_cast<DType>(i))) return static_cast<DType>(i);
  }
  error(token.col, "unknown type suffix '" + token.text + "'; expected one of b8 s8 u8 s16 s32 s64 f16 f32 f64");
}

void LineAssembler::parseSuffixes(const Syntax& syntax, const std::vector<Token>& suffixes, const Token& mnemonic) {
  auto need = [&](size_t count, const std::string& example, const std::string& what) {
    if (suffixes.size() < count) error(mnemonic.col, mnemonic_ + " needs " + what + ", as in '" + example + "'");
  };
  auto noMoreThan = [&](size_t count) {
    if (suffixes.size() > count) {
      error(suffixes[count].col, "unexpected suffix '." + suffixes[count].text + "' on " + mnemonic_);
    }
  };
  switch (syntax.suffix) {
    case Suffix::None: noMoreThan(0); return;
    case Suffix::Type:
      need(1, mnemonic_ + ".f16", "a type suffix");
      noMoreThan(1);
      inst_.type = parseType(suffixes[0]);
      return;
    case Suffix::TypeIdx:
      need(1, mnemonic_ + ".f16", "a type suffix");
      noMoreThan(2);
      inst_.type = parseType(suffixes[0]);
      if (suffixes.size() == 2) {
        if (suffixes[1].text != "idx") {
          error(suffixes[1].col, "unknown suffix '." + suffixes[1].text + "' on " + mnemonic_ + "; expected '.idx'");
        }
        inst_.mode = 1;
      }
      return;
    case Suffix::TypeCmp: {
      need(2, mnemonic_ + ".f16.lt", "a type and a compare mode");
      noMoreThan(2);
      inst_.type = parseType(suffixes[0]);
      CmpMode mode;
      if (!parseCmpMode(suffixes[1].text, mode)) {
        error(suffixes[1].col, "unknown compare mode '" + suffixes[1].text + "'; expected " + kCmpModeList);
      }
      inst_.mode = static_cast<uint8_t>(mode);
      return;
    }
    case Suffix::Convert: {
      need(3, mnemonic_ + ".f32.f16.rint", "a source type, a destination type and a rounding mode");
      noMoreThan(3);
      inst_.type = parseType(suffixes[0]);
      inst_.type2 = parseType(suffixes[1]);
      RoundMode mode;
      if (!parseRoundMode(suffixes[2].text.c_str(), mode)) {
        error(suffixes[2].col, "unknown rounding mode '" + suffixes[2].text + "'; expected " + kRoundModeList);
      }
      inst_.mode = static_cast<uint8_t>(mode);
      return;
    }
    case Suffix::TypePair:
      need(2, mnemonic_ + ".f16.f32", "a source type and an accumulator type");
      noMoreThan(2);
      inst_.type = parseType(suffixes[0]);
      inst_.type2 = parseType(suffixes[1]);
      return;
    case Suffix::ByteMode:
      noMoreThan(1);
      if (!suffixes.empty()) {
        if (suffixes[0].text != "b") {
          error(suffixes[0].col, "unknown suffix '." + suffixes[0].text + "' on " + mnemonic_ +
                                     "; the only suffix is '.b' (byte mode)");
        }
        inst_.mode = 1;
      }
      return;
    case Suffix::Bits16:
      need(1, mnemonic_ + ".b16", "the suffix '.b16'");
      noMoreThan(1);
      if (suffixes[0].text != "b16") {
        error(suffixes[0].col, "unknown suffix '." + suffixes[0].text + "' on " + mnemonic_ + "; expected '.b16'");
      }
      return;
  }
}

uint8_t LineAssembler::parseRegister(const Token& token) const {
  const std::string& s = token.text;
  bool digits = s.size() >= 2 && s.size() <= 3 && s[0] == 'x' &&
                std::all_of(s.begin() + 1, s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (!digits || std::stoi(s.substr(1)) >= kScalarRegisters) {
    error(token.col, "expected a register x0..x31, got '" + s + "'");
  }
  return static_cast<uint8_t>(std::stoi(s.substr(1)));
}

MemRef LineAssembler::parseAddress(const Token& token, const FieldSpec& fieldSpec) const {
  const std::string& s = token.text;
  size_t open = s.find('[');
  if (open == std::string::npos || s.back() != ']') {
    error(token.col, "expected an address like 'ub[x1+0x20]', got '" + s + "'");
  }
  MemRef ref;
  std::string space = s.substr(0, open);
  if (!parseSpace(space, ref.space)) {
    error(token.col, "unknown memory space '" + space + "'; expected gm, ub, l1, l0a, l0b or l0c");
  }
  std::string inner = s.substr(open + 1, s.size() - open - 2);
  int innerCol = token.col + static_cast<int>(open) + 1;
  size_t pos = 0;
  if (!inner.empty() && inner[0] == 'x') {
    size_t end = 1;
    while (end < inner.size() && std::isdigit(static_cast<unsigned char>(inner[end]))) ++end;
    ref.reg = parseRegister(Token{inner.substr(0, end), innerCol});
    pos = end;
    if (pos == inner.size()) return ref;
    if (inner[pos] != '+' && inner[pos] != '-') {
      error(innerCol + static_cast<int>(pos), "expected '+' or '-' after the register in '" + s + "'");
    }
  }
  Number number;
  bool overflow;
  size_t numberStart = pos;
  if (!scanNumber(inner, pos, number, overflow) || pos != inner.size()) {
    error(innerCol + static_cast<int>(numberStart), "expected a byte offset in '" + s + "'");
  }
  int64_t offset;
  if (!fieldValue(number, fieldSpec, offset)) {
    std::string written = inner.substr(numberStart + (inner[numberStart] == '+' ? 1 : 0));
    error(innerCol + static_cast<int>(numberStart), "offset " + written + " is out of range " + rangeText(fieldSpec));
  }
  ref.offset = offset;
  return ref;
}

int64_t LineAssembler::parseFieldNumber(const Token& token, Field field, const std::string& what, bool pattern) const {
  Number number;
  bool overflow;
  size_t pos = 0;
  if (!scanNumber(token.text, pos, number, overflow) || pos != token.text.size()) {
    if (overflow) error(token.col, what + token.text + " is out of range " + rangeText(spec(field)));
    error(token.col, "expected an integer, got '" + token.text + "'");
  }
  int64_t value;
  if (!fieldValue(number, spec(field), value, pattern)) {
    error(token.col, what + token.text + " is out of range " + rangeText(spec(field)));
  }
  return value;
}

// A floating-point immediate (`#1.5`, `#-inf`, `#nan`) as the bit pattern of the f16 or f32 type.
int64_t LineAssembler::parseFloatPattern(const Token& token) const {
  const char* begin = token.text.c_str();
  char* end = nullptr;
  double value = std::strtod(begin, &end);
  if (token.text.empty() || end != begin + token.text.size()) {
    error(token.col, "expected a number, got '" + token.text + "'");
  }
  if (inst_.type == DType::Float16) return doubleToHalf(value, RoundMode::Rint);
  if (inst_.type == DType::Float32) return floatToBits(doubleToFloat(value, RoundMode::Rint));
  error(token.col,
        std::string("a floating-point immediate needs an f16 or f32 type, not ") + dtypeShortName(inst_.type));
}

void LineAssembler::parseOperand(const OperandSyntax& operand, const Token& token) {
  switch (operand.kind) {
    case OperandKind::Register: setField(inst_, operand.field, parseRegister(token)); return;
    case OperandKind::Address: addressField(inst_, operand.field) = parseAddress(token, spec(operand.field)); return;
    case OperandKind::Integer:
      setField(inst_, operand.field,
               parseFieldNumber(token, operand.field, operand.field == Field::Event ? "event " : "immediate "));
      return;
    case OperandKind::RegisterOrInteger:
      if (!token.text.empty() && token.text[0] == 'x') {
        setField(inst_, operand.field, parseRegister(token));
      } else {
        inst_.mode = 1;
        inst_.imm = parseFieldNumber(token, Field::Imm, "immediate ");
      }
      return;
    case OperandKind::Scalar:
      if (!token.text.empty() && token.text[0] == '#') {
        inst_.mode = 1;
        Token bits{token.text.substr(1), token.col + 1};
        bool isFloat = bits.text.find_first_of(".in") != std::string::npos;  // 1.5, inf, nan
        inst_.imm = isFloat ? parseFloatPattern(bits) : parseFieldNumber(bits, Field::Imm, "scalar immediate ", true);
      } else if (!token.text.empty() && token.text[0] == 'x') {
        setField(inst_, operand.field, parseRegister(token));
      } else {
        error(token.col, "expected a register or an immediate like '#0x3c00', got '" + token.text + "'");
      }
      return;
    case OperandKind::Target:
      if (!token.text.empty() && isIdentStart(token.text[0])) {
        if (!std::all_of(token.text.begin(), token.text.end(), isIdentChar)) {
          error(token.col, "expected an instruction index or a label, got '" + token.text + "'");
        }
        labelUses_.push_back(LabelUse{index_, token});
      } else {
        inst_.imm = parseFieldNumber(token, Field::Imm, "branch target ");
      }
      return;
    case OperandKind::PipeName: {
      Pipe pipe;
      if (!parsePipe(token.text, pipe)) {
        error(token.col, "unknown pipe '" + token.text + "'; expected S, V, M, MTE1, MTE2, MTE3, FIX or ALL");
      }
      if (static_cast<int64_t>(pipe) > spec(operand.field).max) {
        error(token.col, mnemonic_ + " cannot name pipe " + pipeName(pipe));
      }
      setField(inst_, operand.field, static_cast<int64_t>(pipe));
      return;
    }
    case OperandKind::MaskModeName:
      if (token.text != "normal" && token.text != "counter") {
        error(token.col, "expected 'normal' or 'counter', got '" + token.text + "'");
      }
      inst_.mode = token.text == "counter";
      return;
    case OperandKind::FieldName: {
      Field field;
      if (!parseFieldName(token.text, field) || field < kFirstRegisterField || field > kLastRegisterField) {
        std::string names;
        for (int f = static_cast<int>(kFirstRegisterField); f <= static_cast<int>(kLastRegisterField); ++f)
          names += std::string(names.empty() ? "" : ", ") + fieldName(static_cast<Field>(f));
        error(token.col, "'" + token.text + "' is not a field a register can supply; expected one of " + names);
      }
      inst_.imm = static_cast<int64_t>(field) - static_cast<int64_t>(kFirstRegisterField);
      return;
    }
  }
}

void LineAssembler::parseOption(const Syntax& syntax, const Token& token, std::vector<std::string>& seen) {
  size_t eq = token.text.find('=');
  std::string key = token.text.substr(0, eq);
  size_t keyEnd = key.find_last_not_of(" \t");
  key = keyEnd == std::string::npos ? "" : key.substr(0, keyEnd + 1);
  const OptionSyntax* option = nullptr;
  std::string known;
  for (const OptionSyntax& candidate : syntax.options) {
    if (key == candidate.key) option = &candidate;
    known += std::string(known.empty() ? "" : ", ") + candidate.key;
  }
  if (!option) {
    std::string hint = known.empty() ? "; it takes no options" : "; expected one of " + known;
    for (const OptionSyntax& candidate : syntax.options) {
      if (editDistance(key, candidate.key) <= 2 && editDistance(key, candidate.key) < key.size()) {
        hint = std::string("; did you mean '") + candidate.key + "'?";
        break;
      }
    }
    error(token.col, "unknown option '" + key + "' for " + mnemonic_ + hint);
  }
  if (std::find(seen.begin(), seen.end(), key) != seen.end()) error(token.col, "duplicate option '" + key + "'");
  seen.push_back(key);

  size_t valueStart = token.text.find_first_not_of(" \t", eq + 1);
  std::string value = valueStart == std::string::npos ? "" : token.text.substr(valueStart);
  int valueCol = token.col + static_cast<int>(valueStart == std::string::npos ? eq + 1 : valueStart);
  std::vector<Token> values;
  size_t pos = 0;
  while (true) {
    size_t start = pos;
    // In "3x3" the x separates values, so those options are decimal only.
    pos = numberEnd(value, pos, option->separator != 'x');
    if (pos == start) error(valueCol + static_cast<int>(start), "expected an integer in " + key + "=" + value);
    values.push_back(Token{value.substr(start, pos - start), valueCol + static_cast<int>(start)});
    if (pos == value.size()) break;
    if (value[pos] != option->separator) {
      error(valueCol + static_cast<int>(pos),
            std::string("expected '") + option->separator + "' in " + key + "=" + value);
    }
    ++pos;
  }
  if (values.size() != option->fields.size()) {
    std::string example;
    for (size_t i = 0; i < option->fields.size(); ++i) example += (i ? std::string(1, option->separator) : "") + "N";
    error(valueCol, key + " needs " + std::to_string(option->fields.size()) + " values (" + key + "=" + example +
                        "), got " + std::to_string(values.size()));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    std::string what = values.size() == 1 ? key + "=" : key + " value ";
    int64_t v = parseFieldNumber(values[i], option->fields[i], what);
    setField(inst_, option->fields[i], v);
  }
}

// Splits leading `label:` definitions off a line; returns the statement that follows, if any.
Token takeLabels(const Token& line, std::vector<Token>& labels) {
  Token rest = line;
  while (true) {
    size_t end = 0;
    const std::string& s = rest.text;
    if (s.empty() || !isIdentStart(s[0])) return rest;
    while (end < s.size() && isIdentChar(s[end])) ++end;
    size_t colon = s.find_first_not_of(" \t", end);
    if (colon == std::string::npos || s[colon] != ':') return rest;
    labels.push_back(Token{s.substr(0, end), rest.col});
    size_t next = s.find_first_not_of(" \t", colon + 1);
    if (next == std::string::npos) return Token{"", rest.col + static_cast<int>(s.size())};
    rest = Token{s.substr(next), rest.col + static_cast<int>(next)};
  }
}

}  // namespace

std::string disassemble(const Instruction& inst) {
  encode(inst);  // only an encodable instruction has a text form; this throws for any other
  const Syntax& syntax = syntaxOf(inst.op);
  std::string text = std::string(opcodeInfo(inst.op).mnemonic) + suffixText(syntax.suffix, inst);
  std::vector<std::string> parts;
  for (const OperandSyntax& operand : syntax.operands) parts.push_back(operandText(operand, inst));
  for (const OptionSyntax& option : syntax.options) {
    std::string part = std::string(option.key) + "=";
    for (size_t i = 0; i < option.fields.size(); ++i) {
      if (i) part += option.separator;
      part += std::to_string(getField(inst, option.fields[i]));
    }
    parts.push_back(part);
  }
  if (syntax.flag && inst.mode) parts.push_back(syntax.flag);
  for (size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : " ") + parts[i];
  return text;
}

std::vector<Instruction> assemble(const std::string& text, const std::string& fileName) {
  std::vector<Instruction> program;
  std::vector<LabelUse> labelUses;
  std::map<std::string, std::pair<size_t, int>> labels;  // name -> (instruction index, line)
  std::vector<int> lineOf;
  size_t lineStart = 0;
  for (int lineNo = 1; lineStart <= text.size(); ++lineNo) {
    size_t lineEnd = text.find('\n', lineStart);
    std::string line = text.substr(lineStart, lineEnd == std::string::npos ? std::string::npos : lineEnd - lineStart);
    lineStart = lineEnd == std::string::npos ? text.size() + 1 : lineEnd + 1;
    size_t comment = std::min(line.find(';'), line.find("//"));
    if (comment != std::string::npos) line.erase(comment);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    size_t last = line.find_last_not_of(" \t");
    std::vector<Token> defined;
    Token statement = takeLabels(Token{line.substr(first, last - first + 1), static_cast<int>(first) + 1}, defined);
    for (const Token& label : defined) {
      auto it = labels.find(label.text);
      if (it != labels.end()) {
        throw CompileError(SourceLocation{fileName, lineNo, label.col},
                           "label '" + label.text + "' is already defined on line " +
                               std::to_string(it->second.second));
      }
      labels[label.text] = {program.size(), lineNo};
    }
    if (statement.text.empty()) continue;
    LineAssembler lineAssembler(fileName, lineNo, labelUses, program.size());
    program.push_back(lineAssembler.assemble(statement));
    lineOf.push_back(lineNo);
  }
  for (const LabelUse& use : labelUses) {
    auto it = labels.find(use.label.text);
    if (it == labels.end()) {
      throw CompileError(SourceLocation{fileName, lineOf[use.instruction], use.label.col},
                         "undefined label '" + use.label.text + "'");
    }
    program[use.instruction].imm = static_cast<int64_t>(it->second.first);
  }
  return program;
}

}  // namespace pyasc::isa
