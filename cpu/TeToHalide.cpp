// TE compute expressions as Halide expressions, lane for lane what the simulator's vector unit computes (float32 exp and log within 1 ulp of it).
#include "cpu/TeToHalide.h"

#include <limits>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <unordered_map>

#include "sdk/support/Diagnostics.h"
#include "sdk/support/Float16.h"

namespace pyasc::cpu {

using Halide::Expr;
using te::Prim;

namespace {

const Halide::Type f32 = Halide::Float(32), f64 = Halide::Float(64), u32 = Halide::UInt(32), i32 = Halide::Int(32);

// A float64 rounded once to float16: rounded to float32 with the last bit forced odd when inexact
// (round to odd), then to nearest even: no double rounding, since float32 keeps 13 more bits.
Expr halfFromDouble(const Expr& x) {
  Expr nearest = castValue(f32, x);
  Expr bits = Halide::reinterpret(u32, nearest);
  Expr inexact = castValue(f64, nearest) != x && !isNaN(x) && !isInf(nearest);
  Expr away = Halide::abs(x) > castValue(f64, Halide::abs(nearest));  // the other neighbour is farther from 0
  Expr odd = Halide::select(inexact && (bits & 1) == 0, Halide::select(away, bits + 1, bits - 1), bits);
  return castValue(Halide::Float(16), Halide::reinterpret(f32, odd));
}

// A float32-carried value rounded to lane type t.
Expr roundLane(const Expr& x, DType t) {
  if (t == DType::Float16) return castValue(f32, castValue(Halide::Float(16), x));
  return x;
}

// A float64 result rounded once to lane type t (carried as float32 for float16).
Expr fromDouble(const Expr& x, DType t) {
  if (t == DType::Float16) return castValue(f32, halfFromDouble(x));
  return castValue(halideType(t), x);
}

Expr wrapInt(const Expr& a, const Expr& b, Prim prim) {
  Expr ua = Halide::reinterpret(u32, a), ub = Halide::reinterpret(u32, b);
  Expr r = prim == Prim::VAdd || prim == Prim::VAdds ? ua + ub : prim == Prim::VSub ? ua - ub : ua * ub;
  return Halide::reinterpret(i32, r);
}

Expr nanMax(const Expr& a, const Expr& b) {
  return Halide::select(isNaN(a), a, isNaN(b), b, Halide::select(a >= b, a, b));
}
Expr nanMin(const Expr& a, const Expr& b) {
  return Halide::select(isNaN(a), a, isNaN(b), b, Halide::select(a <= b, a, b));
}

Expr constantOf(double value, DType t) {
  switch (t) {
    case DType::Bool: return castValue(Halide::Bool(), Expr(value != 0));
    case DType::Float16: return Expr(halfToFloat(doubleToHalf(value)));
    case DType::Float32: return Expr(static_cast<float>(value));
    case DType::Float64: return Expr(value);
    default: return castValue(halideType(t), Expr(static_cast<int64_t>(value)));
  }
}

Expr binaryOp(Prim prim, DType t, const Expr& a, const Expr& b) {
  if (t == DType::Int32 && (prim == Prim::VAdd || prim == Prim::VAdds || prim == Prim::VSub || prim == Prim::VMul ||
                            prim == Prim::VMuls)) {
    return wrapInt(a, b, prim);
  }
  const bool isF = isFloat(t);
  switch (prim) {
    case Prim::VAdd: case Prim::VAdds: return roundLane(a + b, t);
    case Prim::VSub: return roundLane(a - b, t);
    case Prim::VMul: case Prim::VMuls: return roundLane(a * b, t);
    case Prim::VDiv:
      if (!isF) break;
      return roundLane(a / b, t);
    case Prim::VMax: case Prim::VMaxs: return isF ? nanMax(a, b) : Halide::max(a, b);
    case Prim::VMin: case Prim::VMins: return isF ? nanMin(a, b) : Halide::min(a, b);
    default: break;
  }
  throw CompileError(SourceLocation{}, std::string("internal error: the CPU backend has no ") + te::primName(prim) +
                                           " for " + dtypeName(t));
}

Expr unaryOp(Prim prim, DType t, const Expr& a, double value) {
  const bool isF = isFloat(t);
  auto inDouble = [&](Expr r) { return fromDouble(r, t); };
  switch (prim) {
    // float32 lanes: exp and log in float32 (within NumPy's rounding, twice the lanes of float64);
    // a square root and a reciprocal rounded once from float32 or float64 are the same float32
    case Prim::VExp: return t == DType::Float32 ? expFloat(a) : inDouble(expDouble(castValue(f64, a)));
    case Prim::VLog: return t == DType::Float32 ? logFloat(a) : inDouble(logDouble(castValue(f64, a)));
    case Prim::VSqrt: return t == DType::Float32 ? Halide::sqrt(a) : inDouble(Halide::sqrt(castValue(f64, a)));
    case Prim::VRsqrt: return inDouble(Expr(1.0) / Halide::sqrt(castValue(f64, a)));
    case Prim::VRec: return t == DType::Float32 ? Expr(1.0f) / a : inDouble(Expr(1.0) / castValue(f64, a));
    case Prim::VAbs:
      return isF ? Halide::abs(a) : Halide::reinterpret(i32, Halide::select(a < 0, Halide::reinterpret(u32, 0) - Halide::reinterpret(u32, a), Halide::reinterpret(u32, a)));
    case Prim::VRelu:
      return isF ? Halide::select(isNaN(a) || a > 0, a, castValue(a.type(), 0)) : Halide::max(a, 0);
    case Prim::VLRelu: return Halide::select(a >= 0, a, roundLane(a * constantOf(value, t), t));
    default: break;
  }
  throw CompileError(SourceLocation{}, std::string("internal error: the CPU backend has no ") + te::primName(prim) +
                                           " for " + dtypeName(t));
}

}  // namespace

// IEEE comparisons: every one false with a NaN operand but ≠. Halide rewrites a <= b as !(b < a),
// true for NaN, so NaN operands are tested from their bits first.
Expr compareOp(te::Cmp cmp, const Expr& a, const Expr& b) {
  Expr ordered;
  switch (cmp) {
    case te::Cmp::EQ: ordered = a == b; break;
    case te::Cmp::NE: ordered = a != b; break;
    case te::Cmp::LT: ordered = a < b; break;
    case te::Cmp::LE: ordered = a <= b; break;
    case te::Cmp::GT: ordered = a > b; break;
    case te::Cmp::GE: ordered = a >= b; break;
  }
  if (!a.type().is_float()) return ordered;
  Expr unordered = isNaN(a) || isNaN(b);
  return cmp == te::Cmp::NE ? unordered || ordered : !unordered && ordered;
}

namespace {

struct Translator {
  const std::vector<Expr>& placeholders;
  std::unordered_map<const te::Expr*, Expr> done;

