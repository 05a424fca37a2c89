// The memory system behind GM: L2 hits and misses, whole-line transfers, one device-memory budget
// shared by reads, writes and cores, FIFO replacement, launch and scalar GM costs, vector kinds.
#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

// 128-byte lines, 16 cycles per GM copy, 50 B/cycle links, 100 B/cycle of device memory.
Target memoryTarget() {
  Target t = target910b();
  t.l2Line = 128;
  t.dmaOverhead = 16;
  t.hbmBandwidth = 100;
  t.l2Bandwidth = 1000;
  t.bandwidth[static_cast<int>(DmaPath::GmToUb)] = 50;
  t.bandwidth[static_cast<int>(DmaPath::UbToGm)] = 50;
  return t;
}

LaunchStats timedOn(const Target& t, const std::string& text, int blockDim = 1) {
  Device dev(t, 1 << 20);
  return dev.launch(kernelFromAsm(text), {blockDim, {0, 1 << 19}, true});
}

TEST(MemorySystem, AReReadHitsTheL2ThatAReadFilled) {
  LaunchStats s = timedOn(memoryTarget(),
                          "copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=128\n"
                          "copy_gm_ub ub[0x1000], gm[x1+0], nburst=1, len=128\nend");
  EXPECT_EQ(s.hbmBytes, 4096u);    // the first copy fetches its 32 lines
  EXPECT_EQ(s.l2HitBytes, 4096u);  // the second finds them
  // the first copy: 16 + 4096 / 50 on MTE2, its 41 device-memory cycles hidden behind the link
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::MTE2)].busyCycles, 2u * (16 + 82));
}

TEST(MemorySystem, BurstsSmallerThanALineMoveTheWholeLine) {
  // eight 32-byte bursts 256 bytes apart: eight lines, 1024 bytes over the link for 256 kept
  LaunchStats s = timedOn(memoryTarget(), "copy_gm_ub ub[0x0], gm[x1+0], nburst=8, len=1, srcgap=7\nend");
  EXPECT_EQ(s.bytes[static_cast<int>(DmaPath::GmToUb)], 256u);
  EXPECT_EQ(s.hbmBytes, 1024u);
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::MTE2)].busyCycles, 16u + 1024 / 50 + 1);
  // the same bytes in one burst: two lines
  LaunchStats one = timedOn(memoryTarget(), "copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=8\nend");
  EXPECT_EQ(one.hbmBytes, 256u);
  EXPECT_EQ(one.pipes[static_cast<int>(isa::Pipe::MTE2)].busyCycles, 16u + 6);
}

TEST(MemorySystem, ReadsAndWritesShareTheDeviceMemory) {
  Target t = memoryTarget();
  t.hbmBandwidth = 50;
  t.bandwidth[static_cast<int>(DmaPath::GmToUb)] = 100;
  t.bandwidth[static_cast<int>(DmaPath::UbToGm)] = 100;
  // 8 KB in and 8 KB out at once: each alone would take 82 cycles of link, 164 of device memory
  LaunchStats s = timedOn(t,
                          "copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=256\n"
                          "copy_ub_gm gm[x2+0], ub[0x4000], nburst=1, len=256\nend");
  EXPECT_EQ(s.hbmBytes, 16384u);
  uint64_t mte2 = s.pipes[static_cast<int>(isa::Pipe::MTE2)].busyCycles;
  uint64_t mte3 = s.pipes[static_cast<int>(isa::Pipe::MTE3)].busyCycles;
  EXPECT_EQ(std::min(mte2, mte3), 16u + 164);
  EXPECT_GE(std::max(mte2, mte3), 16u + 2 * 164 - 1);  // the later one waits for the first's share
}

TEST(MemorySystem, CoresShareTheDeviceMemoryAndTheirSumIsTheBudget) {
  // every core reads its own 8 KB: 4 × 8192 B through 100 B/cycle is 328 cycles at least
  std::string text =
      "get_block_idx x5\nshl x5, x5, 13\nadd x1, x1, x5\ncopy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=256\nend";
  LaunchStats one = timedOn(memoryTarget(), text, 1);
  LaunchStats four = timedOn(memoryTarget(), text, 4);
  EXPECT_EQ(four.hbmBytes, 4u * 8192);
  EXPECT_LT(one.cycles, 4u + 16 + 8192 / 50 + 1 + target910b().dmaLatency[0] + 1);
  EXPECT_GE(four.cycles, 4u + 16 + 4 * 8192 / 100 + target910b().dmaLatency[0]);
}

