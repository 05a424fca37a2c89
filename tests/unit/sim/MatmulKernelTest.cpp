// A hand-written 256×256×256 fp16 matmul kernel: B and then A's row-blocks GM→L1, load_l0a/load_l0b
// into ping-pong L0 buffers, mmad accumulating over k-steps into ping-pong L0C, fixpipe to GM in f32;
// and the same on four cores, one output quadrant each.
#include <cmath>
#include <random>

#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

constexpr int N = 256;     // m = n = k
constexpr int kRows = 64;  // rows of A (and of C) per block
constexpr int kStep = 64;  // k per mmad

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// x1 = A (N×N f16), x2 = B (N×N f16), x3 = C (N×N f32), all row-major; L1 holds A at 0 and B at
// 0x20000. MTE2 brings all of B, then A's row-blocks, flagging MTE1 (event = block) after each.
// Per row-block: four k-steps, each loading a 64×64 slice of A and a 64×256 slice of B into L0
// buffer q (flags MTE1→M and M→MTE1 per buffer) and accumulating into L0C buffer p; the block is
// then written out by FIX (flags M→FIX and FIX→M per L0C buffer). The reuse flags start set.
std::string matmulKernel() {
  const int blocks = N / kRows, steps = N / kStep;
  std::string s = "copy_gm_l1 l1[0x20000], gm[x2+0x0], nburst=1, len=" + std::to_string(N * N * 2 / 32) + "\n";
  for (int t = 0; t < blocks; ++t) {
    std::string off = hex(static_cast<uint64_t>(t) * kRows * N * 2);
    s += "copy_gm_l1 l1[" + off + "], gm[x1+" + off + "], nburst=1, len=" + std::to_string(kRows * N * 2 / 32) + "\n";
    s += "set_flag MTE2, MTE1, " + std::to_string(t) + "\n";
  }
  s += "set_flag M, MTE1, 0\nset_flag M, MTE1, 1\nset_flag FIX, M, 0\nset_flag FIX, M, 1\n";
  int step = 0;
  for (int t = 0; t < blocks; ++t) {
    std::string p = std::to_string(t % 2), l0c = hex((t % 2) * 0x10000);
    s += "wait_flag MTE2, MTE1, " + std::to_string(t) + "\n";
    for (int ks = 0; ks < steps; ++ks, ++step) {
      std::string q = std::to_string(step % 2), l0 = hex((step % 2) * 0x8000);
      s += "wait_flag M, MTE1, " + q + "\n";
      s += "load_l0a.f16 l0a[" + l0 + "], l1[" + hex((static_cast<uint64_t>(t) * kRows * N + ks * kStep) * 2) +
           "], m=64, k=64, stride=256\n";
      s += "load_l0b.f16 l0b[" + l0 + "], l1[" + hex(0x20000 + static_cast<uint64_t>(ks) * kStep * N * 2) +
           "], k=64, n=256, stride=256\n";
      s += "set_flag MTE1, M, " + q + "\nwait_flag MTE1, M, " + q + "\n";
      if (ks == 0) s += "wait_flag FIX, M, " + p + "\n";
      s += "mmad.f16.f32 l0c[" + l0c + "], l0a[" + l0 + "], l0b[" + l0 + "], m=64, k=64, n=256" +
           (ks == 0 ? ", init" : "") + "\n";
      s += "set_flag M, MTE1, " + q + "\n";
    }
    s += "set_flag M, FIX, " + p + "\nwait_flag M, FIX, " + p + "\n";
    s += "fix_l0c_gm.f32.f32.rint gm[x3+" + hex(static_cast<uint64_t>(t) * kRows * N * 4) + "], l0c[" + l0c +
         "], m=64, n=256, stride=256\n";
    s += "set_flag FIX, M, " + p + "\n";
  }
  s += "wait_flag M, MTE1, 0\nwait_flag M, MTE1, 1\nwait_flag FIX, M, 0\nwait_flag FIX, M, 1\nend\n";
  return s;
}

// The same product on four cores, one 128×128 quadrant of C each: core b takes A's row half b/2 and
// B's column half b%2 (whose rows land in L1 with a stride of 128), in two 64-row blocks of four
// k-steps. The cores share A and B only by reading them, and each writes its own quadrant.
std::string quadrantMatmulKernel() {
  std::string s =
      "get_block_idx x4\nshr x8, x4, 1\nand x9, x4, 1\n"
      "mul x10, x8, 0x10000\nadd x5, x1, x10\n"              // A rows: mi * 128 * 256 * 2
      "mul x11, x9, 0x100\nadd x6, x2, x11\n"                // B columns: ni * 128 * 2
      "mul x12, x8, 0x20000\nmul x13, x9, 0x200\nadd x7, x3, x12\nadd x7, x7, x13\n"  // C quadrant (f32)
      "copy_gm_l1 l1[0x20000], gm[x6+0x0], nburst=256, len=8, srcgap=8, dstgap=0\n";
  for (int t = 0; t < 2; ++t) {
    s += "copy_gm_l1 l1[" + hex(t * 0x8000) + "], gm[x5+" + hex(t * 0x8000) + "], nburst=1, len=1024\n";
    s += "set_flag MTE2, MTE1, " + std::to_string(t) + "\n";
  }
  s += "set_flag M, MTE1, 0\nset_flag M, MTE1, 1\nset_flag FIX, M, 0\nset_flag FIX, M, 1\n";
  int step = 0;
  for (int t = 0; t < 2; ++t) {
    std::string p = std::to_string(t), l0c = hex(t * 0x8000);
    s += "wait_flag MTE2, MTE1, " + p + "\n";
    for (int ks = 0; ks < 4; ++ks, ++step) {
      std::string q = std::to_string(step % 2), l0 = hex((step % 2) * 0x8000);
      s += "wait_flag M, MTE1, " + q + "\n";
      s += "load_l0a.f16 l0a[" + l0 + "], l1[" + hex(t * 0x8000 + ks * 128) + "], m=64, k=64, stride=256\n";
      s += "load_l0b.f16 l0b[" + l0 + "], l1[" + hex(0x20000 + ks * 64 * 128 * 2) + "], k=64, n=128, stride=128\n";
      s += "set_flag MTE1, M, " + q + "\nwait_flag MTE1, M, " + q + "\n";
      if (ks == 0) s += "wait_flag FIX, M, " + p + "\n";
      s += "mmad.f16.f32 l0c[" + l0c + "], l0a[" + l0 + "], l0b[" + l0 + "], m=64, k=64, n=128" +
           (ks == 0 ? ", init" : "") + "\n";
      s += "set_flag M, MTE1, " + q + "\n";
    }
    s += "set_flag M, FIX, " + p + "\nwait_flag M, FIX, " + p + "\n";
    s += "fix_l0c_gm.f32.f32.rint gm[x7+" + hex(t * 64 * 256 * 4) + "], l0c[" + l0c + "], m=64, n=128, stride=256\n";
    s += "set_flag FIX, M, " + p + "\n";
  }
  s += "wait_flag M, MTE1, 0\nwait_flag M, MTE1, 1\nwait_flag FIX, M, 0\nwait_flag FIX, M, 1\nend\n";
  return s;
}