  Expr operator()(const te::ExprPtr& e) {
    auto found = done.find(e.get());
    if (found != done.end()) return found->second;
    Expr r = translate(*e);
    done.emplace(e.get(), r);
    return r;
  }

  Expr translate(const te::Expr& e) {
    std::vector<Expr> args;
    for (const auto& a : e.args) args.push_back((*this)(a));
    switch (e.prim) {
      case Prim::Placeholder: {
        if (e.index < 0 || static_cast<size_t>(e.index) >= placeholders.size()) {
          throw CompileError(SourceLocation{}, "internal error: placeholder " + std::to_string(e.index) + " has no input");
        }
        const Expr& p = placeholders[static_cast<size_t>(e.index)];
        return e.dtype == DType::Float16 ? castValue(f32, p) : p;
      }
      case Prim::Const: return constantOf(e.value, e.dtype);
      case Prim::VAdd: case Prim::VSub: case Prim::VMul: case Prim::VDiv: case Prim::VMax: case Prim::VMin:
        return binaryOp(e.prim, e.dtype, args[0], args[1]);
      case Prim::VAdds: case Prim::VMuls: case Prim::VMaxs: case Prim::VMins:
        return binaryOp(e.prim, e.dtype, args[0], constantOf(e.value, e.dtype));
      case Prim::VExp: case Prim::VLog: case Prim::VAbs: case Prim::VRec: case Prim::VSqrt: case Prim::VRsqrt:
      case Prim::VRelu: case Prim::VLRelu:
        return unaryOp(e.prim, e.dtype, args[0], e.value);
      case Prim::Cast: {
        const DType from = e.args[0]->dtype;
        Expr x = from == DType::Float16 ? castValue(Halide::Float(16), args[0]) : args[0];
        Expr r = convert(x, from, e.dtype, e.round);
        return e.dtype == DType::Float16 ? castValue(f32, r) : r;
      }
      case Prim::VCmp:
        // x op x is the NaN test (Halide folds x != x to false)
        if (e.args[0] == e.args[1]) {
          if (!isFloat(e.args[0]->dtype)) return castValue(Halide::Bool(), e.cmp == te::Cmp::EQ || e.cmp == te::Cmp::LE || e.cmp == te::Cmp::GE);
          if (e.cmp == te::Cmp::NE) return isNaN(args[0]);
          if (e.cmp == te::Cmp::LT || e.cmp == te::Cmp::GT) return castValue(Halide::Bool(), false);
          return !isNaN(args[0]);
        }
        return compareOp(e.cmp, args[0], args[1]);
      case Prim::VSel: return Halide::select(args[0], args[1], args[2]);
    }
    throw CompileError(SourceLocation{}, "internal error: unknown TE primitive");
  }
};

Expr roundToInteger(const Expr& x, RoundMode round) {
  switch (round) {
    case RoundMode::Rint: return Halide::round(x);  // to nearest, ties to even
    case RoundMode::Floor: return Halide::floor(x);
    case RoundMode::Ceil: return Halide::ceil(x);
    case RoundMode::Trunc: return Halide::trunc(x);
    case RoundMode::Round: return Halide::select(x < 0, -Halide::floor(Expr(0.5) - x), Halide::floor(x + Expr(0.5)));  // ties away from 0
  }
  return Halide::round(x);
}

}  // namespace

Halide::Type halideType(DType t) {
  switch (t) {
    case DType::Bool: return Halide::Bool();
    case DType::Int8: return Halide::Int(8);
    case DType::UInt8: return Halide::UInt(8);
    case DType::Int16: return Halide::Int(16);
    case DType::Int32: return Halide::Int(32);
    case DType::Int64: return Halide::Int(64);
    case DType::Float16: return Halide::Float(16);
    case DType::Float32: return Halide::Float(32);
    case DType::Float64: return Halide::Float(64);
  }
  return Halide::Float(32);
}

Halide::Target hostTarget() {
  Halide::Target target = Halide::get_host_target().with_feature(Halide::Target::StrictFloat);
  // Halide 14 takes AVX512-BF16 for Sapphire Rapids, whose LLVM CPU also has AVX512-FP16; a host
  // (a virtual machine) may report the first without the second, and vmovw would then be illegal.
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool fp16 = __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (edx & (1u << 23)) != 0;
  if (target.has_feature(Halide::Target::AVX512_SapphireRapids) && !fp16) {
    target = target.without_feature(Halide::Target::AVX512_SapphireRapids);
  }
#endif
  return target;
}

namespace {

// The bits of a float as an unsigned integer with the sign cleared, and the exponent's all-ones pattern.
std::pair<Expr, Expr> magnitudeAndInfinity(const Expr& x) {
  const int bits = x.type().bits();
  const Halide::Type u = Halide::UInt(bits);
  Expr magnitude = Halide::reinterpret(u, x) & castValue(u, Expr((uint64_t{1} << (bits - 1)) - 1));
  const uint64_t infinity = bits == 64 ? 0x7ff0000000000000ull : bits == 32 ? 0x7f800000ull : 0x7c00ull;
  return {magnitude, castValue(u, Expr(infinity))};
}

}  // namespace

Expr castValue(const Halide::Type& to, const Expr& x) {
  if (x.type() == to) return x;
  const Halide::Type half = Halide::Float(16);
  if (!(x.type() == half || to == half) || !x.type().is_float() || !to.is_float()) return Halide::cast(to, x);
  const uint64_t nanBits = to.bits() == 16 ? 0x7e00 : to.bits() == 32 ? 0x7fc00000 : 0x7ff8000000000000ull;
  Expr nan = Halide::reinterpret(to, Halide::cast(Halide::UInt(to.bits()), Expr(nanBits)));
  return Halide::select(isNaN(x), nan, Halide::cast(to, x));
}

namespace {

Expr f64Bits(uint64_t bits) { return Halide::reinterpret(f64, Halide::cast(Halide::UInt(64), Expr(bits))); }

// 2^k for an integer k in [-1022, 1023], built from its exponent bits.
Expr powerOfTwo(const Expr& k) {
  return Halide::reinterpret(f64, Halide::cast(Halide::UInt(64), k + 1023) << 52);
}

// c[0] + c[1] x + c[2] x^2 + ... by Horner's rule, in the type of x.
Expr horner(const Expr& x, const std::vector<double>& c) {
  auto coefficient = [&](double v) { return Halide::cast(x.type(), Expr(v)); };
  Expr r = coefficient(c.back());
  for (size_t k = c.size() - 1; k-- > 0;) r = r * x + coefficient(c[k]);
  return r;
}

}  // namespace

Expr expDouble(const Expr& x) {
  // x = n ln2 + r, |r| <= ln2 / 2: exp(r) by its Taylor series to r^14 (error below 2^-60), then
  // scaled by 2^n in two halves so that neither overflows nor goes subnormal too early
  const double ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10;
  Expr clamped = Halide::clamp(x, Expr(-746.0), Expr(710.0));
  Expr n = Halide::round(clamped * Expr(1.44269504088896338700));
  Expr r = (clamped - n * Expr(ln2Hi)) - n * Expr(ln2Lo);
  std::vector<double> taylor(15);
  double f = 1;
  for (size_t k = 0; k < taylor.size(); ++k) {
    if (k > 0) f *= static_cast<double>(k);
    taylor[k] = 1 / f;
  }
  Expr p = horner(r, taylor);
  Expr k = Halide::cast(Halide::Int(64), n);
  Expr half = k / 2;
  Expr scaled = p * powerOfTwo(half) * powerOfTwo(k - half);
  return Halide::select(isNaN(x), x, x > Expr(709.782712893384), f64Bits(0x7ff0000000000000ull),
                        x < Expr(-745.2), Expr(0.0), scaled);
}

Expr expFloat(const Expr& x) {
  // x = n ln2 + r, |r| <= ln2 / 2 (ln2 in two parts, the first exact in 9 bits): exp(r) by Cephes'
  // expf polynomial, scaled by 2^n in two halves so that subnormal results round once
  Expr clamped = Halide::clamp(x, Expr(-104.0f), Expr(89.0f));
  Expr n = Halide::round(clamped * Expr(1.44269504088896341f));
  Expr r = (clamped - n * Expr(0.693359375f)) - n * Expr(-2.12194440e-4f);
  Expr p = horner(r, {5.0000001201e-1, 1.6666665459e-1, 4.1665795894e-2, 8.3334519073e-3, 1.3981999507e-3, 1.9875691500e-4});
  Expr e = (r * r) * p + r + Expr(1.0f);
  Expr k = Halide::cast(i32, n);
  Expr half = k / 2;
  auto power = [](const Expr& j) { return Halide::reinterpret(f32, Halide::cast(u32, j + 127) << 23); };
  Expr scaled = e * power(half) * power(k - half);
  return Halide::select(isNaN(x), x, x > Expr(88.7228394f), Halide::reinterpret(f32, Halide::cast(u32, Expr(0x7f800000u))),
                        x < Expr(-103.972084f), Expr(0.0f), scaled);
}

Expr logFloat(const Expr& x) {
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)), f = m - 1: Cephes' logf polynomial in f, e ln2 added
  // in two parts. Subnormal inputs are scaled by 2^23 first.
  Expr tiny = x < Halide::reinterpret(f32, Halide::cast(u32, Expr(0x00800000u)));
  Expr y = Halide::select(tiny, x * Expr(8388608.0f), x);
  Expr bits = Halide::reinterpret(u32, y);
  Expr e = Halide::cast(i32, bits >> 23) - 127 - Halide::select(tiny, Expr(23), Expr(0));
  Expr m = Halide::reinterpret(f32, (bits & Halide::cast(u32, Expr(0x007fffffu))) | Halide::cast(u32, Expr(0x3f800000u)));
  Expr big = m > Expr(1.41421356f);
  m = Halide::select(big, m * Expr(0.5f), m);
  e = Halide::select(big, e + 1, e);
  Expr f = m - Expr(1.0f);
  Expr z = f * f;
  Expr p = horner(f, {3.3333331174e-1, -2.4999993993e-1, 2.0000714765e-1, -1.6668057665e-1, 1.4249322787e-1,
                                     -1.2420140846e-1, 1.1676998740e-1, -1.1514610310e-1, 7.0376836292e-2});
  Expr ef = Halide::cast(f32, e);
  Expr r = f * (z * p) + ef * Expr(-2.12194440e-4f) - Expr(0.5f) * z;
  Expr result = (f + r) + ef * Expr(0.693359375f);
  return Halide::select(isNaN(x) || x < Expr(0.0f), Halide::reinterpret(f32, Halide::cast(u32, Expr(0x7fc00000u))),
                        x == Expr(0.0f), Halide::reinterpret(f32, Halide::cast(u32, Expr(0xff800000u))), isInf(x), x, result);
}

