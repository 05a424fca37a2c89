// DMA block and byte modes with gaps, and the L0A/L0B fractal layouts of load_l0a/load_l0b.
#include "sim/CoreMemory.h"
#include "sim/Mte.h"
#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

std::vector<uint8_t> pattern(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 7 + 3);
  return v;
}

TEST(Mte, BlockModeWithGaps) {
  Device dev(target910b(), 1 << 16);
  auto src = pattern(1024);
  std::memcpy(dev.gm(), src.data(), src.size());
  std::memset(dev.gm() + 0x4000, 0xee, 0x1000);
  auto k = kernelFromAsm(
      "copy_gm_ub ub[0x0], gm[x1+0], nburst=3, len=2, srcgap=1, dstgap=2\n"
      "set_flag MTE2, MTE3, 0\nwait_flag MTE2, MTE3, 0\n"
      "copy_ub_gm gm[x2+0], ub[0x0], nburst=1, len=12\nend");
  dev.launch(k, {1, {0, 0x4000}, true});
  for (int i = 0; i < 3; ++i) {
    for (int b = 0; b < 64; ++b) {
      EXPECT_EQ(dev.gm()[0x4000 + i * 4 * 32 + b], src[i * 3 * 32 + b]) << i << " " << b;
      EXPECT_EQ(dev.gm()[0x4000 + i * 4 * 32 + 64 + b], 0) << "dst gap untouched (UB starts zeroed)";
    }
  }
}

TEST(Mte, ByteModePadsLocalSideAndLeavesPaddingUntouched) {
  Device dev(target910b(), 1 << 16);
  auto src = pattern(512);
  std::memcpy(dev.gm(), src.data(), src.size());
  std::memset(dev.gm() + 0x1000, 0xab, 0x200);  // UB prefill source
  std::memset(dev.gm() + 0x4000, 0xee, 0x1000);
  auto k = kernelFromAsm(
      "copy_gm_ub ub[0x0], gm[x1+0x1000], nburst=1, len=16\n"
      "copy_gm_ub.b ub[0x0], gm[x1+0], nburst=2, len=40, srcgap=3, dstgap=1\n"
      "set_flag MTE2, MTE3, 0\nwait_flag MTE2, MTE3, 0\n"
      "copy_ub_gm gm[x2+0], ub[0x0], nburst=1, len=8\n"
      "copy_ub_gm.b gm[x2+0x400], ub[0x0], nburst=2, len=40, srcgap=1, dstgap=5\nend");
  dev.launch(k, {1, {0, 0x4000}, true});
  const uint8_t* ub = dev.gm() + 0x4000;
  for (int i = 0; i < 2; ++i) {
    for (int b = 0; b < 96; ++b) {
      uint8_t want = b < 40 ? src[i * 43 + b] : 0xab;
      EXPECT_EQ(ub[i * 96 + b], want) << i << " " << b;
    }
  }
  const uint8_t* back = dev.gm() + 0x4400;
  for (int i = 0; i < 2; ++i) {
    for (int b = 0; b < 45; ++b) EXPECT_EQ(back[i * 45 + b], b < 40 ? src[i * 43 + b] : 0xee) << i << " " << b;
  }
  EXPECT_EQ(back[90], 0xee);
}

TEST(Mte, ZeroBurstsDoNothing) {
  Device dev(target910b(), 1 << 16);
  std::memset(dev.gm() + 0x100, 0x5a, 64);
  auto k = kernelFromAsm("copy_ub_gm gm[x1+0x100], ub[0x0], nburst=0, len=2\ncopy_ub_gm gm[x1+0x100], ub[0x0], nburst=2, len=0\nend");
  LaunchStats s = dev.launch(k, {1, {0}, true});
  EXPECT_EQ(dev.gm()[0x100], 0x5a);
  EXPECT_EQ(s.bytes[static_cast<int>(DmaPath::UbToGm)], 0u);
}

