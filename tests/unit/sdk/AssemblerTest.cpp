// Assembler and disassembler: canonical text round trips for every opcode, labels, comments and
// the exact diagnostics of malformed lines.
#include "sdk/isa/Assembler.h"

#include <gtest/gtest.h>

#include "sdk/isa/Encoding.h"
#include "sdk/support/Diagnostics.h"
#include "tests/unit/sdk/IsaTestUtil.h"

using namespace pyasc;
using namespace pyasc::isa;

namespace {

std::string assembleError(const std::string& text) {
  try {
    assemble(text, "t.s");
  } catch (const CompileError& e) {
    return e.what();
  }
  return "no error";
}

Instruction assembleOne(const std::string& line) {
  std::vector<Instruction> program = assemble(line, "t.s");
  EXPECT_EQ(program.size(), 1u);
  return program.empty() ? Instruction{} : program[0];
}

}  // namespace

TEST(Assembler, RandomInstancesOfEveryOpcodeRoundTripThroughText) {
  std::mt19937_64 rng(99);
  for (int op = 0; op < kOpcodeCount; ++op) {
    for (int trial = 0; trial < 200; ++trial) {
      Instruction inst = test::randomInstruction(static_cast<Opcode>(op), rng);
      std::string text = disassemble(inst);
      Instruction back = assembleOne(text);
      ASSERT_EQ(back, inst) << text;
      ASSERT_EQ(disassemble(back), text);
    }
  }
}

TEST(Assembler, CanonicalTextOfTheDocumentedExamples) {
  const char* canonical[] = {
      "vadd.f16 ub[x1+0x400], ub[0x0], ub[0x200], repeat=4, blk=1/1/1, rep=8/8/8",
      "copy_gm_ub ub[0x0], gm[x1+0x0], nburst=2, len=4, srcgap=1, dstgap=0",
      "copy_ub_gm.b gm[x2+0x40], ub[0x0], nburst=1, len=100, srcgap=0, dstgap=0",
      "vconv.f32.f16.rint ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=4/8",
      "vcmp.f16.lt ub[0x0], ub[0x100], ub[0x200], repeat=1, blk=1/1, rep=8/8",
      "mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=16, k=16, n=16, init",
      "fix_l0c_ub.f32.f16.rint ub[0x0], l0c[0x0], m=16, n=16, stride=16, valid=16/16",
      "ld.s32 x3, l1[x3-0x20]",
      "vadds.f16 ub[0x0], ub[0x100], #0x3c00, repeat=1, blk=1/1, rep=8/8",
      "vadds.f16 ub[0x0], ub[0x100], x5, repeat=1, blk=1/1, rep=8/8",
      "img2col.f16 l0a[0x0], l1[0x0], h=8, w=8, c=16, kernel=3x3, stride=1x1, pad=1/1/1/1, dilation=1x1, pos=0, "
      "m=64, k=144",
      "set_flag MTE2, V, 0",
      "pipe_barrier ALL",
      "set_mask_mode counter",
      "end",
  };
  for (const char* text : canonical) EXPECT_EQ(disassemble(assembleOne(text)), text);
}

TEST(Assembler, AcceptsShortFormsAndPrintsThemCanonically) {
  EXPECT_EQ(disassemble(assembleOne("vexp.f32 ub[0], ub[256]")),
            "vexp.f32 ub[0x0], ub[0x100], repeat=1, blk=1/1, rep=8/8");
  EXPECT_EQ(disassemble(assembleOne("  wait_flag mte2 , v , 0x3 ")), "wait_flag MTE2, V, 3");
  EXPECT_EQ(disassemble(assembleOne("ld.u8 x1, gm[x0+16]")), "ld.u8 x1, gm[0x10]");
  EXPECT_EQ(disassemble(assembleOne("vdup.s32 ub[0x0], #-1")), "vdup.s32 ub[0x0], #0xffffffff, repeat=1, blk=1, rep=8");
  EXPECT_EQ(disassemble(assembleOne("li x1, 0xffffffffffffffff")), "li x1, -1");
  EXPECT_EQ(disassemble(assembleOne("vdup.f16 ub[0x0], #1.0")), "vdup.f16 ub[0x0], #0x3c00, repeat=1, blk=1, rep=8");
  EXPECT_EQ(disassemble(assembleOne("vmuls.f32 ub[0x0], ub[0x0], #-0.5")),
            "vmuls.f32 ub[0x0], ub[0x0], #0xbf000000, repeat=1, blk=1/1, rep=8/8");
  EXPECT_EQ(disassemble(assembleOne("vmaxs.f16 ub[0x0], ub[0x0], #-inf")),
            "vmaxs.f16 ub[0x0], ub[0x0], #0xfc00, repeat=1, blk=1/1, rep=8/8");
  EXPECT_EQ(disassemble(assembleOne("mmad.s8.s32 l0c[0], l0a[0], l0b[0], init, n=32, m=16, k=32")),
            "mmad.s8.s32 l0c[0x0], l0a[0x0], l0b[0x0], m=16, k=32, n=32, init");
}

