// The timing model's formulas on ascend910b: vector, transcendental, DMA with GM sharing, cube
// rates per type, flag latency, multi-core cycles, queue stalls.
#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

LaunchStats timed(const std::string& text, int blockDim = 1) {
  Device dev(target910b(), 1 << 20);
  return dev.launch(kernelFromAsm(text), {blockDim, {0}, true});
}

// One scalar cycle to issue, then the pipe's duration.
TEST(Timing, VectorStartupPlusRepeats) {
  EXPECT_EQ(timed("vadd.f16 ub[0x0], ub[0x0], ub[0x4000], repeat=10\nend").cycles, 1u + 10 + 10);
  EXPECT_EQ(timed("vexp.f16 ub[0x0], ub[0x0], repeat=10\nend").cycles, 1u + 10 + 40);
  EXPECT_EQ(timed("set_mask_mode counter\nli x5, 1000\nset_vmask x5, x0\nvadd.f16 ub[0x0], ub[0x0], ub[0x4000]\nend").cycles,
            4u + 10 + 8);
}

TEST(Timing, DmaLatencyPlusBytesOverBandwidthSharedAcrossCores) {
  EXPECT_EQ(timed("copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=64\nend").cycles, 1u + 200 + 2048 / 32);
  // 40 cores share 865 B/cycle of GM: 21.625 B/cycle each, below the path's 32.
  EXPECT_EQ(timed("copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=64\nend", 40).cycles, 1u + 200 + 95);
  EXPECT_EQ(timed("copy_gm_ub.b ub[0x0], gm[x1+0], nburst=2, len=100\nend").bytes[0], 200u);
}

TEST(Timing, DmaLatencyOverlapsTheNextCopyButNotItsFlag) {
  // each copy holds MTE2 for its bytes only; the kernel ends when the last round trip completes
  EXPECT_EQ(timed("copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=64\ncopy_gm_ub ub[0x800], gm[x1+0], nburst=1, len=64\nend")
                .cycles,
            1u + 2 * 64 + 200);
  // a flag set after a copy becomes visible only when the copy's data has arrived
  LaunchStats s = timed(
      "copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=64\nset_flag MTE2, V, 0\nwait_flag MTE2, V, 0\n"
      "vadd.f16 ub[0x4000], ub[0x0], ub[0x0]\nend");
  EXPECT_EQ(s.cycles, 1u + 264 + 1 + 11);
}

TEST(Timing, CubeRatePerType) {
  EXPECT_EQ(timed("mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=32, k=64, n=32, init\nend").cycles, 1u + 20 + 16);
  EXPECT_EQ(timed("mmad.f32.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=32, k=64, n=32, init\nend").cycles, 1u + 20 + 64);
  EXPECT_EQ(timed("mmad.s8.s32 l0c[0x0], l0a[0x0], l0b[0x0], m=32, k=64, n=32, init\nend").cycles, 1u + 20 + 8);
}

TEST(Timing, FlagWakesTheWaiterAfterTheSetterFinishes) {
  LaunchStats s = timed(
      "vadd.f16 ub[0x0], ub[0x0], ub[0x4000], repeat=10\nset_flag V, MTE3, 0\nwait_flag V, MTE3, 0\n"
      "copy_ub_gm gm[x1+0], ub[0x0], nburst=1, len=1\nend");
  // vadd runs 1..21, the flag is visible at 22, the copy takes 200 + 1.
  EXPECT_EQ(s.cycles, 22u + 201);
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::V)].busyCycles, 20u);
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::MTE3)].busyCycles, 1u);  // the latency does not hold the pipe
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::S)].instructions, 5u);
}

TEST(Timing, BarrierAllWaitsForEveryPipe) {
  LaunchStats s = timed(
      "copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=64\npipe_barrier ALL\n"
      "vadd.f16 ub[0x4000], ub[0x0], ub[0x0]\nend");
  EXPECT_EQ(s.cycles, 265u + 1 + 1 + 11);  // barrier at 265, vadd issued at 266, runs 267..278
}

TEST(Timing, FullQueueStallsTheScalarUnit) {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "vadd.f16 ub[0x0], ub[0x0], ub[0x4000], repeat=100\n";
  text += "li x5, 1\nend";
  LaunchStats s = timed(text);
  EXPECT_EQ(s.cycles, 1u + 40 * 110);
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::V)].busyCycles, 40u * 110);
}

TEST(Timing, MultiCoreCyclesAreTheSlowestCoreAndStatsAreSummed) {
  // Core i runs i+1 vector instructions.
  std::string text =
      "get_block_idx x5\nli x6, 0\nloop:\nvadd.f16 ub[0x0], ub[0x0], ub[0x4000], repeat=10\n"
      "add x6, x6, 1\nbge x5, x6, loop\nend";
  LaunchStats s = timed(text, 3);
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::V)].instructions, 6u);
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::V)].busyCycles, 6u * 20);
  EXPECT_EQ(s.cycles, 3u + 3 * 20);  // core 2: first vadd reaches V at 3, then back to back
}

TEST(Timing, EnergyCountsOperationsAndBytesPerMemory) {
  const Target& t = target910b();
  // One f16 vadd repeat: 256 vector bytes, 512 UB bytes read and 256 written.
  LaunchStats v = timed("vadd.f16 ub[0x0], ub[0x100], ub[0x200]\nend");
  EXPECT_DOUBLE_EQ(v.energyPJ, 256 * t.energyPerVectorByte + 768 * t.energyPerByte[static_cast<int>(isa::Space::UB)]);
  // 1 KB from GM to UB: read in GM, written in UB.
  LaunchStats d = timed("copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=32\nend");
  EXPECT_DOUBLE_EQ(d.energyPJ, 1024 * (t.energyPerByte[0] + t.energyPerByte[static_cast<int>(isa::Space::UB)]));
  // A 16×16×16 f16 mmad with init: 4096 MACs, A and B read, C written.
  LaunchStats m = timed("mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=16, k=16, n=16, init\nend");
  EXPECT_DOUBLE_EQ(m.energyPJ, 4096 * t.energyPerMacF16 + 512 * t.energyPerByte[static_cast<int>(isa::Space::L0A)] +
                                   512 * t.energyPerByte[static_cast<int>(isa::Space::L0B)] +
                                   1024 * t.energyPerByte[static_cast<int>(isa::Space::L0C)]);
  EXPECT_EQ(m.macs, 4096u);
}

TEST(Timing, ErrorsNameTheCore) {
  Device dev(target910b(), 1 << 16);
  auto k = kernelFromAsm("get_block_idx x5\nli x6, 2\nbne x5, x6, done\nwait_flag V, S, 0\ndone:\nend");
  EXPECT_EQ(errorOf(dev, k, {4, {}, true}),
            "core 2, instruction 3 (wait_flag V, S, 0): deadlock: S waits for flag (V, S, 0) (instruction 3); "
            "nothing left can set them");
}

}  // namespace
}  // namespace pyasc::sim::test