Expr logDouble(const Expr& x) {
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.1716:
  // the series to s^23 (error below 2^-60). Subnormal float64 inputs are scaled by 2^64 first.
  const double ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10;
  Expr tiny = x < f64Bits(0x0010000000000000ull);
  Expr y = Halide::select(tiny, x * Expr(18446744073709551616.0), x);
  Expr bits = Halide::reinterpret(Halide::UInt(64), y);
  Expr e = Halide::cast(Halide::Int(64), bits >> 52) - 1023 - Halide::select(tiny, Expr(int64_t{64}), Expr(int64_t{0}));
  Expr m = Halide::reinterpret(f64, (bits & Halide::cast(Halide::UInt(64), Expr(uint64_t{0x000fffffffffffffull}))) |
                                        Halide::cast(Halide::UInt(64), Expr(uint64_t{0x3ff0000000000000ull})));
  Expr big = m > Expr(1.4142135623730951);
  m = Halide::select(big, m * Expr(0.5), m);
  e = Halide::select(big, e + 1, e);
  Expr s = (m - Expr(1.0)) / (m + Expr(1.0));
  Expr z = s * s;
  std::vector<double> series;
  for (int k = 0; k <= 11; ++k) series.push_back(2.0 / (2 * k + 1));
  Expr logm = s * horner(z, series);
  Expr ef = Halide::cast(f64, e);
  Expr result = ef * Expr(ln2Hi) + (logm + ef * Expr(ln2Lo));
  return Halide::select(isNaN(x) || x < Expr(0.0), f64Bits(0x7ff8000000000000ull), x == Expr(0.0),
                        f64Bits(0xfff0000000000000ull), isInf(x), x, result);
}

