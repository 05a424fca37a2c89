// Scalar ALU, loads/stores, branches and loops, block ids, and scalar faults.
#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

TEST(ScalarUnit, LoopSumsWithBranches) {
  Device dev(target910b(), 4096);
  auto k = kernelFromAsm(
      "li x5, 0\nli x6, 1\nli x7, 11\n"
      "loop:\nadd x5, x5, x6\nadd x6, x6, 1\nblt x6, x7, loop\n"
      "st.s64 x5, gm[x1+0]\n"
      "sub x8, x0, 7\nli x9, 2\ndiv x10, x8, x9\nrem x11, x8, x9\nshr x12, x8, 1\nshl x13, x9, 62\n"
      "st.s64 x10, gm[x1+8]\nst.s64 x11, gm[x1+16]\nst.s64 x12, gm[x1+24]\nst.s64 x13, gm[x1+32]\n"
      "li x0, 99\nst.s64 x0, gm[x1+40]\nend");
  dev.launch(k, {1, {0}, true});
  auto v = valuesOf<int64_t>(std::vector<uint8_t>(dev.gm(), dev.gm() + 48));
  EXPECT_EQ(v[0], 55);
  EXPECT_EQ(v[1], -3);
  EXPECT_EQ(v[2], -1);
  EXPECT_EQ(v[3], -4);
  EXPECT_EQ(v[4], int64_t(1) << 63);
  EXPECT_EQ(v[5], 0);
}

TEST(ScalarUnit, LoadsExtendByType) {
  Device dev(target910b(), 4096);
  dev.gm()[0] = 0xfe;
  dev.gm()[1] = 0xff;
  auto k = kernelFromAsm(
      "ld.s8 x5, gm[x1+0]\nld.u8 x6, gm[x1+0]\nld.s16 x7, gm[x1+0]\nld.f16 x8, gm[x1+0]\n"
      "st.s64 x5, gm[x1+64]\nst.s64 x6, gm[x1+72]\nst.s64 x7, gm[x1+80]\nst.s64 x8, gm[x1+88]\nend");
  dev.launch(k, {1, {0}, true});
  auto v = valuesOf<int64_t>(std::vector<uint8_t>(dev.gm() + 64, dev.gm() + 96));
  EXPECT_EQ(v[0], -2);
  EXPECT_EQ(v[1], 0xfe);
  EXPECT_EQ(v[2], -2);
  EXPECT_EQ(v[3], 0xfffe);
}

TEST(ScalarUnit, BlockIdxAndDimPerCore) {
  Device dev(target910b(), 4096);
  auto k = kernelFromAsm("get_block_idx x5\nget_block_dim x6\nmul x7, x5, 8\nadd x7, x7, x1\nmul x8, x5, x6\nst.s64 x8, gm[x7+0]\nend");
  dev.launch(k, {3, {0x100}, true});
  auto v = valuesOf<int64_t>(std::vector<uint8_t>(dev.gm() + 0x100, dev.gm() + 0x118));
  EXPECT_EQ(v, (std::vector<int64_t>{0, 3, 6}));
}

TEST(ScalarUnit, DivideByZeroIsAnError) {
  Device dev(target910b(), 4096);
  auto k = kernelFromAsm("li x5, 1\ndiv x6, x5, x0\nend");
  EXPECT_EQ(errorOf(dev, k, {1, {}, true}), "core 0, instruction 1 (div x6, x5, x0): div by zero");
}

TEST(ScalarUnit, ErrorsCarryTheSourceLine) {
  Device dev(target910b(), 4096);
  Kernel k = kernelFromAsm("li x5, 1\ndiv x6, x5, x0\nend");
  k.sourceLines = {10, 11, 12};
  try {
    dev.launch(k, {1, {}, true});
    FAIL() << "no error";
  } catch (const SimError& e) {
    EXPECT_EQ(e.sourceLine(), 11);
    EXPECT_EQ(e.instruction(), 1);
    EXPECT_EQ(e.core(), 0);
    EXPECT_EQ(e.detail(), "div by zero");
  }
}

TEST(ScalarUnit, ArgumentsFillX1Onwards) {
  Device dev(target910b(), 4096);
  auto k = kernelFromAsm("st.s64 x31, gm[x1+0]\nend");
  std::vector<uint64_t> args(31, 0);
  args[30] = 1234;
  dev.launch(k, {1, args, true});
  EXPECT_EQ(valuesOf<int64_t>(std::vector<uint8_t>(dev.gm(), dev.gm() + 8))[0], 1234);
  args.push_back(0);
  EXPECT_EQ(errorOf(dev, k, {1, args, true}), "core 0: 32 kernel arguments, but only x1..x31 can hold them");
  EXPECT_EQ(errorOf(dev, k, {0, {}, true}), "core 0: block_dim must be at least 1");
}

TEST(ScalarUnit, FallingOffTheProgramEnds) {
  Device dev(target910b(), 4096);
  auto k = kernelFromAsm("li x5, 7\nst.s64 x5, gm[x1+0]");
  dev.launch(k, {1, {0}, true});
  EXPECT_EQ(dev.gm()[0], 7);
}

TEST(ScalarUnit, EndlessLoopHitsTheInstructionLimit) {
  Device dev(target910b(), 4096);
  auto k = kernelFromAsm("spin: jmp spin");
  EXPECT_EQ(errorOf(dev, k, {1, {}, true}), "core 0, instruction 0 (jmp 0): instruction limit of 134217728 scalar steps exceeded");
}

}  // namespace
}  // namespace pyasc::sim::test