// The L0A/L0B bytes written by one fractal load, read straight from the core's memory.
struct FractalLoad {
  std::vector<uint8_t> l0;
  FractalLoad(const std::string& asmText, const std::vector<uint8_t>& l1) {
    std::vector<uint8_t> gm(1);
    std::vector<GmRegion> regions;
    CoreMemory mem(target910b(), gm.data(), gm.size(), regions, true);
    std::memcpy(mem.write(isa::Space::L1, 0, l1.size()), l1.data(), l1.size());
    auto prog = isa::assemble(asmText, "load.s");
    IssuedInstruction in;
    in.inst = &prog[0];
    runTransfer(in, mem);
    isa::Space s = prog[0].op == isa::Opcode::LoadL0B ? isa::Space::L0B : isa::Space::L0A;
    const uint8_t* p = mem.read(s, 0, 0x4000);
    l0.assign(p, p + 0x4000);
  }
  uint16_t at(uint64_t byteOffset) const {
    uint16_t v;
    std::memcpy(&v, l0.data() + byteOffset, 2);
    return v;
  }
};

std::vector<uint8_t> l1Matrix(int rows, int stride) {
  std::vector<uint16_t> v(rows * stride);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < stride; ++c) v[r * stride + c] = static_cast<uint16_t>(r * 1000 + c + 1);
  }
  return bytesOf(v);
}

TEST(Mte, LoadL0AWritesZZFractalsAndZeroFillsTails) {
  int m = 32, k = 48, stride = 64, R = 20, C = 40;
  FractalLoad f("load_l0a.f16 l0a[0x0], l1[0x0], m=32, k=48, stride=64, valid=20/40", l1Matrix(m, stride));
  for (int r = 0; r < m; ++r) {
    for (int c = 0; c < k; ++c) {
      uint64_t off = ((r / 16) * (k / 16) + c / 16) * 512 + ((r % 16) * 16 + c % 16) * 2;
      uint16_t want = r < R && c < C ? static_cast<uint16_t>(r * 1000 + c + 1) : 0;
      ASSERT_EQ(f.at(off), want) << r << "," << c;
    }
  }
}

TEST(Mte, LoadL0ATransposedReadsColumns) {
  // L1 holds the k×m transpose: element (r, c) at (c*stride + r).
  FractalLoad f("load_l0a.f16 l0a[0x0], l1[0x0], m=16, k=32, stride=48, trans", l1Matrix(32, 48));
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 32; ++c) {
      uint64_t off = (c / 16) * 512 + ((r % 16) * 16 + c % 16) * 2;
      ASSERT_EQ(f.at(off), static_cast<uint16_t>(c * 1000 + r + 1)) << r << "," << c;
    }
  }
}

TEST(Mte, LoadL0BWritesZNFractals) {
  int k = 32, n = 48;
  FractalLoad f("load_l0b.f16 l0b[0x0], l1[0x0], k=32, n=48, stride=48, valid=0/33", l1Matrix(k, n));
  for (int kk = 0; kk < k; ++kk) {
    for (int nn = 0; nn < n; ++nn) {
      uint64_t off = ((kk / 16) * (n / 16) + nn / 16) * 512 + ((nn % 16) * 16 + kk % 16) * 2;
      uint16_t want = nn < 33 ? static_cast<uint16_t>(kk * 1000 + nn + 1) : 0;
      ASSERT_EQ(f.at(off), want) << kk << "," << nn;
    }
  }
  FractalLoad t("load_l0b.f16 l0b[0x0], l1[0x0], k=16, n=16, stride=16, trans", l1Matrix(16, 16));
  for (int kk = 0; kk < 16; ++kk) {
    for (int nn = 0; nn < 16; ++nn) ASSERT_EQ(t.at((nn * 16 + kk) * 2), static_cast<uint16_t>(nn * 1000 + kk + 1));
  }
}

}  // namespace
}  // namespace pyasc::sim::test
