// Vector instruction semantics against hand-computed values and plain reference loops.
#include <cmath>
#include <limits>

#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

float h2f(uint16_t h) { return halfToFloat(h); }

TEST(VectorUnit, AddF16TwoRepeats) {
  std::vector<float> a(256), b(256);
  for (int i = 0; i < 256; ++i) {
    a[i] = i * 0.5f;
    b[i] = 1.25f;
  }
  auto ub = bytesOf(halves(a));
  auto bb = bytesOf(halves(b));
  ub.insert(ub.end(), bb.begin(), bb.end());
  auto out = valuesOf<uint16_t>(runOnUb("vadd.f16 ub[0x400], ub[0x0], ub[0x200], repeat=2", ub, 0x600));
  for (int i = 0; i < 256; ++i) EXPECT_EQ(h2f(out[0x200 + i]), a[i] + 1.25f) << i;
}

TEST(VectorUnit, NormalMaskLeavesInactiveLanes) {
  std::vector<uint16_t> v(128 * 3, floatToHalf(2.0f));
  for (int i = 256; i < 384; ++i) v[i] = floatToHalf(-7.0f);  // old dst
  std::string body =
      "li x5, 0x00000000ffff00ff\nli x6, 0x8000000000000001\nset_vmask x5, x6\n"
      "vmul.f16 ub[0x200], ub[0x0], ub[0x100]";
  auto out = valuesOf<uint16_t>(runOnUb(body, bytesOf(v), 0x300));
  uint64_t lo = 0x00000000ffff00ffull, hi = 0x8000000000000001ull;
  for (int e = 0; e < 128; ++e) {
    bool on = e < 64 ? (lo >> e) & 1 : (hi >> (e - 64)) & 1;
    EXPECT_EQ(h2f(out[256 + e]), on ? 4.0f : -7.0f) << e;
  }
}

TEST(VectorUnit, BlockAndRepeatStrides) {
  // dst blk 2, rep 16; src0 blk 1, rep 8; src1 blk 0 (broadcast block 0), rep 1; two repeats of f32.
  std::vector<float> ub(0x1000 / 4, 0.0f);
  for (int i = 0; i < 128; ++i) ub[i] = static_cast<float>(i);           // src0 at 0x0
  for (int i = 0; i < 16; ++i) ub[0x400 / 4 + i] = 1000.0f * (i + 1);     // src1 at 0x400
  auto out = valuesOf<float>(runOnUb("vadd.f32 ub[0x800], ub[0x0], ub[0x400], repeat=2, blk=2/1/0, rep=16/8/1",
                                     bytesOf(ub), 0x1000));
  std::vector<float> expect = ub;
  for (int r = 0; r < 2; ++r) {
    for (int e = 0; e < 64; ++e) {
      auto addr = [&](uint64_t base, int blk, int rep) { return base + (r * rep + (e / 8) * blk) * 32 + (e % 8) * 4; };
      expect[addr(0x800, 2, 16) / 4] = ub[addr(0, 1, 8) / 4] + ub[addr(0x400, 0, 1) / 4];
    }
  }
  EXPECT_EQ(out, expect);
}

TEST(VectorUnit, Repeat255F32) {
  int n = 255 * 64;
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i % 1000) * 0.25f;
  LaunchStats stats;
  auto out = valuesOf<float>(runOnUb("vadds.f32 ub[0x0], ub[0x0], #0x40400000, repeat=255", bytesOf(v), n * 4, &stats));
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], v[i] + 3.0f) << i;
  EXPECT_EQ(stats.vectorOps, static_cast<uint64_t>(n));
}

TEST(VectorUnit, CounterModeRunsCeilRepeatsAndIgnoresRepeatField) {
  std::vector<uint16_t> v(384, floatToHalf(1.5f));
  std::string body =
      "set_mask_mode counter\nli x5, 200\nset_vmask x5, x0\n"
      "vmuls.f16 ub[0x0], ub[0x0], #0x4000, repeat=1";
  auto out = valuesOf<uint16_t>(runOnUb(body, bytesOf(v), 768));
  for (int i = 0; i < 384; ++i) EXPECT_EQ(h2f(out[i]), i < 200 ? 3.0f : 1.5f) << i;
}