TEST(MemorySystem, AFullL2EvictsItsOldestLines) {
  Target t = memoryTarget();
  t.l2Size = 512;  // four lines
  // 1 KB (eight lines) then its first 512 bytes again: they were evicted by the last four
  LaunchStats s = timedOn(t,
                          "copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=32\n"
                          "copy_gm_ub ub[0x1000], gm[x1+0], nburst=1, len=16\nend");
  EXPECT_EQ(s.hbmBytes, 1024u + 512);
  EXPECT_EQ(s.l2HitBytes, 0u);
  // the same across words of lines: 16 KB through an 8 KB L2 keeps its second half
  t.l2Size = 8192;
  LaunchStats big = timedOn(t,
                            "copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=512\n"
                            "copy_gm_ub ub[0x4000], gm[x1+0x2000], nburst=1, len=256\n"
                            "copy_gm_ub ub[0x8000], gm[x1+0], nburst=1, len=256\nend");
  EXPECT_EQ(big.l2HitBytes, 8192u);
  EXPECT_EQ(big.hbmBytes, 16384u + 8192);
  // and every line written is written back once
  LaunchStats w = timedOn(memoryTarget(),
                          "copy_ub_gm gm[x2+0], ub[0x0], nburst=1, len=8\ncopy_ub_gm gm[x2+0], ub[0x0], nburst=1, len=8\nend");
  EXPECT_EQ(w.hbmBytes, 256u);
}

TEST(MemorySystem, LaunchOverheadAndScalarGmLoadsCostCycles) {
  Target t = memoryTarget();
  LaunchStats base = timedOn(t, "ld.s32 x5, gm[x1+0]\nend");
  t.launchOverhead = 500;
  t.scalarGmLatency = 100;
  LaunchStats slow = timedOn(t, "ld.s32 x5, gm[x1+0]\nend");
  EXPECT_EQ(slow.cycles, base.cycles + 500 + 100);
}

TEST(MemorySystem, VectorInstructionsCostWhatTheirKindCosts) {
  Target t = memoryTarget();
  t.vectorStartup = 1;
  t.vectorCyclesPerRepeat = {1, 2, 6, 4, 7, 1, 2};
  auto vCycles = [&](const std::string& inst) {
    return timedOn(t, inst + "\nend").pipes[static_cast<int>(isa::Pipe::V)].busyCycles;
  };
  EXPECT_EQ(vCycles("vadds.f16 ub[0x0], ub[0x0], #0x3c00, repeat=10"), 1u + 10);
  EXPECT_EQ(vCycles("vadd.f16 ub[0x0], ub[0x0], ub[0x4000], repeat=10"), 1u + 20);
  EXPECT_EQ(vCycles("vexp.f16 ub[0x0], ub[0x0], repeat=10"), 1u + 40);
  EXPECT_EQ(vCycles("vcadd.f16 ub[0x0], ub[0x4000], repeat=10"), 1u + 70);
  EXPECT_EQ(vCycles("vmla.f32 ub[0x0], ub[0x1000], ub[0x4000], repeat=10"), 1u + 60);
}

TEST(MemorySystem, MoreBlocksThanCoresRunInWaves) {
  // the test target has 48 cores: 96 blocks of 21 vector cycles take two waves, 97 take three
  const std::string text = "vadd.f16 ub[0x0], ub[0x0], ub[0x4000], repeat=10\nend";
  LaunchStats one = timedOn(memoryTarget(), text, 48);
  EXPECT_EQ(timedOn(memoryTarget(), text, 96).cycles, 2 * one.cycles);
  EXPECT_EQ(timedOn(memoryTarget(), text, 97).cycles, 3 * one.cycles);
  EXPECT_EQ(timedOn(memoryTarget(), text, 97).pipes[static_cast<int>(isa::Pipe::V)].instructions, 97u);
}

}  // namespace
}  // namespace pyasc::sim::test
