// Every sanitizer report pinned by its exact message.
#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

std::string run(const std::string& text, bool sanitize = true) {
  Device dev(target910b(), 1 << 16);
  return errorOf(dev, kernelFromAsm(text), {1, {0}, sanitize});
}

TEST(Sanitizer, MisalignedUb) {
  EXPECT_EQ(run("vadd.f16 ub[0x10], ub[0x0], ub[0x100]\nend"),
            "core 0, instruction 0 (vadd.f16 ub[0x10], ub[0x0], ub[0x100], repeat=1, blk=1/1/1, rep=8/8/8): "
            "misaligned ub address 0x10 (ub needs 32-byte alignment)");
}

TEST(Sanitizer, MisalignedL0A) {
  EXPECT_EQ(run("load_l0a.f16 l0a[0x100], l1[0x0], m=16, k=16, stride=16\nend"),
            "core 0, instruction 0 (load_l0a.f16 l0a[0x100], l1[0x0], m=16, k=16, stride=16, valid=0/0): "
            "misaligned l0a address 0x100 (l0a needs 512-byte alignment)");
}

TEST(Sanitizer, OutOfRangeUb) {
  EXPECT_EQ(run("vadd.f16 ub[0x2ff00], ub[0x0], ub[0x100], repeat=2\nend"),
            "core 0, instruction 0 (vadd.f16 ub[0x2ff00], ub[0x0], ub[0x100], repeat=2, blk=1/1/1, rep=8/8/8): "
            "ub access [0x30000..0x30020) out of range (ub is 0x30000 bytes)");
}

TEST(Sanitizer, OutOfRangeIsCheckedEvenWithoutSanitizer) {
  EXPECT_EQ(run("copy_gm_ub ub[0x2ffe0], gm[x1+0], nburst=1, len=2\nend", false),
            "core 0, instruction 0 (copy_gm_ub ub[0x2ffe0], gm[x1+0x0], nburst=1, len=2, srcgap=0, dstgap=0): "
            "ub access [0x2ffe0..0x30020) out of range (ub is 0x30000 bytes)");
}

TEST(Sanitizer, GmOutsideRegionsAndReadOnlyWrites) {
  Device dev(target910b(), 1 << 16);
  dev.addRegion({0, 0x1000, "a", false});
  dev.addRegion({0x1000, 0x1000, "out", true});
  EXPECT_EQ(errorOf(dev, kernelFromAsm("copy_gm_ub ub[0x0], gm[x1+0xff0], nburst=1, len=1\nend"), {1, {0}, true}),
            "core 0, instruction 0 (copy_gm_ub ub[0x0], gm[x1+0xff0], nburst=1, len=1, srcgap=0, dstgap=0): "
            "read from gm [0xff0..0x1010) outside every registered region");
  EXPECT_EQ(errorOf(dev, kernelFromAsm("copy_ub_gm gm[x1+0x20], ub[0x0], nburst=1, len=1\nend"), {1, {0}, true}),
            "core 0, instruction 0 (copy_ub_gm gm[x1+0x20], ub[0x0], nburst=1, len=1, srcgap=0, dstgap=0): "
            "write to read-only gm region 'a' at [0x20..0x40)");
  EXPECT_EQ(errorOf(dev, kernelFromAsm("copy_ub_gm gm[x1+0x1000], ub[0x0], nburst=1, len=1\nend"), {1, {0}, true}), "");
}

TEST(Sanitizer, RepeatOutOfRange) {
  isa::Instruction add;
  add.op = isa::Opcode::VAdd;
  add.repeat = 300;
  isa::Instruction end;
  Device dev(target910b(), 1 << 16);
  EXPECT_EQ(errorOf(dev, Kernel{"k", {add, end}, {}}, {1, {}, true}),
            "core 0, instruction 0 (vadd): repeat 300 out of range (max 255)");
}

TEST(Sanitizer, NBurstOutOfRange) {
  isa::Instruction copy;
  copy.op = isa::Opcode::CopyGmToUb;
  copy.src0.space = isa::Space::GM;
  copy.nburst = 4096;
  copy.burstLen = 1;
  Device dev(target910b(), 1 << 16);
  EXPECT_EQ(errorOf(dev, Kernel{"k", {copy, isa::Instruction{}}, {}}, {1, {}, true}),
            "core 0, instruction 0 (copy_gm_ub): nburst 4096 out of range (max 4095)");
}