TEST(Assembler, OnlyEncodableInstructionsHaveText) {
  Instruction inst;
  inst.op = Opcode::VAdd;
  inst.type = static_cast<DType>(12);
  try {
    disassemble(inst);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.diagnostic().message, "cannot encode vadd: type=12 is out of range 0..8");
  }
}

TEST(Assembler, LabelsCommentsAndBlankLines) {
  const char* text =
      "; a loop over x1\n"
      "\n"
      "start:  li x1, 0        // counter\n"
      "        li x2, 10\n"
      "loop:\n"
      "        add x1, x1, 1\n"
      "        blt x1, x2, loop ; back edge\n"
      "        jmp done\n"
      "done: end\n";
  std::vector<Instruction> program = assemble(text, "t.s");
  ASSERT_EQ(program.size(), 6u);
  EXPECT_EQ(program[3].op, Opcode::Blt);
  EXPECT_EQ(program[3].imm, 2);
  EXPECT_EQ(program[4].imm, 5);
  EXPECT_EQ(disassemble(program[3]), "blt x1, x2, 2");
  EXPECT_TRUE(assemble("", "t.s").empty());
  EXPECT_TRUE(assemble("  ; nothing\n// at all\n", "t.s").empty());
}

TEST(Assembler, ExactDiagnostics) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"vaddd.f16 ub[0], ub[0], ub[0]", "t.s:1:1: error: unknown mnemonic 'vaddd'; did you mean 'vadd'?"},
      {"frobnicate x1", "t.s:1:1: error: unknown mnemonic 'frobnicate'"},
      {"vadd.f16 ub[0x0], ub[0x0]", "t.s:1:1: error: vadd needs 3 operands, got 2"},
      {"end x1", "t.s:1:1: error: end takes no operands, got 1"},
      {"  vadd.f16 ub[0], ub[0], ub[0], repeat=300", "t.s:1:40: error: repeat=300 is out of range 0..255"},
      {"vadd ub[0], ub[0], ub[0]", "t.s:1:1: error: vadd needs a type suffix, as in 'vadd.f16'"},
      {"vadd.f17 ub[0], ub[0], ub[0]",
       "t.s:1:6: error: unknown type suffix 'f17'; expected one of b8 s8 u8 s16 s32 s64 f16 f32 f64"},
      {"vadd.f16.x ub[0], ub[0], ub[0]", "t.s:1:10: error: unexpected suffix '.x' on vadd"},
      {"vcmp.f16.lq ub[0], ub[0], ub[0]",
       "t.s:1:10: error: unknown compare mode 'lq'; expected eq, ne, lt, le, gt or ge"},
      {"vconv.f32.f16.near ub[0], ub[0]",
       "t.s:1:15: error: unknown rounding mode 'near'; expected rint, floor, ceil, trunc or round"},
      {"vadd.f16 ub[0], ub[0], ub[0], blk=1/1", "t.s:1:35: error: blk needs 3 values (blk=N/N/N), got 2"},
      {"vadd.f16 ub[0], ub[0], ub[0], blk=1/300/1", "t.s:1:37: error: blk value 300 is out of range 0..255"},
      {"vadd.f16 ub[0], ubb[0], ub[0]",
       "t.s:1:17: error: unknown memory space 'ubb'; expected gm, ub, l1, l0a, l0b or l0c"},
      {"vadd.f16 ub[0], ub, ub[0]", "t.s:1:17: error: expected an address like 'ub[x1+0x20]', got 'ub'"},
      {"ld.s32 x1, ub[x1+0x10000000000]",
       "t.s:1:17: error: offset 0x10000000000 is out of range -549755813888..549755813887"},
      {"li x32, 5", "t.s:1:4: error: expected a register x0..x31, got 'x32'"},
      {"li x1, 99999999999999999999",
       "t.s:1:8: error: immediate 99999999999999999999 is out of range -9223372036854775808..9223372036854775807"},
      {"jmp nowhere", "t.s:1:5: error: undefined label 'nowhere'"},
      {"a:\nend\na: end", "t.s:3:1: error: label 'a' is already defined on line 1"},
      {"copy_gm_ub ub[0], gm[0], nburst=5000", "t.s:1:33: error: nburst=5000 is out of range 0..4095"},
      {"copy_gm_ub.q ub[0], gm[0]",
       "t.s:1:12: error: unknown suffix '.q' on copy_gm_ub; the only suffix is '.b' (byte mode)"},
      {"set_flag ALL, V, 0", "t.s:1:10: error: set_flag cannot name pipe ALL"},
      {"set_flag MTE2, V, 9", "t.s:1:19: error: event 9 is out of range 0..7"},
      {"pipe_barrier VV", "t.s:1:14: error: unknown pipe 'VV'; expected S, V, M, MTE1, MTE2, MTE3, FIX or ALL"},
      {"vadd.f16 ub[0], ub[0], ub[0], stride=3",
       "t.s:1:31: error: unknown option 'stride' for vadd; expected one of repeat, blk, rep"},
      {"vadd.f16 ub[0], ub[0], ub[0], repaet=3",
       "t.s:1:31: error: unknown option 'repaet' for vadd; did you mean 'repeat'?"},
      {"end repeat=1", "t.s:1:5: error: unknown option 'repeat' for end; it takes no options"},
      {"vadd.f16 ub[0], ub[0], ub[0], repeat=3, repeat=4", "t.s:1:41: error: duplicate option 'repeat'"},
      {"vadd.f16 ub[0], ub[0], ub[0], repeat=abc", "t.s:1:38: error: expected an integer in repeat=abc"},
      {"vadd.f16 ub[0], ub[0], ub[0], repeat=1, ub[0]",
       "t.s:1:41: error: unexpected operand 'ub[0]' after the options of vadd"},
      {"vadds.f16 ub[0], ub[0], 5", "t.s:1:25: error: expected a register or an immediate like '#0x3c00', got '5'"},
      {"vadds.f32 ub[0], ub[0], #0x100000000",
       "t.s:1:26: error: scalar immediate 0x100000000 is out of range 0..4294967295"},
      {"vdup.s32 ub[0], #1.5", "t.s:1:18: error: a floating-point immediate needs an f16 or f32 type, not s32"},
      {"vdup.f32 ub[0], #1.5.5", "t.s:1:18: error: expected a number, got '1.5.5'"},
      {"img2col.f16 l0a[0], l1[0], kernel=3", "t.s:1:35: error: kernel needs 2 values (kernel=NxN), got 1"},
      {"vtranspose ub[0], ub[0]", "t.s:1:1: error: vtranspose needs the suffix '.b16', as in 'vtranspose.b16'"},
      {"set_mask_mode fast", "t.s:1:15: error: expected 'normal' or 'counter', got 'fast'"},
      {"vadd.f16 ub[0],, ub[0]", "t.s:1:16: error: expected an operand"},
      {"li x1, 5\n\n  blt x1, x2, -1", "t.s:3:15: error: branch target -1 is out of range 0..4294967295"},
  };
  for (const Case& c : cases) EXPECT_EQ(assembleError(c.text), c.message) << c.text;
}

TEST(Assembler, MangledLinesFailOnlyWithDiagnosticsOrAssembleCanonically) {
  std::mt19937_64 rng(11);
  const std::string alphabet = "xub[]+-0123456789abcdef,=./# \tl0gmf:;";
  for (int op = 0; op < kOpcodeCount; ++op) {
    std::string line = disassemble(test::randomInstruction(static_cast<Opcode>(op), rng));
    for (int trial = 0; trial < 300; ++trial) {
      std::string text = line;
      int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        size_t at = rng() % text.size();
        switch (rng() % 3) {
          case 0: text.erase(at, 1); break;
          case 1: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
          default: text[at] = alphabet[rng() % alphabet.size()]; break;
        }
      }
      try {
        for (const Instruction& inst : assemble(text, "t.s")) {
          ASSERT_EQ(assembleOne(disassemble(inst)), inst) << "'" << text << "'";
        }
      } catch (const CompileError&) {
      } catch (const std::exception& e) {
        FAIL() << "'" << text << "' threw " << e.what();
      }
    }
  }
}