// A and B random (normal, seed 42) in GM at 0 and 0x20000, C at 0x40000.
struct MatmulData {
  static constexpr uint64_t kA = 0, kB = 0x20000, kC = 0x40000;
  Device dev{target910b(), 0x80000};
  std::vector<uint16_t> a, b;
  MatmulData() : a(N * N), b(N * N) {
    std::mt19937 rng(42);
    std::normal_distribution<float> d(0, 1);
    for (auto& v : a) v = floatToHalf(d(rng));
    for (auto& v : b) v = floatToHalf(d(rng));
    std::memcpy(dev.gm() + kA, a.data(), a.size() * 2);
    std::memcpy(dev.gm() + kB, b.data(), b.size() * 2);
    dev.addRegion({kA, N * N * 2, "a", false});
    dev.addRegion({kB, N * N * 2, "b", false});
    dev.addRegion({kC, N * N * 4, "c", true});
  }
  // ‖C − A·B‖ / ‖A·B‖ against a float64 product of the f16 inputs.
  double relativeError() {
    const float* c = reinterpret_cast<const float*>(dev.gm() + kC);
    double err = 0, norm = 0;
    for (int r = 0; r < N; ++r) {
      for (int col = 0; col < N; ++col) {
        double ref = 0;
        for (int q = 0; q < N; ++q) ref += static_cast<double>(halfToFloat(a[r * N + q])) * halfToFloat(b[q * N + col]);
        err += (c[r * N + col] - ref) * (c[r * N + col] - ref);
        norm += ref * ref;
      }
    }
    return std::sqrt(err / norm);
  }
};

TEST(MatmulKernel, MatchesFloat64ReferenceAndApproachesTheFloor) {
  MatmulData m;
  LaunchStats s = m.dev.launch(kernelFromAsm(matmulKernel(), "matmul256"), {1, {m.kA, m.kB, m.kC}, true});
  double error = m.relativeError();
  EXPECT_LE(error, 1e-3);
  EXPECT_GT(error, 0.0);
  EXPECT_EQ(s.macs, static_cast<uint64_t>(N) * N * N);

  // Floors on one ascend910b core: the cube at 4096 MACs/cycle, and MTE2 bringing A and B from GM.
  const Target& tg = target910b();
  double cubeFloor = static_cast<double>(N) * N * N / 4096.0;
  double mte2Floor = 2.0 * N * N * 2 / tg.bw(DmaPath::GmToL1);
  RecordProperty("cycles", std::to_string(s.cycles));
  RecordProperty("cube_floor", std::to_string(cubeFloor));
  RecordProperty("mte2_floor", std::to_string(mte2Floor));
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::M)].busyCycles, 16u * (20 + 4 * 16 * 4));
  // The kernel is memory-bound on this target (MTE2 floor = 2 × cube floor). Above it: 200 cycles of
  // latency per copy, and after the last row-block arrives its four k-steps and its 64 KB write-back
  // (fixpipe at 64 B/cycle, the second-busiest pipe).
  EXPECT_LE(s.cycles, 1.45 * std::max(cubeFloor, mte2Floor));
}

TEST(MatmulKernel, FourCoresShareInputsAndWriteOwnQuadrants) {
  MatmulData m;
  LaunchStats s = m.dev.launch(kernelFromAsm(quadrantMatmulKernel(), "matmul256x4"), {4, {m.kA, m.kB, m.kC}, true});
  EXPECT_LE(m.relativeError(), 1e-3);
  EXPECT_EQ(s.macs, static_cast<uint64_t>(N) * N * N);
  EXPECT_EQ(s.bytes[static_cast<int>(DmaPath::GmToL1)], 4u * 128 * 1024);
  // Per core: 128 KB at 32 B/cycle (the GM share 865/4 is higher) is the floor; the cube needs 1024.
  RecordProperty("cycles", std::to_string(s.cycles));
  EXPECT_LE(s.cycles, 1.6 * 4096);
}

}  // namespace
}  // namespace pyasc::sim::test