TEST(VectorUnit, ConvRoundingModes) {
  struct Case {
    float in;
    uint16_t rint, floor, ceil, trunc, round;
  };
  const float tie = 1.0f + std::ldexp(1.0f, -11);
  const Case cases[] = {
      {tie, 0x3c00, 0x3c00, 0x3c01, 0x3c00, 0x3c01},
      {-tie, 0xbc00, 0xbc01, 0xbc00, 0xbc00, 0xbc01},
      {1.0f + 3 * std::ldexp(1.0f, -12), 0x3c01, 0x3c00, 0x3c01, 0x3c00, 0x3c01},
      {70000.0f, 0x7c00, 0x7bff, 0x7c00, 0x7bff, 0x7c00},
      {std::ldexp(1.0f, -25) * 3, 0x0002, 0x0001, 0x0002, 0x0001, 0x0002},  // subnormal 1.5 ulp
  };
  const char* modes[] = {"rint", "floor", "ceil", "trunc", "round"};
  for (int m = 0; m < 5; ++m) {
    std::vector<float> in(64, 0.0f);
    for (size_t i = 0; i < std::size(cases); ++i) in[i] = cases[i].in;
    auto out = valuesOf<uint16_t>(
        runOnUb(std::string("vconv.f32.f16.") + modes[m] + " ub[0x100], ub[0x0], rep=4/8", bytesOf(in), 0x180));
    for (size_t i = 0; i < std::size(cases); ++i) {
      const uint16_t want[] = {cases[i].rint, cases[i].floor, cases[i].ceil, cases[i].trunc, cases[i].round};
      EXPECT_EQ(out[0x80 + i], want[m]) << modes[m] << " case " << i;
    }
  }
}

TEST(VectorUnit, ConvToIntegersSaturatesAndNanIsZero) {
  std::vector<uint16_t> in(128, 0);
  const float vals[] = {2.5f, -2.5f, 300.0f, -300.0f, NAN, 0.5f};
  for (int i = 0; i < 6; ++i) in[i] = floatToHalf(vals[i]);
  auto s32 = valuesOf<int32_t>(runOnUb("vconv.f16.s32.round ub[0x100], ub[0x0], blk=1/1, rep=8/4", bytesOf(in), 0x200));
  EXPECT_EQ(s32[64 + 0], 3);
  EXPECT_EQ(s32[64 + 1], -3);
  EXPECT_EQ(s32[64 + 2], 300);
  EXPECT_EQ(s32[64 + 4], 0);
  auto s8 = runOnUb("vconv.f16.s8.rint ub[0x100], ub[0x0], rep=4/8", bytesOf(in), 0x180);
  EXPECT_EQ(static_cast<int8_t>(s8[0x100 + 0]), 2);
  EXPECT_EQ(static_cast<int8_t>(s8[0x100 + 1]), -2);
  EXPECT_EQ(static_cast<int8_t>(s8[0x100 + 2]), 127);
  EXPECT_EQ(static_cast<int8_t>(s8[0x100 + 3]), -128);
  EXPECT_EQ(static_cast<int8_t>(s8[0x100 + 4]), 0);
  auto u8 = runOnUb("vconv.f16.u8.floor ub[0x100], ub[0x0], rep=4/8", bytesOf(in), 0x180);
  EXPECT_EQ(u8[0x100 + 1], 0);
  EXPECT_EQ(u8[0x100 + 2], 255);
  EXPECT_EQ(u8[0x100 + 5], 0);
}

