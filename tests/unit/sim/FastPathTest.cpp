// The bulk paths (contiguous vector instructions with F16C, float16 mmad in binary32) against the
// general per-lane paths, bit for bit, on operands rich in NaN, infinities, subnormals and zeros.
#include <random>

#include "sim/FastPaths.h"
#include "sim/HalfLoops.h"
#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

// Runs `body` on `ub` with the bulk paths on and off; both must give the same bytes.
void expectSameBothWays(const std::string& body, const std::vector<uint8_t>& ub, size_t outBytes) {
  LaunchStats fast, general;
  std::vector<uint8_t> bulk = runOnUb(body, ub, outBytes, &fast);
  setFastPaths(false);
  std::vector<uint8_t> lanes = runOnUb(body, ub, outBytes, &general);
  setFastPaths(true);
  ASSERT_EQ(bulk.size(), lanes.size());
  for (size_t i = 0; i < bulk.size(); i += 2) {
    uint16_t x, y;
    std::memcpy(&x, &bulk[i], 2);
    std::memcpy(&y, &lanes[i], 2);
    ASSERT_EQ(x, y) << body << " at byte " << i;
  }
  EXPECT_EQ(fast.cycles, general.cycles) << body;
  EXPECT_EQ(fast.vectorOps, general.vectorOps) << body;
  EXPECT_EQ(fast.energyPJ, general.energyPJ) << body;
}

// 3 × 16 KB of float16 bit patterns: a quarter special values, the rest any of the 65536 patterns;
// `finite`: infinities and NaNs replaced by their exponent-0x1e neighbours.
std::vector<uint8_t> specialHalves(unsigned seed, bool finite = false) {
  const uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c00,
                               0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x3c00, 0xbc00, 0x7bfe, 0x3555, 0x0200};
  std::mt19937 rng(seed);
  std::vector<uint16_t> v(3 * 8192);
  for (auto& h : v) {
    h = rng() % 4 == 0 ? specials[rng() % (sizeof specials / sizeof specials[0])] : static_cast<uint16_t>(rng());
    if (finite && (h & 0x7c00) == 0x7c00) h ^= 0x0400;
  }
  return bytesOf(v);
}

TEST(FastPath, HostHalfLoopsAreReported) { RecordProperty("f16c", hostHasHalfLoops() ? "yes" : "no"); }

TEST(FastPath, Float16BinaryOpsMatchThePerLanePath) {
  std::vector<uint8_t> ub = specialHalves(1);
  for (const char* op : {"vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vaddrelu"}) {
    std::string name(op);
    expectSameBothWays(name + ".f16 ub[0x8000], ub[0x0], ub[0x4000], repeat=64", ub, 0xc000);
    expectSameBothWays(name + ".f16 ub[0x0], ub[0x0], ub[0x4000], repeat=64", ub, 0xc000);  // in place
    expectSameBothWays(name + ".f16 ub[0x4000], ub[0x0], ub[0x4000], repeat=64", ub, 0xc000);
  }
}

TEST(FastPath, Float16ScalarOpsMatchThePerLanePath) {
  std::vector<uint8_t> ub = specialHalves(2);
  for (const char* op : {"vadds", "vmuls", "vmaxs", "vmins"}) {
    for (const char* scalar : {"#0x3c00", "#0x7e00", "#0xfc00", "#0x8000", "#0x0001"}) {
      expectSameBothWays(std::string(op) + ".f16 ub[0x8000], ub[0x0], " + scalar + ", repeat=64", ub, 0xc000);
    }
  }
}

