// A hand-written 256×256×256 fp16 matmul kernel: GM→L1 in the order tiles need the data,
// load_l0a/load_l0b into ping-pong L0 buffers, mmad over the whole k, fixpipe to GM in f32.
#include <cmath>
#include <random>
#include <set>

#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

constexpr int N = 256;  // m = n = k
constexpr int T = 64;   // output tile edge
constexpr int kTilesPerEdge = N / T;

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// x1 = A (N×N f16), x2 = B (N×N f16), x3 = C (N×N f32), all row-major. L1 holds A at 0 and B at
// 0x20000 in the same ND layout. Row-block i of A and column-block j of B arrive as chunks in the
// order A0 B0 B1 A1 B2 A2 B3 A3; each output tile is computed as soon as its two chunks are in.
std::string matmulKernel() {
  struct Chunk {
    bool isA;
    int index;
  };
  const Chunk chunks[] = {{true, 0}, {false, 0}, {false, 1}, {true, 1}, {false, 2}, {true, 2}, {false, 3}, {true, 3}};
  std::string s;
  for (int e = 0; e < 8; ++e) {
    const Chunk& c = chunks[e];
    if (c.isA) {
      uint64_t off = static_cast<uint64_t>(c.index) * T * N * 2;
      s += "copy_gm_l1 l1[" + hex(off) + "], gm[x1+" + hex(off) + "], nburst=1, len=" + std::to_string(T * N * 2 / 32) + "\n";
    } else {
      uint64_t off = static_cast<uint64_t>(c.index) * T * 2;
      s += "copy_gm_l1 l1[" + hex(0x20000 + off) + "], gm[x2+" + hex(off) + "], nburst=" + std::to_string(N) +
           ", len=" + std::to_string(T * 2 / 32) + ", srcgap=" + std::to_string((N - T) * 2 / 32) +
           ", dstgap=" + std::to_string((N - T) * 2 / 32) + "\n";
    }
    s += "set_flag MTE2, MTE1, " + std::to_string(e) + "\n";
  }
  s += "set_flag M, MTE1, 0\nset_flag M, MTE1, 1\nset_flag FIX, M, 0\nset_flag FIX, M, 1\n";
  // Tiles in arrival order: after chunk e, every tile whose row and column blocks are both in.
  std::set<int> haveA, haveB;
  int t = 0;
  for (int e = 0; e < 8; ++e) {
    (chunks[e].isA ? haveA : haveB).insert(chunks[e].index);
    s += "wait_flag MTE2, MTE1, " + std::to_string(e) + "\n";
    std::vector<std::pair<int, int>> ready;
    if (chunks[e].isA) {
      for (int j : haveB) ready.push_back({chunks[e].index, j});
    } else {
      for (int i : haveA) ready.push_back({i, chunks[e].index});
    }
    for (auto [i, j] : ready) {
      std::string p = std::to_string(t % 2);
      std::string l0 = hex((t % 2) * 0x8000), l0c = hex((t % 2) * 0x4000);
      s += "wait_flag M, MTE1, " + p + "\n";
      s += "load_l0a.f16 l0a[" + l0 + "], l1[" + hex(static_cast<uint64_t>(i) * T * N * 2) + "], m=64, k=256, stride=256\n";
      s += "load_l0b.f16 l0b[" + l0 + "], l1[" + hex(0x20000 + static_cast<uint64_t>(j) * T * 2) +
           "], k=256, n=64, stride=256\n";
      s += "set_flag MTE1, M, " + p + "\n";
      s += "wait_flag MTE1, M, " + p + "\nwait_flag FIX, M, " + p + "\n";
      s += "mmad.f16.f32 l0c[" + l0c + "], l0a[" + l0 + "], l0b[" + l0 + "], m=64, k=256, n=64, init\n";
      s += "set_flag M, MTE1, " + p + "\nset_flag M, FIX, " + p + "\n";
      s += "wait_flag M, FIX, " + p + "\n";
      s += "fix_l0c_gm.f32.f32.rint gm[x3+" + hex((static_cast<uint64_t>(i) * T * N + j * T) * 4) + "], l0c[" + l0c +
           "], m=64, n=64, stride=256\n";
      s += "set_flag FIX, M, " + p + "\n";
      ++t;
    }
  }
  s += "wait_flag M, MTE1, 0\nwait_flag M, MTE1, 1\nwait_flag FIX, M, 0\nwait_flag FIX, M, 1\nend\n";
  return s;
}

TEST(MatmulKernel, MatchesFloat64ReferenceAndApproachesTheFloor) {
  const uint64_t kA = 0, kB = 0x20000, kC = 0x40000;
  Device dev(target910b(), 0x80000);
  std::mt19937 rng(42);
  std::normal_distribution<float> d(0, 1);
  std::vector<uint16_t> a(N * N), b(N * N);
  for (auto& v : a) v = floatToHalf(d(rng));
  for (auto& v : b) v = floatToHalf(d(rng));
  std::memcpy(dev.gm() + kA, a.data(), a.size() * 2);
  std::memcpy(dev.gm() + kB, b.data(), b.size() * 2);
  dev.addRegion({kA, N * N * 2, "a", false});
  dev.addRegion({kB, N * N * 2, "b", false});
  dev.addRegion({kC, N * N * 4, "c", true});
  LaunchStats s = dev.launch(kernelFromAsm(matmulKernel(), "matmul256"), {1, {kA, kB, kC}, true});

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
  EXPECT_LE(std::sqrt(err / norm), 1e-3);
  EXPECT_GT(std::sqrt(err / norm), 0.0);
  EXPECT_EQ(s.macs, static_cast<uint64_t>(N) * N * N);

  // Floors on one ascend910b core: the cube at 4096 MACs/cycle, and MTE2 bringing A and B from GM.
  const Target& tg = target910b();
  double cubeFloor = static_cast<double>(N) * N * N / 4096.0;
  double mte2Floor = 2.0 * N * N * 2 / tg.bw(DmaPath::GmToL1);
  RecordProperty("cycles", std::to_string(s.cycles));
  RecordProperty("cube_floor", std::to_string(cubeFloor));
  RecordProperty("mte2_floor", std::to_string(mte2Floor));
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::M)].busyCycles, 16u * (20 + 4 * 4 * 16));
  // The kernel is memory-bound on this target (MTE2 floor = 2 × cube floor); serial DMA and fixpipe
  // latencies (200 cycles each) and the last chunk's four tiles make up the rest.
  EXPECT_LE(s.cycles, 1.55 * std::max(cubeFloor, mte2Floor));
}

}  // namespace
}  // namespace pyasc::sim::test