TEST(VectorUnit, F16SpecialValues) {
  std::vector<uint16_t> a(128, 0), b(128, 0);
  a[0] = 0x7c00, b[0] = 0xfc00;  // inf + -inf = NaN
  a[1] = 0x0001, b[1] = 0x0001;  // subnormal + subnormal
  a[2] = floatToHalf(60000), b[2] = floatToHalf(60000);  // overflow to inf
  a[3] = 0x7e00, b[3] = floatToHalf(1);  // NaN propagates
  a[4] = 0x8000, b[4] = 0x0000;          // -0 + 0 = +0
  a[5] = 0x0400, b[5] = 0x8001;          // min normal - min subnormal
  auto ub = bytesOf(a);
  auto bb = bytesOf(b);
  ub.insert(ub.end(), bb.begin(), bb.end());
  auto sum = valuesOf<uint16_t>(runOnUb("vadd.f16 ub[0x200], ub[0x0], ub[0x100]", ub, 0x300));
  EXPECT_EQ(sum[256 + 0] & 0x7c00, 0x7c00);
  EXPECT_NE(sum[256 + 0] & 0x3ff, 0);
  EXPECT_EQ(sum[256 + 1], 0x0002);
  EXPECT_EQ(sum[256 + 2], 0x7c00);
  EXPECT_TRUE(std::isnan(h2f(sum[256 + 3])));
  EXPECT_EQ(sum[256 + 4], 0x0000);
  EXPECT_EQ(sum[256 + 5], 0x03ff);
  auto mx = valuesOf<uint16_t>(runOnUb("vmax.f16 ub[0x200], ub[0x0], ub[0x100]", ub, 0x300));
  EXPECT_TRUE(std::isnan(h2f(mx[256 + 3])));
  EXPECT_EQ(mx[256 + 2], floatToHalf(60000));
}

TEST(VectorUnit, MlaRoundsTwiceInF16) {
  // a*b = 1 + 2^-11 (a tie, rounds to 1), then + 2^-11: one fused rounding would give 1 + 2^-10.
  std::vector<uint16_t> v(384);
  for (int i = 0; i < 128; ++i) {
    v[i] = 0x3c01;                                           // 1 + 2^-10
    v[128 + i] = floatToHalf(1.0f - std::ldexp(1.0f, -11));  // 1 - 2^-11
    v[256 + i] = floatToHalf(std::ldexp(1.0f, -11));
  }
  auto out = valuesOf<uint16_t>(runOnUb("vmla.f16 ub[0x200], ub[0x0], ub[0x100]", bytesOf(v), 0x300));
  // (1+2^-10)(1-2^-11) = 1 + 2^-11 - 2^-21 -> rounds to 1.0; + 2^-11 -> tie -> 1.0
  EXPECT_EQ(out[256], 0x3c00);
}

TEST(VectorUnit, S32WrapsAndUnaryOps) {
  std::vector<int32_t> a(64, 0), b(64, 1);
  a[0] = std::numeric_limits<int32_t>::max();
  a[1] = -5;
  a[2] = std::numeric_limits<int32_t>::min();
  auto ub = bytesOf(a);
  auto bb = bytesOf(b);
  ub.insert(ub.end(), bb.begin(), bb.end());
  auto sum = valuesOf<int32_t>(runOnUb("vadd.s32 ub[0x200], ub[0x0], ub[0x100]", ub, 0x300));
  EXPECT_EQ(sum[128 + 0], std::numeric_limits<int32_t>::min());
  EXPECT_EQ(sum[128 + 1], -4);
  auto abs = valuesOf<int32_t>(runOnUb("vabs.s32 ub[0x200], ub[0x0]", ub, 0x300));
  EXPECT_EQ(abs[128 + 1], 5);
  EXPECT_EQ(abs[128 + 2], std::numeric_limits<int32_t>::min());
  auto relu = valuesOf<int32_t>(runOnUb("vrelu.s32 ub[0x200], ub[0x0]", ub, 0x300));
  EXPECT_EQ(relu[128 + 1], 0);
  EXPECT_EQ(relu[128 + 0], std::numeric_limits<int32_t>::max());
}

