// Encoder/decoder: round trips of random instances of every opcode, range checks and rejections.
#include "sdk/isa/Encoding.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>

#include "sdk/support/Diagnostics.h"
#include "tests/unit/sdk/IsaTestUtil.h"

using namespace pyasc;
using namespace pyasc::isa;

namespace {

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const CompileError& e) {
    return e.diagnostic().message;
  }
  return "no error";
}

Instruction vadd() {
  Instruction inst;
  inst.op = Opcode::VAdd;
  return inst;
}

}  // namespace

TEST(IsaTable, OpcodesMatchTheirIndexAndMnemonic) {
  for (int i = 0; i < kOpcodeCount; ++i) {
    const OpcodeInfo& info = opcodeInfo(static_cast<Opcode>(i));
    EXPECT_EQ(static_cast<int>(info.op), i);
    Opcode parsed;
    ASSERT_TRUE(parseMnemonic(info.mnemonic, parsed)) << info.mnemonic;
    EXPECT_EQ(parsed, info.op);
  }
  Opcode unused;
  EXPECT_FALSE(parseMnemonic("vaddd", unused));
}

TEST(IsaTable, NamesParseBack) {
  for (int p = 0; p <= kPipeCount; ++p) {
    Pipe parsed;
    ASSERT_TRUE(parsePipe(pipeName(static_cast<Pipe>(p)), parsed));
    EXPECT_EQ(static_cast<int>(parsed), p);
  }
  Pipe pipe;
  EXPECT_TRUE(parsePipe("mte2", pipe));
  EXPECT_EQ(pipe, Pipe::MTE2);
  for (int s = 0; s < kSpaceCount; ++s) {
    Space parsed;
    ASSERT_TRUE(parseSpace(spaceName(static_cast<Space>(s)), parsed));
    EXPECT_EQ(static_cast<int>(parsed), s);
  }
  for (int m = 0; m < kCmpModeCount; ++m) {
    CmpMode parsed;
    ASSERT_TRUE(parseCmpMode(cmpModeName(static_cast<CmpMode>(m)), parsed));
    EXPECT_EQ(static_cast<int>(parsed), m);
  }
}

TEST(IsaTable, IssuePipeFollowsTheRules) {
  Instruction inst;
  inst.op = Opcode::SetFlag;
  inst.srcPipe = Pipe::MTE2;
  inst.dstPipe = Pipe::V;
  EXPECT_EQ(issuePipe(inst), Pipe::MTE2);
  inst.op = Opcode::WaitFlag;
  EXPECT_EQ(issuePipe(inst), Pipe::V);
  inst.op = Opcode::Barrier;
  EXPECT_EQ(issuePipe(inst), Pipe::MTE2);
  inst.op = Opcode::Mmad;
  EXPECT_EQ(issuePipe(inst), Pipe::M);
  inst.op = Opcode::CopyUbToGm;
  EXPECT_EQ(issuePipe(inst), Pipe::MTE3);
  inst.op = Opcode::FixL0CToGm;
  EXPECT_EQ(issuePipe(inst), Pipe::FIX);
  inst.op = Opcode::Li;
  EXPECT_EQ(issuePipe(inst), Pipe::S);
}

TEST(IsaTable, EqualityComparesEveryEncodedField) {
  for (int op = 0; op < kOpcodeCount; ++op) {
    Instruction base;
    base.op = static_cast<Opcode>(op);
    for (const FieldSpec& spec : formatFields(opcodeInfo(base.op).format)) {
      Instruction changed = base;
      if (isAddressField(spec.field)) {
        addressField(changed, spec.field).offset += 32;
      } else {
        setField(changed, spec.field, getField(base, spec.field) == spec.min ? spec.min + 1 : spec.min);
      }
      EXPECT_NE(base, changed) << opcodeInfo(base.op).mnemonic << " " << fieldName(spec.field);
    }
  }
}

TEST(Encoding, EveryFormatFitsIn32Bytes) {
  for (int op = 0; op < kOpcodeCount; ++op) {
    int bits = 0;
    for (const FieldSpec& spec : formatFields(opcodeInfo(static_cast<Opcode>(op)).format)) bits += spec.bits;
    EXPECT_LE(bits, kPayloadBits) << opcodeInfo(static_cast<Opcode>(op)).mnemonic;
  }
}

