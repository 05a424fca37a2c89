// A hand-written double-buffered vadd kernel: GM→UB (MTE2), vadd (V), UB→GM (MTE3) over 16 tiles
// with ping-pong buffers; correct, overlapped, and a race when one wait_flag is removed.
#include <random>

#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

constexpr int kTiles = 16;
constexpr int kTileBytes = 0x4000;  // 8192 f16 = 64 repeats

// x1 = a, x2 = b, x3 = out. Buffer p (0 ping, 1 pong): a at p*0xc000, b at +0x4000, out at +0x8000.
// Flags per buffer p: MTE2→V (inputs loaded), V→MTE3 (sum ready), MTE3→MTE2 (buffer free again).
std::string doubleBufferedVadd(bool withVWait = true) {
  std::string s =
      "li x4, 0\nli x5, 0\nli x6, 8\n"
      "set_flag MTE3, MTE2, 0\nset_flag MTE3, MTE2, 1\n"
      "loop:\nadd x7, x1, x5\nadd x8, x2, x5\nadd x9, x3, x5\n";
  for (int p = 0; p < 2; ++p) {
    auto hex = [](int v) {
      char b[16];
      std::snprintf(b, sizeof b, "0x%x", v);
      return std::string(b);
    };
    std::string P = std::to_string(p), base = hex(p * 0xc000), gmOff = hex(p * kTileBytes);
    s += "wait_flag MTE3, MTE2, " + P + "\n";
    s += "copy_gm_ub ub[" + base + "], gm[x7+" + gmOff + "], nburst=1, len=512\n";
    s += "copy_gm_ub ub[" + hex(p * 0xc000 + 0x4000) + "], gm[x8+" + gmOff + "], nburst=1, len=512\n";
    s += "set_flag MTE2, V, " + P + "\n";
    if (withVWait || p == 1) s += "wait_flag MTE2, V, " + P + "\n";
    s += "vadd.f16 ub[" + hex(p * 0xc000 + 0x8000) + "], ub[" + base + "], ub[" + hex(p * 0xc000 + 0x4000) +
         "], repeat=64\n";
    s += "set_flag V, MTE3, " + P + "\n";
    s += "wait_flag V, MTE3, " + P + "\n";
    s += "copy_ub_gm gm[x9+" + gmOff + "], ub[" + hex(p * 0xc000 + 0x8000) + "], nburst=1, len=512\n";
    s += "set_flag MTE3, MTE2, " + P + "\n";
  }
  s += "add x5, x5, 0x8000\nadd x4, x4, 1\nblt x4, x6, loop\n"
       "wait_flag MTE3, MTE2, 0\nwait_flag MTE3, MTE2, 1\nend\n";
  return s;
}

struct VaddFixture {
  static constexpr uint64_t kA = 0, kB = 0x100000, kOut = 0x200000;
  Device dev{target910b(), 0x300000};
  std::vector<uint16_t> a, b;
  VaddFixture() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> d(-100, 100);
    for (int i = 0; i < kTiles * kTileBytes / 2; ++i) {
      a.push_back(floatToHalf(d(rng)));
      b.push_back(floatToHalf(d(rng)));
    }
    std::memcpy(dev.gm() + kA, a.data(), a.size() * 2);
    std::memcpy(dev.gm() + kB, b.data(), b.size() * 2);
    dev.addRegion({kA, a.size() * 2, "a", false});
    dev.addRegion({kB, b.size() * 2, "b", false});
    dev.addRegion({kOut, a.size() * 2, "out", true});
  }
  LaunchOptions options() const { return {1, {kA, kB, kOut}, true}; }
};

TEST(DoubleBufferKernel, ComputesTheSumAndOverlapsPipes) {
  VaddFixture f;
  LaunchStats s = f.dev.launch(kernelFromAsm(doubleBufferedVadd(), "vadd_db"), f.options());
  const uint16_t* out = reinterpret_cast<const uint16_t*>(f.dev.gm() + VaddFixture::kOut);
  for (size_t i = 0; i < f.a.size(); ++i) {
    ASSERT_EQ(out[i], floatToHalf(halfToFloat(f.a[i]) + halfToFloat(f.b[i]))) << i;
  }
  uint64_t busy = 0;
  for (const PipeStats& p : s.pipes) busy += p.busyCycles;
  RecordProperty("cycles", std::to_string(s.cycles));
  RecordProperty("busy", std::to_string(busy));
  EXPECT_LT(s.cycles, busy);
  // MTE2 moves 2 × 16 tiles at 32 B/cycle; each copy's 200-cycle latency overlaps the next copy.
  uint64_t mte2 = s.pipes[static_cast<int>(isa::Pipe::MTE2)].busyCycles;
  EXPECT_EQ(mte2, 32u * (kTileBytes / 32));
  EXPECT_LT(s.cycles, mte2 + mte2 / 10);
  EXPECT_EQ(s.bytes[static_cast<int>(DmaPath::GmToUb)], 2u * kTiles * kTileBytes);
  EXPECT_EQ(s.bytes[static_cast<int>(DmaPath::UbToGm)], 1u * kTiles * kTileBytes);
  EXPECT_EQ(s.vectorOps, static_cast<uint64_t>(kTiles) * kTileBytes / 2);
  EXPECT_GT(s.energyPJ, 0);
}

TEST(DoubleBufferKernel, RemovingOneWaitIsReportedAsARace) {
  VaddFixture f;
  EXPECT_EQ(errorOf(f.dev, kernelFromAsm(doubleBufferedVadd(false), "vadd_db"), f.options()),
            "core 0, instruction 12 (vadd.f16 ub[0x8000], ub[0x0], ub[0x4000], repeat=64, blk=1/1/1, rep=8/8/8): "
            "data race: V reads ub[0x0..0x4000) written by MTE2 at instruction 9 with no flag or barrier between them");
}

TEST(DoubleBufferKernel, SameLaunchTwiceIsIdentical) {
  VaddFixture f;
  Kernel k = kernelFromAsm(doubleBufferedVadd(), "vadd_db");
  LaunchStats s1 = f.dev.launch(k, f.options());
  LaunchStats s2 = f.dev.launch(k, f.options());
  EXPECT_EQ(s1.cycles, s2.cycles);
  EXPECT_EQ(s1.bytes, s2.bytes);
  for (int p = 0; p < isa::kPipeCount; ++p) EXPECT_EQ(s1.pipes[p].busyCycles, s2.pipes[p].busyCycles);
  EXPECT_EQ(s1.energyPJ, s2.energyPJ);
}

}  // namespace
}  // namespace pyasc::sim::test