TEST(Sanitizer, FractalShapesAreCheckedEvenWithoutSanitizer) {
  EXPECT_EQ(run("load_l0a.f16 l0a[0x0], l1[0x0], m=20, k=32, stride=32\nend", false),
            "core 0, instruction 0 (load_l0a.f16 l0a[0x0], l1[0x0], m=20, k=32, stride=32, valid=0/0): "
            "load_l0a m=20 must be a multiple of 16 and k=32 of 16");
  EXPECT_EQ(run("load_l0b.s8 l0b[0x0], l1[0x0], k=16, n=16, stride=16\nend", false),
            "core 0, instruction 0 (load_l0b.s8 l0b[0x0], l1[0x0], k=16, n=16, stride=16, valid=0/0): "
            "load_l0b k=16 must be a multiple of 32 and n=16 of 16");
}

TEST(Sanitizer, DstBlockStrideZero) {
  EXPECT_EQ(run("vadd.f32 ub[0x400], ub[0x0], ub[0x100], blk=0/1/1\nend"),
            "core 0, instruction 0 (vadd.f32 ub[0x400], ub[0x0], ub[0x100], repeat=1, blk=0/1/1, rep=8/8/8): "
            "dst block stride 0");
}

TEST(Sanitizer, InvalidTypeForOpcode) {
  EXPECT_EQ(run("vexp.s32 ub[0x400], ub[0x0]\nend"),
            "core 0, instruction 0 (vexp.s32 ub[0x400], ub[0x0], repeat=1, blk=1/1, rep=8/8): invalid type s32 for vexp");
}

TEST(Sanitizer, OperandsMustNameTheirMemory) {
  EXPECT_EQ(run("copy_gm_ub l1[0x0], gm[x1+0], nburst=1, len=1\nend", false),
            "core 0, instruction 0 (copy_gm_ub l1[0x0], gm[x1+0x0], nburst=1, len=1, srcgap=0, dstgap=0): "
            "copy_gm_ub dst must be in ub, not l1");
  EXPECT_EQ(run("vadd.f16 ub[0x0], l1[0x0], ub[0x100]\nend"),
            "core 0, instruction 0 (vadd.f16 ub[0x0], l1[0x0], ub[0x100], repeat=1, blk=1/1/1, rep=8/8/8): "
            "vadd src0 must be in ub, not l1");
  EXPECT_EQ(run("mmad.f16.f32 l0c[0x0], l0b[0x0], l0b[0x0], m=16, k=16, n=16\nend"),
            "core 0, instruction 0 (mmad.f16.f32 l0c[0x0], l0b[0x0], l0b[0x0], m=16, k=16, n=16): "
            "mmad src0 must be in l0a, not l0b");
}

TEST(Sanitizer, CounterModeMaskMisuse) {
  EXPECT_EQ(run("set_mask_mode counter\nli x5, 64\nli x6, 1\nset_vmask x5, x6\nvadd.f32 ub[0x400], ub[0x0], ub[0x100]\nend"),
            "core 0, instruction 4 (vadd.f32 ub[0x400], ub[0x0], ub[0x100], repeat=1, blk=1/1/1, rep=8/8/8): "
            "mask mode misuse: counter mode takes the element count in mask bits 0-63, but bits 64-127 are 0x1");
}

TEST(Sanitizer, PartialOverlapWithinARepeat) {
  EXPECT_EQ(run("vadd.f16 ub[0x20], ub[0x0], ub[0x400]\nend"),
            "core 0, instruction 0 (vadd.f16 ub[0x20], ub[0x0], ub[0x400], repeat=1, blk=1/1/1, rep=8/8/8): "
            "src0 partially overlaps dst in repeat 0 (ub blocks 0x20 and 0x20)");
  EXPECT_EQ(run("vadd.f16 ub[0x0], ub[0x0], ub[0x400]\nend"), "");
}

TEST(Sanitizer, DeadlockNamesWaitersAndFlags) {
  EXPECT_EQ(run("wait_flag MTE2, V, 0\nset_flag V, MTE3, 1\nwait_flag V, MTE3, 2\nend"),
            "core 0, instruction 0 (wait_flag MTE2, V, 0): deadlock: V waits for flag (MTE2, V, 0) (instruction 0); "
            "MTE3 waits for flag (V, MTE3, 2) (instruction 2); nothing left can set them");
  EXPECT_EQ(run("wait_flag V, S, 3\nend"),
            "core 0, instruction 0 (wait_flag V, S, 3): deadlock: S waits for flag (V, S, 3) (instruction 0); "
            "nothing left can set them");
}

