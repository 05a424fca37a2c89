// mmad against an fmaf reference (one binary32 rounding per addition), s8 and f32 inputs,
// k accumulation, fixpipe conversion and valid region, and img2col convolution.
#include <cmath>
#include <random>

#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

// Puts A (m×k f16) at gm 0 and B (k×n f16) at gm 0x10000; C goes to gm 0x40000 as f32.
struct MatmulCase {
  int m, k, n;
  std::vector<uint16_t> a, b;
  MatmulCase(int m_, int k_, int n_, unsigned seed) : m(m_), k(k_), n(n_) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2, 2);
    for (int i = 0; i < m * k; ++i) a.push_back(floatToHalf(d(rng)));
    for (int i = 0; i < k * n; ++i) b.push_back(floatToHalf(d(rng)));
  }
  float ref(int r, int c, int kEnd) const {
    float acc = 0;
    for (int q = 0; q < kEnd; ++q) acc = std::fmaf(halfToFloat(a[r * k + q]), halfToFloat(b[q * n + c]), acc);
    return acc;
  }
};

std::string loadAndMultiply(const MatmulCase& c) {
  std::string s;
  s += "copy_gm_l1 l1[0x0], gm[x1+0], nburst=1, len=" + std::to_string(c.m * c.k * 2 / 32) + "\n";
  s += "copy_gm_l1 l1[0x10000], gm[x1+0x10000], nburst=1, len=" + std::to_string(c.k * c.n * 2 / 32) + "\n";
  s += "set_flag MTE2, MTE1, 0\nwait_flag MTE2, MTE1, 0\n";
  s += "load_l0a.f16 l0a[0x0], l1[0x0], m=" + std::to_string(c.m) + ", k=" + std::to_string(c.k) +
       ", stride=" + std::to_string(c.k) + "\n";
  s += "load_l0b.f16 l0b[0x0], l1[0x10000], k=" + std::to_string(c.k) + ", n=" + std::to_string(c.n) +
       ", stride=" + std::to_string(c.n) + "\n";
  s += "set_flag MTE1, M, 0\nwait_flag MTE1, M, 0\n";
  return s;
}

TEST(CubeUnit, MmadF16MatchesSequentialFmaReference) {
  MatmulCase c(48, 64, 32, 1);
  Device dev(target910b(), 1 << 20);
  std::memcpy(dev.gm(), c.a.data(), c.a.size() * 2);
  std::memcpy(dev.gm() + 0x10000, c.b.data(), c.b.size() * 2);
  std::string text = loadAndMultiply(c) +
                     "mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=48, k=64, n=32, init\n"
                     "set_flag M, FIX, 0\nwait_flag M, FIX, 0\n"
                     "fix_l0c_gm.f32.f32.rint gm[x1+0x40000], l0c[0x0], m=48, n=32, stride=40\nend";
  LaunchStats s = dev.launch(kernelFromAsm(text), {1, {0}, true});
  const float* out = reinterpret_cast<const float*>(dev.gm() + 0x40000);
  for (int r = 0; r < 48; ++r) {
    for (int col = 0; col < 32; ++col) ASSERT_EQ(out[r * 40 + col], c.ref(r, col, 64)) << r << "," << col;
  }
  EXPECT_EQ(s.macs, 48u * 64 * 32);
}