TEST(VectorUnit, TranscendentalsRoundOnceFromDouble) {
  std::vector<float> v(64);
  for (int i = 0; i < 64; ++i) v[i] = 0.1f + 0.37f * i;
  struct Op {
    const char* name;
    double (*f)(double);
  };
  const Op ops[] = {{"vexp", [](double x) { return std::exp(x); }},
                    {"vln", [](double x) { return std::log(x); }},
                    {"vsqrt", [](double x) { return std::sqrt(x); }},
                    {"vrsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
                    {"vrec", [](double x) { return 1.0 / x; }}};
  for (const Op& op : ops) {
    auto out = valuesOf<float>(runOnUb(std::string(op.name) + ".f32 ub[0x100], ub[0x0]", bytesOf(v), 0x200));
    for (int i = 0; i < 64; ++i) EXPECT_EQ(out[64 + i], static_cast<float>(op.f(v[i]))) << op.name << " " << i;
    auto h = halves(v);
    auto outh = valuesOf<uint16_t>(runOnUb(std::string(op.name) + ".f16 ub[0x100], ub[0x0]", bytesOf(h), 0x200));
    for (int i = 0; i < 64; ++i) EXPECT_EQ(outh[128 + i], doubleToHalf(op.f(h2f(h[i])))) << op.name << " " << i;
  }
}

TEST(VectorUnit, ScalarFormsAndLeakyRelu) {
  std::vector<float> v(64);
  for (int i = 0; i < 64; ++i) v[i] = static_cast<float>(i - 32);
  std::string body = "li x7, 0x3e800000\nvlrelu.f32 ub[0x100], ub[0x0], x7\nvmaxs.f32 ub[0x200], ub[0x0], #0x40000000";
  auto out = valuesOf<float>(runOnUb(body, bytesOf(v), 0x300));
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(out[64 + i], v[i] >= 0 ? v[i] : v[i] * 0.25f);
    EXPECT_EQ(out[128 + i], std::max(v[i], 2.0f));
  }
}

TEST(VectorUnit, CompareBitsAndSelect) {
  std::vector<uint16_t> v(128 * 4, 0);
  for (int i = 0; i < 128; ++i) {
    v[i] = floatToHalf(static_cast<float>(i % 7));
    v[128 + i] = floatToHalf(3.0f);
    v[256 + i] = floatToHalf(100.0f + i);
  }
  v[5] = 0x7e00;  // NaN compares false
  std::string body =
      "li x5, 0xffffffffffffff0f\nli x6, -1\nset_vmask x5, x6\n"
      "vcmp.f16.lt ub[0x300], ub[0x0], ub[0x100]\n"
      "li x5, -1\nset_vmask x5, x6\n"
      "vsel.f16 ub[0x400], ub[0x0], ub[0x200], ub[0x300]";
  auto bytes = runOnUb(body, bytesOf(v), 0x500);
  auto out = valuesOf<uint16_t>(bytes);
  uint64_t lo = 0xffffffffffffff0full;
  for (int e = 0; e < 128; ++e) {
    bool active = e >= 64 || ((lo >> e) & 1);
    bool lt = e != 5 && (e % 7) < 3;
    bool bit = (bytes[0x300 + e / 8] >> (e % 8)) & 1;
    EXPECT_EQ(bit, active && lt) << e;
    EXPECT_EQ(out[0x200 + e], bit ? v[e] : v[256 + e]) << e;
  }
}

TEST(VectorUnit, DupImmediateAndRegister) {
  std::vector<int32_t> v(128, 0);
  std::string body = "vdup.s32 ub[0x0], #-9\nli x9, 0x123456789\nvdup.s32 ub[0x100], x9";
  auto out = valuesOf<int32_t>(runOnUb(body, bytesOf(v), 0x200));
  EXPECT_EQ(out[0], -9);
  EXPECT_EQ(out[63], -9);
  EXPECT_EQ(out[64], 0x23456789);
}

