// binary16 conversions: exact scaling in double, then an integer rounding step per mode.
#include "sdk/support/Float16.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace pyasc {

const char* roundModeName(RoundMode mode) {
  switch (mode) {
    case RoundMode::Rint: return "rint";
    case RoundMode::Floor: return "floor";
    case RoundMode::Ceil: return "ceil";
    case RoundMode::Trunc: return "trunc";
    case RoundMode::Round: return "round";
  }
  return "rint";
}

bool parseRoundMode(const char* name, RoundMode& mode) {
  for (int i = 0; i <= 4; ++i) {
    if (std::strcmp(name, roundModeName(static_cast<RoundMode>(i))) == 0) {
      mode = static_cast<RoundMode>(i);
      return true;
    }
  }
  return false;
}

float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t floatToBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = (bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t man = bits & 0x3ff;
  if (exp == 0x1f) return bitsToFloat(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    float mag = std::ldexp(static_cast<float>(man), -24);
    return sign ? -mag : mag;
  }
  return bitsToFloat(sign | ((exp + 112) << 23) | (man << 13));
}

// Rounds a non-negative value to an integer; `negative` says the original sign for floor/ceil.
static double roundMagnitude(double m, RoundMode mode, bool negative) {
  double lo = std::floor(m);
  double frac = m - lo;
  switch (mode) {
    case RoundMode::Rint:
      if (frac > 0.5) return lo + 1;
      if (frac < 0.5) return lo;
      return std::fmod(lo, 2.0) == 0.0 ? lo : lo + 1;
    case RoundMode::Round: return frac >= 0.5 ? lo + 1 : lo;
    case RoundMode::Trunc: return lo;
    case RoundMode::Floor: return negative ? (frac > 0 ? lo + 1 : lo) : lo;
    case RoundMode::Ceil: return negative ? lo : (frac > 0 ? lo + 1 : lo);
  }
  return lo;
}

uint16_t doubleToHalf(double value, RoundMode mode) {
  if (std::isnan(value)) return 0x7e00;
  bool negative = std::signbit(value);
  uint16_t sign = negative ? 0x8000 : 0;
  double a = std::fabs(value);
  if (std::isinf(a)) return sign | 0x7c00;
  if (a == 0.0) return sign;
  int e = std::ilogb(a);
  if (e < -14) e = -14;
  double quantum = std::ldexp(1.0, e - 10);
  double m = roundMagnitude(a / quantum, mode, negative);
  double r = m * quantum;
  if (r > 65504.0) {
    bool toInf = mode == RoundMode::Rint || mode == RoundMode::Round ||
                 (mode == RoundMode::Floor && negative) || (mode == RoundMode::Ceil && !negative);
    return sign | (toInf ? 0x7c00 : 0x7bff);
  }
  if (r == 0.0) return sign;
  int re = std::ilogb(r);
  if (re < -14) return sign | static_cast<uint16_t>(std::ldexp(r, 24));  // subnormal: r / 2^-24
  uint16_t man = static_cast<uint16_t>(std::ldexp(r, 10 - re) - 1024.0);
  return sign | static_cast<uint16_t>((re + 15) << 10) | man;
}

float doubleToFloat(double value, RoundMode mode) {
  if (mode == RoundMode::Rint || std::isnan(value) || std::isinf(value) || value == 0.0) {
    return static_cast<float>(value);
  }
  bool negative = std::signbit(value);
  double a = std::fabs(value);
  int e = std::ilogb(a);
  if (e < -126) e = -126;
  double quantum = std::ldexp(1.0, e - 23);
  double r = roundMagnitude(a / quantum, mode, negative) * quantum;
  double maxf = std::numeric_limits<float>::max();
  if (r > maxf) {
    bool toInf = mode == RoundMode::Round || (mode == RoundMode::Floor && negative) ||
                 (mode == RoundMode::Ceil && !negative);
    r = toInf ? std::numeric_limits<double>::infinity() : maxf;
  }
  return static_cast<float>(negative ? -r : r);
}

int64_t doubleToInt(double value, RoundMode mode, int64_t lo, int64_t hi) {
  if (std::isnan(value)) return 0;
  bool negative = std::signbit(value);
  double r = roundMagnitude(std::fabs(value), mode, negative);
  if (negative) r = -r;
  if (r <= static_cast<double>(lo)) return lo;
  if (r >= static_cast<double>(hi)) return hi;
  return static_cast<int64_t>(r);
}

}  // namespace pyasc