TEST(CubeUnit, MmadAccumulatesOverKSteps) {
  MatmulCase c(16, 64, 16, 2);
  Device dev(target910b(), 1 << 20);
  std::memcpy(dev.gm(), c.a.data(), c.a.size() * 2);
  std::memcpy(dev.gm() + 0x10000, c.b.data(), c.b.size() * 2);
  // Two k-halves: A columns [0,32) and [32,64) (stride 64), B rows [0,32) and [32,64).
  std::string text =
      "copy_gm_l1 l1[0x0], gm[x1+0], nburst=1, len=64\n"
      "copy_gm_l1 l1[0x10000], gm[x1+0x10000], nburst=1, len=64\n"
      "set_flag MTE2, MTE1, 0\nwait_flag MTE2, MTE1, 0\n"
      "load_l0a.f16 l0a[0x0], l1[0x0], m=16, k=32, stride=64\n"
      "load_l0a.f16 l0a[0x400], l1[0x40], m=16, k=32, stride=64\n"
      "load_l0b.f16 l0b[0x0], l1[0x10000], k=32, n=16, stride=16\n"
      "load_l0b.f16 l0b[0x400], l1[0x10400], k=32, n=16, stride=16\n"
      "set_flag MTE1, M, 0\nwait_flag MTE1, M, 0\n"
      "mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=16, k=32, n=16, init\n"
      "mmad.f16.f32 l0c[0x0], l0a[0x400], l0b[0x400], m=16, k=32, n=16\n"
      "set_flag M, FIX, 0\nwait_flag M, FIX, 0\n"
      "fix_l0c_gm.f32.f16.rint gm[x1+0x40000], l0c[0x0], m=16, n=16, stride=16, valid=10/12\nend";
  std::memset(dev.gm() + 0x40000, 0x77, 16 * 16 * 2);
  dev.launch(kernelFromAsm(text), {1, {0}, true});
  const uint16_t* out = reinterpret_cast<const uint16_t*>(dev.gm() + 0x40000);
  for (int r = 0; r < 16; ++r) {
    for (int col = 0; col < 16; ++col) {
      uint16_t want = r < 10 && col < 12 ? floatToHalf(c.ref(r, col, 64)) : 0x7777;
      ASSERT_EQ(out[r * 16 + col], want) << r << "," << col;
    }
  }
}

TEST(CubeUnit, MmadS8ExactInt32AndFixpipeToUb) {
  Device dev(target910b(), 1 << 20);
  std::vector<int8_t> a(16 * 32), b(32 * 16);
  for (int i = 0; i < 16 * 32; ++i) a[i] = static_cast<int8_t>((i * 37) % 255 - 127);
  for (int i = 0; i < 32 * 16; ++i) b[i] = static_cast<int8_t>((i * 91) % 255 - 127);
  std::memcpy(dev.gm(), a.data(), a.size());
  std::memcpy(dev.gm() + 0x1000, b.data(), b.size());
  std::string text =
      "copy_gm_l1 l1[0x0], gm[x1+0], nburst=1, len=16\n"
      "copy_gm_l1 l1[0x1000], gm[x1+0x1000], nburst=1, len=16\n"
      "set_flag MTE2, MTE1, 0\nwait_flag MTE2, MTE1, 0\n"
      "load_l0a.s8 l0a[0x0], l1[0x0], m=16, k=32, stride=32\n"
      "load_l0b.s8 l0b[0x0], l1[0x1000], k=32, n=16, stride=16\n"
      "set_flag MTE1, M, 0\nwait_flag MTE1, M, 0\n"
      "mmad.s8.s32 l0c[0x0], l0a[0x0], l0b[0x0], m=16, k=32, n=16, init\n"
      "set_flag M, FIX, 0\nwait_flag M, FIX, 0\n"
      "fix_l0c_ub.s32.s32.rint ub[0x0], l0c[0x0], m=16, n=16, stride=16\n"
      "set_flag FIX, MTE3, 0\nwait_flag FIX, MTE3, 0\n"
      "copy_ub_gm gm[x1+0x2000], ub[0x0], nburst=1, len=32\nend";
  dev.launch(kernelFromAsm(text), {1, {0}, true});
  const int32_t* out = reinterpret_cast<const int32_t*>(dev.gm() + 0x2000);
  for (int r = 0; r < 16; ++r) {
    for (int col = 0; col < 16; ++col) {
      int32_t want = 0;
      for (int q = 0; q < 32; ++q) want += a[r * 32 + q] * b[q * 16 + col];
      ASSERT_EQ(out[r * 16 + col], want);
    }
  }
}