TEST(Encoding, DefaultInstanceOfEveryOpcodeRoundTrips) {
  for (int op = 0; op < kOpcodeCount; ++op) {
    Instruction inst;
    inst.op = static_cast<Opcode>(op);
    auto bytes = encode(inst);
    EXPECT_EQ(bytes[0], op);
    EXPECT_EQ(decode(bytes.data(), bytes.size()), inst) << opcodeInfo(inst.op).mnemonic;
  }
}

TEST(Encoding, RandomInstancesOfEveryOpcodeRoundTrip) {
  std::mt19937_64 rng(2024);
  std::vector<Instruction> program;
  for (int op = 0; op < kOpcodeCount; ++op) {
    for (int trial = 0; trial < 300; ++trial) {
      Instruction inst = test::randomInstruction(static_cast<Opcode>(op), rng);
      auto bytes = encode(inst);
      ASSERT_EQ(decode(bytes.data(), bytes.size()), inst) << opcodeInfo(inst.op).mnemonic << " trial " << trial;
      program.push_back(inst);
    }
  }
  std::vector<uint8_t> binary = encodeProgram(program);
  ASSERT_EQ(binary.size(), program.size() * kInstructionBytes);
  EXPECT_EQ(decodeProgram(binary), program);
}

TEST(Encoding, PinsTheLayoutOfLi) {
  Instruction inst;
  inst.op = Opcode::Li;
  inst.rd = 3;
  inst.imm = -5;
  auto bytes = encode(inst);
  // opcode 0; rd = 3 in bits 8..12; imm = -5 in bits 13..76, LSB first.
  std::array<uint8_t, kInstructionBytes> expected{};
  expected[1] = 0x63;
  for (int i = 2; i <= 8; ++i) expected[i] = 0xff;
  expected[9] = 0x1f;
  EXPECT_EQ(bytes, expected);
}

TEST(Encoding, RejectsValuesThatDoNotFit) {
  Instruction inst = vadd();
  inst.repeat = 300;
  EXPECT_EQ(errorOf([&] { encode(inst); }), "cannot encode vadd: repeat=300 is out of range 0..255");
  inst = vadd();
  inst.src1.offset = int64_t{1} << 40;
  EXPECT_EQ(errorOf([&] { encode(inst); }),
            "cannot encode vadd: src1 offset 1099511627776 is out of range -549755813888..549755813887");
  inst = vadd();
  inst.dst.reg = 32;
  EXPECT_EQ(errorOf([&] { encode(inst); }), "cannot encode vadd: dst register x32 does not exist");
  inst.op = Opcode::CopyGmToUb;
  inst.dst.reg = 0;
  inst.nburst = 5000;
  EXPECT_EQ(errorOf([&] { encode(inst); }), "cannot encode copy_gm_ub: nburst=5000 is out of range 0..4095");
  inst = Instruction{};
  inst.op = Opcode::SetFlag;
  inst.srcPipe = Pipe::All;
  EXPECT_EQ(errorOf([&] { encode(inst); }), "cannot encode set_flag: srcPipe=7 is out of range 0..6");
  inst = Instruction{};
  inst.op = Opcode::VSel;
  inst.src1Blk = 64;
  EXPECT_EQ(errorOf([&] { encode(inst); }), "cannot encode vsel: src1Blk=64 is out of range 0..63");
  std::vector<Instruction> program(3);
  program[2] = vadd();
  program[2].repeat = 256;
  EXPECT_EQ(errorOf([&] { encodeProgram(program); }),
            "instruction 2 (offset 0x40): cannot encode vadd: repeat=256 is out of range 0..255");
}

TEST(Encoding, RejectsNonZeroUnusedFields) {
  Instruction inst;
  inst.op = Opcode::Add;
  inst.imm = 5;
  EXPECT_EQ(errorOf([&] { encode(inst); }), "cannot encode add: imm=5 must be 0 when mode=0 selects rb");
  inst.mode = 1;
  inst.rb = 3;
  EXPECT_EQ(errorOf([&] { encode(inst); }), "cannot encode add: rb=3 must be 0 when mode=1 selects imm");
  inst = Instruction{};
  inst.op = Opcode::VDup;
  inst.imm = 0x3c00;
  EXPECT_EQ(errorOf([&] { encode(inst); }), "cannot encode vdup: imm=15360 must be 0 when mode=0 selects ra");
  inst = Instruction{};
  inst.op = Opcode::LoadL0B;
  inst.m = 16;
  EXPECT_EQ(errorOf([&] { encode(inst); }), "cannot encode load_l0b: m=16 must be 0 in load_l0b");
  inst.op = Opcode::LoadL0A;
  auto bytes = encode(inst);
  bytes[0] = static_cast<uint8_t>(Opcode::LoadL0B);
  EXPECT_EQ(errorOf([&] { decode(bytes.data(), bytes.size()); }),
            "instruction 0 (offset 0x0): load_l0b: m=16 must be 0 in load_l0b");
}