TEST(VectorUnit, CaddIsAPairwiseTree) {
  std::vector<uint16_t> v(256, floatToHalf(1.0f));
  v[0] = floatToHalf(2048.0f);
  auto out = valuesOf<uint16_t>(runOnUb("vcadd.f16 ub[0x200], ub[0x0], repeat=2, rep=1/8", bytesOf(v), 0x220));
  EXPECT_EQ(h2f(out[0x100]), 2174.0f);  // sequential f16 sums would stay at 2048
  EXPECT_EQ(h2f(out[0x101]), 128.0f);
}

TEST(VectorUnit, CmaxWithIndexFirstExtremeAndNan) {
  std::vector<float> v(128, 0.0f);
  for (int i = 0; i < 64; ++i) v[i] = static_cast<float>((i * 13) % 50);
  v[37] = 99, v[60] = 99;
  v[64 + 10] = -3, v[64 + 50] = NAN, v[64 + 51] = 1000;
  auto out = valuesOf<uint32_t>(runOnUb("vcmax.f32.idx ub[0x200], ub[0x0], repeat=2, rep=2/8", bytesOf(v), 0x220));
  EXPECT_EQ(bitsToFloat(out[0x80]), 99.0f);
  EXPECT_EQ(out[0x81], 37u);
  EXPECT_TRUE(std::isnan(bitsToFloat(out[0x82])));
  EXPECT_EQ(out[0x83], 50u);
  auto mn = valuesOf<float>(runOnUb("vcmin.f32 ub[0x200], ub[0x0], rep=1/8", bytesOf(v), 0x220));
  EXPECT_EQ(mn[0x80], 0.0f);
}

TEST(VectorUnit, Transpose16x16) {
  std::vector<uint16_t> v(512);
  for (int i = 0; i < 512; ++i) v[i] = static_cast<uint16_t>(i);
  auto out = valuesOf<uint16_t>(runOnUb("vtranspose.b16 ub[0x400], ub[0x0], repeat=2, rep=16/16", bytesOf(v), 0x800));
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < 16; ++i) {
      for (int j = 0; j < 16; ++j) EXPECT_EQ(out[512 + r * 256 + j * 16 + i], v[r * 256 + i * 16 + j]);
    }
  }
}

TEST(VectorUnit, ConvIntegerSourcesAndRoundedS32ToFloat) {
  std::vector<int32_t> in(64, 0);
  in[0] = 16777217;   // 2^24 + 1: not a float32
  in[1] = -16777217;
  in[2] = 65519;      // f16: between 65504 and infinity's rounding boundary
  in[3] = 2049;       // f16 tie between 2048 and 2050
  auto f32 = valuesOf<float>(runOnUb("vconv.s32.f32.floor ub[0x100], ub[0x0]", bytesOf(in), 0x200));
  EXPECT_EQ(f32[64 + 0], 16777216.0f);
  EXPECT_EQ(f32[64 + 1], -16777218.0f);
  auto f16 = valuesOf<uint16_t>(runOnUb("vconv.s32.f16.rint ub[0x100], ub[0x0], rep=4/8", bytesOf(in), 0x180));
  EXPECT_EQ(f16[128 + 2], 0x7bff);
  EXPECT_EQ(f16[128 + 3], floatToHalf(2048.0f));
  std::vector<uint8_t> bytes(128, 0);
  bytes[0] = 0xff;  // s8 -1, u8 255
  bytes[1] = 0x80;
  auto fromS8 = valuesOf<uint16_t>(runOnUb("vconv.s8.f16.rint ub[0x100], ub[0x0], rep=8/4", bytes, 0x200));
  EXPECT_EQ(halfToFloat(fromS8[128 + 0]), -1.0f);
  EXPECT_EQ(halfToFloat(fromS8[128 + 1]), -128.0f);
  auto fromU8 = valuesOf<uint16_t>(runOnUb("vconv.u8.f16.rint ub[0x100], ub[0x0], rep=8/4", bytes, 0x200));
  EXPECT_EQ(halfToFloat(fromU8[128 + 0]), 255.0f);
  EXPECT_EQ(halfToFloat(fromU8[128 + 1]), 128.0f);
}

