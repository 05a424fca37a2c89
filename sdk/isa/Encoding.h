// The 32-byte binary encoding of instructions, driven by one table of fields per format.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sdk/isa/ISA.h"

namespace pyasc::isa {

// The Instruction members a format can encode; an address operand (MemRef) is one field.
enum class Field : uint8_t {
  Type, Type2, Mode, Dst, Src0, Src1, Src2, Rd, Ra, Rb, Imm,
  Repeat, DstBlk, Src0Blk, Src1Blk, DstRep, Src0Rep, Src1Rep,
  NBurst, BurstLen, SrcGap, DstGap, M, K, N, SrcStride, DstStride, ValidRows, ValidCols,
  H, W, C, Kh, Kw, StrideH, StrideW, PadT, PadB, PadL, PadR, DilH, DilW, PosStart,
  SrcPipe, DstPipe, Event,
};
const char* fieldName(Field f);  // the Instruction member name: "repeat", "dstBlk", ...
bool parseFieldName(const std::string& name, Field& out);
// The fields `set_field` can take from a register: the geometry from Repeat to PosStart (repeat
// counts, strides, burst counts and lengths, gaps, cube and img2col sizes, paddings, positions).
constexpr Field kFirstRegisterField = Field::Repeat;
constexpr Field kLastRegisterField = Field::PosStart;
// set_field's imm: the field's number counted from kFirstRegisterField.
inline Field registerField(int64_t imm) { return static_cast<Field>(static_cast<int64_t>(kFirstRegisterField) + imm); }
bool isAddressField(Field f);    // Dst, Src0, Src1, Src2

// One field of a format's encoding: its width in bits and the values it accepts. For an address
// operand the width is 48 (space 3, register 5, offset 40) and min/max bound the offset.
struct FieldSpec {
  Field field;
  int bits;
  int64_t min;
  int64_t max;
};
constexpr int kAddressBits = 48;
constexpr int kOpcodeBits = 8;
constexpr int kPayloadBits = kInstructionBytes * 8 - kOpcodeBits;

// The fields of a format in encoding order (packed LSB-first from bit 8).
const std::vector<FieldSpec>& formatFields(Format format);
// The spec of `field` in `format`, or nullptr when the format does not use it.
const FieldSpec* findField(Format format, Field field);

// Reads or writes a non-address field as an integer (enums as their underlying value).
int64_t getField(const Instruction& inst, Field field);
void setField(Instruction& inst, Field field, int64_t value);
MemRef& addressField(Instruction& inst, Field field);
const MemRef& addressField(const Instruction& inst, Field field);

// Encodes one instruction; throws CompileError when a field does not fit its encoding or when a
// field its mode or opcode leaves unused is not zero (the scalar ALU's rb or imm, the vadds/vdup
// scalar's ra or imm, load_l0a's n, load_l0b's m), so that every binary has one text form.
std::array<uint8_t, kInstructionBytes> encode(const Instruction& inst);
// Decodes the instruction at `bytes` (size must be at least 32); throws CompileError on an
// unknown opcode, non-zero padding, a field value outside its range or a non-zero unused field.
Instruction decode(const uint8_t* bytes, size_t size);

std::vector<uint8_t> encodeProgram(const std::vector<Instruction>& program);
// Decodes a whole binary; errors name the instruction index and its byte offset.
std::vector<Instruction> decodeProgram(const std::vector<uint8_t>& bytes);

}  // namespace pyasc::isa