TEST(Encoding, RejectsTruncatedBinaries) {
  std::vector<uint8_t> bytes(45);
  EXPECT_EQ(errorOf([&] { decodeProgram(bytes); }),
            "truncated binary: 45 bytes is not a multiple of the 32-byte instruction size");
  EXPECT_EQ(errorOf([&] { decode(bytes.data(), 20); }),
            "truncated binary: 20 bytes is not a multiple of the 32-byte instruction size");
  EXPECT_TRUE(decodeProgram({}).empty());
}

TEST(Encoding, RejectsUnknownOpcodes) {
  std::vector<Instruction> program(4);
  std::vector<uint8_t> bytes = encodeProgram(program);
  bytes[3 * kInstructionBytes] = 0xfe;
  EXPECT_EQ(errorOf([&] { decodeProgram(bytes); }), "instruction 3 (offset 0x60): unknown opcode 0xfe");
  bytes[3 * kInstructionBytes] = kOpcodeCount;
  EXPECT_EQ(errorOf([&] { decodeProgram(bytes); }),
            "instruction 3 (offset 0x60): unknown opcode 0x" + [] {
              char buf[8];
              std::snprintf(buf, sizeof buf, "%x", kOpcodeCount);
              return std::string(buf);
            }());
}

TEST(Encoding, RejectsNonZeroPadding) {
  std::vector<uint8_t> bytes = encodeProgram({vadd(), Instruction{}});
  bytes[kInstructionBytes + 31] = 0x80;
  EXPECT_EQ(errorOf([&] { decodeProgram(bytes); }),
            "instruction 1 (offset 0x20): padding bit 255 of end is set (its fields end at bit 7)");
  bytes = encodeProgram({vadd()});
  bytes[31] = 0x01;
  EXPECT_EQ(errorOf([&] { decodeProgram(bytes); }),
            "instruction 0 (offset 0x0): padding bit 248 of vadd is set (its fields end at bit 211)");
}

TEST(Encoding, RejectsInvalidEnumerations) {
  auto bytes = encode(vadd());
  bytes[1] = static_cast<uint8_t>((bytes[1] & 0xf0) | 12);  // type field, 4 bits at bit 8
  EXPECT_EQ(errorOf([&] { decode(bytes.data(), bytes.size()); }),
            "instruction 0 (offset 0x0): vadd has type=12, out of range 0..8");
  bytes = encode(vadd());
  bytes[1] = static_cast<uint8_t>(bytes[1] | 0x70);  // dst space, 3 bits at bit 12
  EXPECT_EQ(errorOf([&] { decode(bytes.data(), bytes.size()); }),
            "instruction 0 (offset 0x0): vadd dst has invalid memory space 7");
  Instruction conv;
  conv.op = Opcode::VConv;
  auto convBytes = encode(conv);
  convBytes[2] = static_cast<uint8_t>(convBytes[2] | 0x07);  // rounding mode, 3 bits at bit 16
  EXPECT_EQ(errorOf([&] { decode(convBytes.data(), convBytes.size()); }),
            "instruction 0 (offset 0x0): vconv has mode=7, out of range 0..4");
}

TEST(Encoding, ArbitraryBytesDecodeOnlyToInstructionsThatReencodeIdentically) {
  std::mt19937_64 rng(5);
  int accepted = 0;
  for (int trial = 0; trial < 50000; ++trial) {
    std::array<uint8_t, kInstructionBytes> bytes{};
    bytes[0] = static_cast<uint8_t>(rng() % (kOpcodeCount + 4));
    // Fill only as many payload bits as a typical format uses, so that some inputs decode.
    int payloadBytes = static_cast<int>(rng() % kInstructionBytes);
    for (int i = 1; i <= payloadBytes && i < kInstructionBytes; ++i) bytes[i] = static_cast<uint8_t>(rng());
    Instruction inst;
    try {
      inst = decode(bytes.data(), bytes.size());
    } catch (const CompileError&) {
      continue;
    }
    ++accepted;
    ASSERT_EQ(encode(inst), bytes) << "trial " << trial;
  }
  EXPECT_GT(accepted, 500);
}
