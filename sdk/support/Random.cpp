// MT19937 and NumPy's legacy distributions (numpy/random/src/mt19937, legacy-distributions.c).
#include "sdk/support/Random.h"

#include <cmath>

namespace pyasc {

namespace {
constexpr int kN = 624;
constexpr int kM = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfu;
constexpr uint32_t kUpperMask = 0x80000000u;
constexpr uint32_t kLowerMask = 0x7fffffffu;

// Smallest all-ones mask covering `max` (NumPy's gen_mask).
uint64_t maskCovering(uint64_t max) {
  uint64_t mask = max;
  for (int shift = 1; shift <= 32; shift <<= 1) mask |= mask >> shift;
  return mask;
}
}  // namespace

void LegacyRandom::reseed(uint32_t seed) {
  for (int i = 0; i < kN; ++i) {
    state_[i] = seed;
    seed = 1812433253u * (seed ^ (seed >> 30)) + static_cast<uint32_t>(i + 1);
  }
  position_ = kN;
  hasGauss_ = false;
  gauss_ = 0.0;
}

void LegacyRandom::refill() {
  for (int i = 0; i < kN; ++i) {
    uint32_t y = (state_[i] & kUpperMask) | (state_[(i + 1) % kN] & kLowerMask);
    state_[i] = state_[(i + kM) % kN] ^ (y >> 1) ^ ((y & 1) ? kMatrixA : 0u);
  }
  position_ = 0;
}

uint32_t LegacyRandom::nextUInt32() {
  if (position_ == kN) refill();
  uint32_t y = state_[position_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

double LegacyRandom::randomSample() {
  int32_t a = static_cast<int32_t>(nextUInt32() >> 5);
  int32_t b = static_cast<int32_t>(nextUInt32() >> 6);
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

double LegacyRandom::standardNormal() {
  if (hasGauss_) {
    hasGauss_ = false;
    double cached = gauss_;
    gauss_ = 0.0;
    return cached;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * randomSample() - 1.0;
    x2 = 2.0 * randomSample() - 1.0;
    // Same expression as NumPy's legacy_gauss, so a compiler fuses it into an FMA exactly when
    // it does so for NumPy's own build (never on x86-64 without -mfma).
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = std::sqrt(-2.0 * std::log(r2) / r2);
  gauss_ = f * x1;
  hasGauss_ = true;
  return f * x2;
}

int64_t LegacyRandom::randint(int64_t low, int64_t high) {
  uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low) - 1;  // inclusive span
  uint64_t value;
  if (range == 0) {
    value = 0;
  } else if (range <= 0xffffffffu) {
    if (range == 0xffffffffu) {
      value = nextUInt32();
    } else {
      uint32_t mask = static_cast<uint32_t>(maskCovering(range));
      while ((value = (nextUInt32() & mask)) > range) {
      }
    }
  } else {
    uint64_t mask = maskCovering(range);
    auto next64 = [this] {
      uint64_t hi = nextUInt32();
      return (hi << 32) | nextUInt32();
    };
    if (range == ~0ull) {
      value = next64();
    } else {
      while ((value = (next64() & mask)) > range) {
      }
    }
  }
  return static_cast<int64_t>(static_cast<uint64_t>(low) + value);
}

}  // namespace pyasc