TEST(VectorUnit, CompareModesOnS32AndCounterModeZerosInactiveBits) {
  std::vector<int32_t> v(128, 0);
  for (int i = 0; i < 64; ++i) {
    v[i] = i % 5;
    v[64 + i] = 2;
  }
  const char* modes[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  for (int m = 0; m < 6; ++m) {
    std::string body = std::string("set_mask_mode counter\nli x5, 40\nset_vmask x5, x0\nvcmp.s32.") + modes[m] +
                       " ub[0x200], ub[0x0], ub[0x100]";
    auto out = runOnUb(body, bytesOf(v), 0x220);
    for (int e = 0; e < 64; ++e) {
      int a = e % 5;
      bool want = m == 0 ? a == 2 : m == 1 ? a != 2 : m == 2 ? a < 2 : m == 3 ? a <= 2 : m == 4 ? a > 2 : a >= 2;
      EXPECT_EQ((out[0x200 + e / 8] >> (e % 8)) & 1, e < 40 && want ? 1 : 0) << modes[m] << " " << e;
    }
  }
}

TEST(VectorUnit, CaddS32WrapsAndF32Tree) {
  std::vector<int32_t> v(64, 1);
  v[0] = std::numeric_limits<int32_t>::max();
  auto out = valuesOf<int32_t>(runOnUb("vcadd.s32 ub[0x100], ub[0x0]", bytesOf(v), 0x120));
  EXPECT_EQ(out[64], std::numeric_limits<int32_t>::min() + 62);
  std::vector<float> f(64, 1.0f);
  f[0] = 16777216.0f;  // 2^24: adding 1 sequentially would stay there
  auto outf = valuesOf<float>(runOnUb("vcadd.f32 ub[0x100], ub[0x0]", bytesOf(f), 0x120));
  // (2^24 + 1) rounds to 2^24; the other 31 pairs give 2; then 2^24 + 2 + 4 + ... + 32 = 2^24 + 62.
  EXPECT_EQ(outf[64], 16777216.0f + 62.0f);
}

TEST(VectorUnit, CminIndexOnF16) {
  std::vector<uint16_t> v(128);
  for (int i = 0; i < 128; ++i) v[i] = floatToHalf(static_cast<float>(100 - (i % 40)));
  auto out = valuesOf<uint16_t>(runOnUb("vcmin.f16.idx ub[0x100], ub[0x0]", bytesOf(v), 0x120));
  EXPECT_EQ(halfToFloat(out[128]), 61.0f);
  EXPECT_EQ(out[129], 39);
}

TEST(VectorUnit, UbToUbCopyRunsOnTheVectorPipe) {
  std::vector<uint8_t> v(0x200);
  for (int i = 0; i < 0x200; ++i) v[i] = static_cast<uint8_t>(i);
  LaunchStats s;
  auto out = runOnUb("copy_ub_ub ub[0x400], ub[0x0], nburst=2, len=2, srcgap=2, dstgap=1", v, 0x600, &s);
  for (int i = 0; i < 2; ++i) {
    for (int b = 0; b < 64; ++b) EXPECT_EQ(out[0x400 + i * 96 + b], v[i * 128 + b]);
  }
  EXPECT_EQ(s.bytes[static_cast<int>(DmaPath::UbToUb)], 128u);
  EXPECT_EQ(s.pipes[static_cast<int>(isa::Pipe::V)].instructions, 3u);  // wait_flag, the copy, set_flag
}

}  // namespace
}  // namespace pyasc::sim::test