Expr isNaN(const Expr& x) {
  auto [magnitude, infinity] = magnitudeAndInfinity(x);
  return magnitude > infinity;
}

Expr isInf(const Expr& x) {
  auto [magnitude, infinity] = magnitudeAndInfinity(x);
  return magnitude == infinity;
}

Expr convert(const Expr& x, DType from, DType to, RoundMode round) {
  if (from == to) return x;
  if (to == DType::Bool) return x != castValue(x.type(), 0);
  if (from == DType::Bool) return Halide::select(x, castValue(halideType(to), 1), castValue(halideType(to), 0));
  if (isFloat(to)) {
    if (to == DType::Float16) return halfFromDouble(castValue(f64, x));
    return castValue(halideType(to), castValue(f64, x));  // every source value is exact in float64
  }
  const Halide::Type out = halideType(to);
  // a narrower integer keeps the low bits (NumPy's astype, and the NPU's scalar unit, which computes
  // every integer result the vector unit has no lanes for)
  if (!isFloat(from)) return Halide::cast(out, x);
  Expr v = roundToInteger(castValue(f64, x), round);
  Expr lo = castValue(f64, out.min()), hi = castValue(f64, out.max());  // 2^63 for int64: compared, never cast
  return Halide::select(isNaN(v), castValue(out, 0), v <= lo, out.min(), v >= hi, out.max(), castValue(out, v));
}

Expr teToHalide(const te::ExprPtr& e, const std::vector<Expr>& placeholders) {
  Translator t{placeholders, {}};
  Expr r = t(e);
  return e->dtype == DType::Float16 ? castValue(Halide::Float(16), r) : r;
}

}  // namespace pyasc::cpu