TEST(FastPath, CounterModeTailsAndOtherTypes) {
  std::vector<uint8_t> ub = specialHalves(3);
  for (const char* count : {"1", "7", "1000", "8191"}) {
    expectSameBothWays(std::string("set_mask_mode counter\nli x5, ") + count +
                           "\nset_vmask x5, x0\nvmax.f16 ub[0x8000], ub[0x0], ub[0x4000]",
                       ub, 0xc000);
  }
  expectSameBothWays("vadd.f32 ub[0x8000], ub[0x0], ub[0x4000], repeat=64", ub, 0xc000);
  expectSameBothWays("vmla.f32 ub[0x8000], ub[0x0], ub[0x4000], repeat=64", ub, 0xc000);
  expectSameBothWays("vmla.f16 ub[0x8000], ub[0x0], ub[0x4000], repeat=64", ub, 0xc000);
  expectSameBothWays("vadd.s32 ub[0x8000], ub[0x0], ub[0x4000], repeat=64", ub, 0xc000);
  expectSameBothWays("vexp.f16 ub[0x8000], ub[0x0], repeat=64", ub, 0xc000);
  expectSameBothWays("vrelu.f16 ub[0x8000], ub[0x8000], repeat=64", ub, 0xc000);
}

TEST(FastPath, PartialMasksAndOverlapsTakeThePerLanePath) {
  std::vector<uint8_t> ub = specialHalves(4);
  // overlapping by one repeat: the per-repeat order matters, so the general path runs
  expectSameBothWays("vadd.f16 ub[0x100], ub[0x0], ub[0x4000], repeat=32", ub, 0xc000);
  expectSameBothWays("li x5, 0x00ff00ff00ff00ff\nset_vmask x5, x5\nvadd.f16 ub[0x8000], ub[0x0], ub[0x4000], repeat=8",
                     ub, 0xc000);
}

// mmad.f16.f32 with accumulation over two k steps, inputs with every kind of float16 value (finite
// ones, so that most sums stay finite, and all of them).
void expectMmadSameBothWays(const std::vector<uint8_t>& in) {
  const int m = 48, k = 64, n = 32;
  auto run = [&](bool fast) {
    setFastPaths(fast);
    Device dev(target910b(), 1 << 20);
    std::memcpy(dev.gm(), in.data(), m * k * 2);
    std::memcpy(dev.gm() + 0x10000, in.data() + 0x8000, k * n * 2);
    std::string text =
        "copy_gm_l1 l1[0x0], gm[x1+0], nburst=1, len=" + std::to_string(m * k * 2 / 32) + "\n" +
        "copy_gm_l1 l1[0x10000], gm[x1+0x10000], nburst=1, len=" + std::to_string(k * n * 2 / 32) + "\n" +
        "set_flag MTE2, MTE1, 0\nwait_flag MTE2, MTE1, 0\n"
        "load_l0a.f16 l0a[0x0], l1[0x0], m=48, k=64, stride=64\n"
        "load_l0b.f16 l0b[0x0], l1[0x10000], k=64, n=32, stride=32\n"
        "set_flag MTE1, M, 0\nwait_flag MTE1, M, 0\n"
        "mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=48, k=64, n=32, init\n"
        "mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=48, k=64, n=32\n"
        "set_flag M, FIX, 0\nwait_flag M, FIX, 0\n"
        "fix_l0c_gm.f32.f32.rint gm[x1+0x40000], l0c[0x0], m=48, n=32, stride=32\nend";
    LaunchStats s = dev.launch(kernelFromAsm(text), {1, {0}, true});
    setFastPaths(true);
    std::vector<uint32_t> out(m * n);
    std::memcpy(out.data(), dev.gm() + 0x40000, out.size() * 4);
    return std::make_pair(out, s.cycles);
  };
  auto fast = run(true), general = run(false);
  for (size_t i = 0; i < fast.first.size(); ++i) {
    uint32_t x = fast.first[i], y = general.first[i];
    bool bothNan = (x & 0x7fffffffu) > 0x7f800000u && (y & 0x7fffffffu) > 0x7f800000u;
    if (!bothNan) {
      ASSERT_EQ(x, y) << i;
    }
  }
  EXPECT_EQ(fast.second, general.second);
}

TEST(FastPath, Float16MmadMatchesThePerProductPath) {
  expectMmadSameBothWays(specialHalves(5, true));
  expectMmadSameBothWays(specialHalves(6));
}

}  // namespace
}  // namespace pyasc::sim::test