TEST(Sanitizer, DoubleSetOfAFlag) {
  EXPECT_EQ(run("set_flag MTE2, V, 4\nset_flag MTE2, V, 4\nend"),
            "core 0, instruction 1 (set_flag MTE2, V, 4): double set of flag (MTE2, V, 4): already set by "
            "instruction 0 and not yet waited for");
}

TEST(Sanitizer, RawRaceBetweenMte2AndVector) {
  EXPECT_EQ(run("copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=16\n"
                "vadds.f16 ub[0x400], ub[0x0], #0x3c00, repeat=2\nend"),
            "core 0, instruction 1 (vadds.f16 ub[0x400], ub[0x0], #0x3c00, repeat=2, blk=1/1, rep=8/8): "
            "data race: V reads ub[0x0..0x200) written by MTE2 at instruction 0 with no flag or barrier between them");
}

TEST(Sanitizer, WarRaceAndBarrierAllOrders) {
  const std::string war =
      "copy_ub_gm gm[x1+0], ub[0x0], nburst=1, len=8\n"
      "vdup.f16 ub[0x0], #0x0\nend";
  EXPECT_EQ(run(war),
            "core 0, instruction 1 (vdup.f16 ub[0x0], #0x0, repeat=1, blk=1, rep=8): "
            "data race: V writes ub[0x0..0x100) read by MTE3 at instruction 0 with no flag or barrier between them");
  EXPECT_EQ(run("copy_ub_gm gm[x1+0], ub[0x0], nburst=1, len=8\npipe_barrier ALL\nvdup.f16 ub[0x0], #0x0\nend"), "");
  EXPECT_EQ(run(war, false), "");
}

TEST(Sanitizer, CoresOfOneLaunchMustNotShareGmBlocks) {
  Device dev(target910b(), 1 << 16);
  // Every core writes its own 256 bytes: fine. With the offset forgotten, core 1 overwrites core 0.
  auto good = kernelFromAsm("get_block_idx x5\nmul x5, x5, 256\nadd x5, x5, x1\ncopy_ub_gm gm[x5+0], ub[0x0], nburst=1, len=8\nend");
  EXPECT_EQ(errorOf(dev, good, {4, {0}, true}), "");
  auto bad = kernelFromAsm("copy_ub_gm gm[x1+0x40], ub[0x0], nburst=1, len=8\nend");
  EXPECT_EQ(errorOf(dev, bad, {2, {0}, true}),
            "core 1, instruction 0 (copy_ub_gm gm[x1+0x40], ub[0x0], nburst=1, len=8, srcgap=0, dstgap=0): data race: "
            "MTE3 writes gm[0x40..0x140) written by MTE3 of core 0 at instruction 0 in the same launch (cores do not "
            "synchronise within a launch)");
  // A core reading what another core of the same launch wrote.
  auto reads = kernelFromAsm("get_block_idx x5\nbeq x5, x0, write\ncopy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=1\nend\n"
                             "write: copy_ub_gm gm[x1+0x10], ub[0x0], nburst=1, len=1\nend");
  EXPECT_EQ(errorOf(dev, reads, {2, {0}, true}),
            "core 1, instruction 2 (copy_gm_ub ub[0x0], gm[x1+0x0], nburst=1, len=1, srcgap=0, dstgap=0): data race: "
            "MTE2 reads gm[0x10..0x20) written by MTE3 of core 0 at instruction 4 in the same launch (cores do not "
            "synchronise within a launch)");
  // Separate launches are ordered.
  EXPECT_EQ(errorOf(dev, bad, {1, {0}, true}), "");
  EXPECT_EQ(errorOf(dev, bad, {1, {0}, true}), "");
}

TEST(Sanitizer, ScalarStoreThenVectorReadIsOrderedByIssue) {
  EXPECT_EQ(run("li x5, 7\nst.s32 x5, ub[0x0]\nvadds.s32 ub[0x100], ub[0x0], #1\nend"), "");
}

}  // namespace
}  // namespace pyasc::sim::test