TEST(CubeUnit, MmadF32UsesEightElementFractals) {
  Device dev(target910b(), 1 << 20);
  std::vector<float> a(16 * 16), b(16 * 16);
  for (int i = 0; i < 256; ++i) {
    a[i] = 0.1f * (i % 17) - 0.5f;
    b[i] = 0.3f * (i % 11) - 1.0f;
  }
  std::memcpy(dev.gm(), a.data(), 1024);
  std::memcpy(dev.gm() + 0x1000, b.data(), 1024);
  std::string text =
      "copy_gm_l1 l1[0x0], gm[x1+0], nburst=1, len=32\n"
      "copy_gm_l1 l1[0x1000], gm[x1+0x1000], nburst=1, len=32\n"
      "set_flag MTE2, MTE1, 0\nwait_flag MTE2, MTE1, 0\n"
      "load_l0a.f32 l0a[0x0], l1[0x0], m=16, k=16, stride=16\n"
      "load_l0b.f32 l0b[0x0], l1[0x1000], k=16, n=16, stride=16\n"
      "set_flag MTE1, M, 0\nwait_flag MTE1, M, 0\n"
      "mmad.f32.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=16, k=16, n=16, init\n"
      "set_flag M, FIX, 0\nwait_flag M, FIX, 0\n"
      "fix_l0c_gm.f32.f32.rint gm[x1+0x2000], l0c[0x0], m=16, n=16, stride=16\nend";
  dev.launch(kernelFromAsm(text), {1, {0}, true});
  const float* out = reinterpret_cast<const float*>(dev.gm() + 0x2000);
  for (int r = 0; r < 16; ++r) {
    for (int col = 0; col < 16; ++col) {
      float acc = 0;
      for (int q = 0; q < 16; ++q) acc = std::fmaf(a[r * 16 + q], b[q * 16 + col], acc);
      ASSERT_EQ(out[r * 16 + col], acc);
    }
  }
}

TEST(CubeUnit, Img2ColConvolution) {
  // 5×6 image, 16 channels, 3×3 kernel, stride 1, pad 1 on every side → 30 outputs, 16 filters.
  const int H = 5, W = 6, C = 16, KH = 3, KW = 3, F = 16, OH = 5, OW = 6, K = KH * KW * C, M = 32;
  std::vector<uint16_t> img(H * W * C), wts(K * F);
  for (size_t i = 0; i < img.size(); ++i) img[i] = floatToHalf(static_cast<float>((i * 7) % 13) - 6);
  for (size_t i = 0; i < wts.size(); ++i) wts[i] = floatToHalf(static_cast<float>((i * 5) % 9) * 0.25f - 1);
  Device dev(target910b(), 1 << 20);
  std::memcpy(dev.gm(), img.data(), img.size() * 2);
  std::memcpy(dev.gm() + 0x4000, wts.data(), wts.size() * 2);
  std::string text =
      "copy_gm_l1 l1[0x0], gm[x1+0], nburst=1, len=" + std::to_string(H * W * C * 2 / 32) + "\n" +
      "copy_gm_l1 l1[0x4000], gm[x1+0x4000], nburst=1, len=" + std::to_string(K * F * 2 / 32) + "\n" +
      "set_flag MTE2, MTE1, 0\nwait_flag MTE2, MTE1, 0\n"
      "img2col.f16 l0a[0x0], l1[0x0], h=5, w=6, c=16, kernel=3x3, stride=1x1, pad=1/1/1/1, dilation=1x1, pos=0, m=32, k=144\n"
      "load_l0b.f16 l0b[0x0], l1[0x4000], k=144, n=16, stride=16\n"
      "set_flag MTE1, M, 0\nwait_flag MTE1, M, 0\n"
      "mmad.f16.f32 l0c[0x0], l0a[0x0], l0b[0x0], m=32, k=144, n=16, init\n"
      "set_flag M, FIX, 0\nwait_flag M, FIX, 0\n"
      "fix_l0c_gm.f32.f32.rint gm[x1+0x10000], l0c[0x0], m=32, n=16, stride=16\nend";
  dev.launch(kernelFromAsm(text), {1, {0}, true});
  const float* out = reinterpret_cast<const float*>(dev.gm() + 0x10000);
  for (int p = 0; p < M; ++p) {
    for (int f = 0; f < F; ++f) {
      float acc = 0;
      for (int i = 0; i < KH; ++i) {
        for (int j = 0; j < KW; ++j) {
          for (int ch = 0; ch < C; ++ch) {
            int ih = p / OW - 1 + i, iw = p % OW - 1 + j;
            float x = p < OH * OW && ih >= 0 && ih < H && iw >= 0 && iw < W ? halfToFloat(img[(ih * W + iw) * C + ch]) : 0;
            acc = std::fmaf(x, halfToFloat(wts[((i * KW + j) * C + ch) * F + f]), acc);
          }
        }
      }
      ASSERT_EQ(out[p * 16 + f], acc) << p << "," << f;
    }
  }
}

}  // namespace
}  // namespace pyasc::sim::test
