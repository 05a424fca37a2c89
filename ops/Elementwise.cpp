// The elementwise family: arithmetic, min/max, comparisons, logic, select, clip, casts, the
// transcendental functions and the activations, each as a te.lang.cce expression.
#include "ops/Elementwise.h"

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include "sdk/support/Float16.h"

namespace pyasc::ops {

using te::ExprPtr;
using te::Prim;

bool isVectorDType(DType t) { return t == DType::Float16 || t == DType::Float32 || t == DType::Int32; }

// A value converted to `to` as the vector unit converts it: floats unchanged, integers toward zero
// and saturating, NaN to 0.
static double castValue(double v, DType to) {
  if (isFloat(to)) return v;
  if (to == DType::Bool) return v != 0 ? 1.0 : 0.0;
  const int bits = dtypeSize(to) * 8;
  const int64_t hi = bits == 64 ? std::numeric_limits<int64_t>::max()
                                : (int64_t{1} << (isSigned(to) ? bits - 1 : bits)) - 1;
  const int64_t lo = isSigned(to) ? -hi - 1 : 0;
  return static_cast<double>(doubleToInt(v, RoundMode::Trunc, lo, hi));
}

ExprPtr castTo(const ExprPtr& e, DType to) {
  if (e->dtype == to) return e;
  if (e->dtype == DType::Bool) return te::select(e, te::constant(1, to), te::constant(0, to));
  if (to == DType::Bool) return te::compare(te::Cmp::NE, e, te::constant(0, e->dtype));
  if (e->prim == Prim::Const) return te::constant(castValue(e->value, to), to);
  // floats become integers toward zero, as NumPy's astype
  return te::cast(e, to, isFloat(e->dtype) && !isFloat(to) ? RoundMode::Trunc : RoundMode::Rint);
}

namespace {

using Builder = std::function<ExprPtr(const graph::Node&, const std::vector<ExprPtr>&, DType)>;
using Reference = std::function<double(const graph::Node&, const std::vector<double>&)>;

struct Lowering {
  Builder build;
  Reference reference;
};

ExprPtr c(double v, DType t) { return te::constant(v, t); }

// The dtype both operands of a comparison meet in.
DType meet(const ExprPtr& a, const ExprPtr& b) {
  if (a->dtype == b->dtype) return a->dtype;
  if (a->prim == Prim::Const) return b->dtype;
  if (b->prim == Prim::Const) return a->dtype;
  if (isFloat(a->dtype) != isFloat(b->dtype)) return isFloat(a->dtype) ? a->dtype : b->dtype;
  return dtypeSize(a->dtype) >= dtypeSize(b->dtype) ? a->dtype : b->dtype;
}

Lowering binary(Prim prim, std::function<double(double, double)> ref) {
  return {[prim](const graph::Node&, const std::vector<ExprPtr>& a, DType t) {
            return te::binary(prim, castTo(a[0], t), castTo(a[1], t));
          },
          [ref](const graph::Node&, const std::vector<double>& v) { return ref(v[0], v[1]); }};
}

Lowering unary(std::function<ExprPtr(ExprPtr, DType)> build, std::function<double(double)> ref) {
  return {[build](const graph::Node&, const std::vector<ExprPtr>& a, DType t) { return build(castTo(a[0], t), t); },
          [ref](const graph::Node&, const std::vector<double>& v) { return ref(v[0]); }};
}

Lowering comparison(te::Cmp cmp, std::function<bool(double, double)> ref) {
  return {[cmp](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
            DType t = meet(a[0], a[1]);
            return te::compare(cmp, castTo(a[0], t), castTo(a[1], t));
          },
          [ref](const graph::Node&, const std::vector<double>& v) { return ref(v[0], v[1]) ? 1.0 : 0.0; }};
}

ExprPtr sigmoid(ExprPtr x, DType t) {
  // 1 / (1 + e^-x)
  return te::unary(Prim::VRec, te::withScalar(Prim::VAdds, te::unary(Prim::VExp, te::withScalar(Prim::VMuls, x, -1)), 1));
}

double sigmoidRef(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// tanh as 2·sigmoid(2x) − 1: five vector operations, for the gelu approximation (whose own error is
// larger); np.tanh is `hyperbolicTangent` below.
ExprPtr tanhBySigmoid(ExprPtr x, DType t) {
  return te::withScalar(Prim::VAdds, te::withScalar(Prim::VMuls, sigmoid(te::withScalar(Prim::VMuls, x, 2), t), 2), -1);
}

// x compared with the constant v
ExprPtr is(te::Cmp cmp, ExprPtr x, double v, DType t) { return te::compare(cmp, x, c(v, t)); }

// x rounded to an integer with `mode`: a round trip through int32 where |x| is below the first
// float that is always integral (2^10 for float16, 2^23 for float32); x itself beyond it, so that
// large values, infinities and NaN pass through.
ExprPtr roundToIntegral(ExprPtr x, DType t, RoundMode mode) {
  if (!isFloat(t)) return x;
  double integral = t == DType::Float16 ? 1024.0 : 8388608.0;
  ExprPtr rounded = te::cast(te::cast(x, DType::Int32, mode), t);
  return te::select(te::compare(te::Cmp::LT, te::unary(Prim::VAbs, x), c(integral, t)), rounded, x);
}

Lowering rounding(RoundMode mode, double (*ref)(double)) {
  return unary([mode](ExprPtr x, DType t) { return roundToIntegral(x, t, mode); }, ref);
}

ExprPtr negate(ExprPtr x) { return te::withScalar(Prim::VMuls, x, -1); }

// x = k·π/2 + r with |r| ≤ π/4 (about) and the quadrant q = k mod 4.
struct Quadrant {
  ExprPtr r, q;
};

ExprPtr sum(ExprPtr a, ExprPtr b) { return te::binary(Prim::VAdd, a, b); }
ExprPtr difference(ExprPtr a, ExprPtr b) { return te::binary(Prim::VSub, a, b); }
ExprPtr scaled(ExprPtr a, double k) { return te::withScalar(Prim::VMuls, a, k); }

// Knuth's two-sum: s + e = a + b exactly (s the rounded sum).
std::pair<ExprPtr, ExprPtr> twoSum(ExprPtr a, ExprPtr b) {
  ExprPtr s = sum(a, b);
  ExprPtr bv = difference(s, a);
  return {s, sum(difference(a, difference(s, bv)), difference(b, bv))};
}

// Veltkamp's split of a float32 into a head and a tail of 12 significant bits each (products of
// such halves with 12-bit constants are exact).
std::pair<ExprPtr, ExprPtr> splitHalves(ExprPtr v) {
  ExprPtr spread = scaled(v, 4097);
  ExprPtr head = difference(spread, difference(spread, v));
  return {head, difference(v, head)};
}

// 2/π in base 4096, Σ kTwoOverPi[j]·4096^−(j+1): its first 204 bits (hexadecimal a2f 983 6e4 e44 …),
// enough for every float32 below 2^128 to keep 64 bits of x·2/π's fraction.
constexpr int kTwoOverPi[] = {2607, 2435, 1764, 3652, 338, 2556, 629, 2001, 3923, 1245, 3085, 2914, 2393, 2364, 1081, 65, 4069};

// Payne–Hanek reduction in float32 operations only. |x| is scaled by 2^−90 (exact) and split into
// 12-bit halves; each half times each 12-bit digit of 2/π (scaled by 2^90) is exact and is reduced
// mod 4 exactly into [−2, 2] (p − 4·rint(p/4): a small product, of either sign, stays as it is). The 34 reduced products are summed as
// an unevaluated sum of three floats (two-sums), which keeps x·2/π mod 4 to about 2^−55: r keeps
// its relative precision however close x lies to a multiple of π/2. Then k is the sum's nearest
// integer and r = (sum − k)·π/2, the product again split so that its main part is exact.
Quadrant reduceQuadrant(ExprPtr x, DType t) {
  ExprPtr a = te::unary(Prim::VAbs, x);
  ExprPtr finite = te::select(is(te::Cmp::LT, a, INFINITY, t), a, c(0, t));  // ±∞ and NaN: NaN at the end
  auto [head, tail] = splitHalves(scaled(finite, std::ldexp(1.0, -90)));
  ExprPtr s1 = c(0, t), s2 = c(0, t), s3 = c(0, t);
  for (size_t j = 0; j < std::size(kTwoOverPi); ++j) {
    double digit = std::ldexp(kTwoOverPi[j], 90 - 12 * static_cast<int>(j + 1));
    for (int h = 0; h < 2; ++h) {
      ExprPtr term = scaled(h == 0 ? head : tail, digit);
      // the largest product: x below 2^128, the tail at most 2^-12 of it
      if (std::ldexp(kTwoOverPi[j] + 1, 128 - 12 * static_cast<int>(j + 1) - 12 * h) >= 2) {
        // |product| from 2^26 on is a multiple of 4 (the tail half is signed): clamped to ±2^26, also one
        ExprPtr p = te::withScalar(Prim::VMaxs, te::withScalar(Prim::VMins, term, std::ldexp(1.0, 26)), -std::ldexp(1.0, 26));
        ExprPtr fours = te::cast(te::cast(scaled(p, 0.25), DType::Int32, RoundMode::Rint), t);
        term = difference(p, scaled(fours, 4));
      }
      auto [high, e1] = twoSum(s1, term);
      auto [mid, e2] = twoSum(s2, e1);
      s1 = high, s2 = mid, s3 = sum(s3, e2);
    }
  }
  ExprPtr k = roundToIntegral(s1, t, RoundMode::Rint);
  auto [f, fLow] = twoSum(difference(s1, k), s2);
  fLow = sum(fLow, s3);
  // r = f·π/2: the head of f times a 12-bit head of π/2 is exact, the rest is a small correction
  constexpr double kHalfPiHead = 6434.0 / 4096;
  const double halfPiTail = M_PI / 2 - kHalfPiHead;
  auto [fHead, fTail] = splitHalves(f);
  ExprPtr correction = sum(sum(scaled(fTail, kHalfPiHead), scaled(f, halfPiTail)), scaled(fLow, M_PI / 2));
  ExprPtr r = sum(scaled(fHead, kHalfPiHead), correction);
  ExprPtr q = difference(k, scaled(roundToIntegral(scaled(k, 0.25), t, RoundMode::Floor), 4));
  // x < 0: −x = −k·π/2 − r, the quadrant (4 − q) mod 4; |x| < π/4: x itself in quadrant 0
  ExprPtr negative = is(te::Cmp::LT, x, 0, t);
  r = te::select(negative, negate(r), r);
  q = te::select(negative, te::select(is(te::Cmp::EQ, q, 0, t), q, te::withScalar(Prim::VAdds, negate(q), 4)), q);
  ExprPtr small = is(te::Cmp::LT, a, M_PI / 4, t);
  r = te::select(small, x, te::select(is(te::Cmp::LT, a, INFINITY, t), r, difference(x, x)));
  return {r, te::select(small, c(0, t), q)};
}

// sin r (odd: r − r³/3! + … to r^13) or cos r (1 − r²/2! + … to r^14), Horner on r²; the first
// omitted term is below 1e-11 for |r| ≤ π/4.
ExprPtr taylor(ExprPtr r, bool odd, DType t) {
  ExprPtr r2 = te::binary(Prim::VMul, r, r);
  int top = odd ? 13 : 14;
  auto coefficient = [](int n) {
    double v = 1;
    for (int i = 2; i <= n; ++i) v /= i;
    return (n / 2) % 2 ? -v : v;
  };
  ExprPtr p = c(coefficient(top), t);
  for (int n = top - 2; n >= 0; n -= 2) p = te::withScalar(Prim::VAdds, te::binary(Prim::VMul, p, r2), coefficient(n));
  return odd ? te::binary(Prim::VMul, r, p) : p;
}

// values[q] for the quadrant q (0..3)
ExprPtr byQuadrant(const ExprPtr& q, DType t, const std::array<ExprPtr, 4>& values) {
  ExprPtr v = values[3];
  for (int i = 2; i >= 0; --i) v = te::select(te::compare(te::Cmp::EQ, q, c(i, t)), values[i], v);
  return v;
}

ExprPtr sine(ExprPtr x, DType t) {
  Quadrant a = reduceQuadrant(x, t);
  ExprPtr s = taylor(a.r, true, t), co = taylor(a.r, false, t);
  return byQuadrant(a.q, t, {s, co, negate(s), negate(co)});
}

ExprPtr cosine(ExprPtr x, DType t) {
  Quadrant a = reduceQuadrant(x, t);
  ExprPtr s = taylor(a.r, true, t), co = taylor(a.r, false, t);
  return byQuadrant(a.q, t, {co, negate(s), negate(co), s});
}

// tan x = sin r / cos r in even quadrants, −cos r / sin r in odd ones (one reduction, one division).
ExprPtr tangent(ExprPtr x, DType t) {
  Quadrant a = reduceQuadrant(x, t);
  ExprPtr s = taylor(a.r, true, t), co = taylor(a.r, false, t);
  ExprPtr odd = is(te::Cmp::EQ, te::unary(Prim::VAbs, te::withScalar(Prim::VAdds, a.q, -2)), 1, t);  // q = 1 or 3
  return te::binary(Prim::VDiv, te::select(odd, negate(co), s), te::select(odd, s, co));
}

// Horner's rule over `coefficients`, the highest power first.
ExprPtr horner(ExprPtr z, std::initializer_list<double> coefficients, DType t) {
  ExprPtr p;
  for (double k : coefficients) p = p ? te::withScalar(Prim::VAdds, te::binary(Prim::VMul, p, z), k) : c(k, t);
  return p;
}

// −y where x < 0, else y: the odd functions below compute on |x|.
ExprPtr withSignOf(ExprPtr x, ExprPtr y, DType t) { return te::select(te::compare(te::Cmp::LT, x, c(0, t)), negate(y), y); }

// atan r for |r| ≤ tan(π/8): r + r·z·P(z) with z = r², Cephes' atanf minimax polynomial (relative
// error below 1e-7).
ExprPtr atanKernel(ExprPtr r, DType t) {
  ExprPtr z = te::binary(Prim::VMul, r, r);
  ExprPtr p = horner(z, {8.05374449538e-2, -1.38776856032e-1, 1.99777106478e-1, -3.33329491539e-1}, t);
  return te::binary(Prim::VAdd, r, te::binary(Prim::VMul, te::binary(Prim::VMul, r, z), p));
}

// atan x: a = |x| reduced to [0, tan(π/8)] by atan a = π/2 + atan(−1/a) above tan(3π/8) and
// π/4 + atan((a − 1)/(a + 1)) above tan(π/8); ±∞ gives ±π/2, NaN stays NaN.
ExprPtr arctangent(ExprPtr x, DType t) {
  ExprPtr a = te::unary(Prim::VAbs, x);
  ExprPtr big = te::compare(te::Cmp::GT, a, c(2.414213562373095, t));
  ExprPtr mid = te::compare(te::Cmp::GT, a, c(0.4142135623730950, t));
  ExprPtr quotient = te::binary(Prim::VDiv, te::withScalar(Prim::VAdds, a, -1), te::withScalar(Prim::VAdds, a, 1));
  ExprPtr r = te::select(big, negate(te::unary(Prim::VRec, a)), te::select(mid, quotient, a));
  ExprPtr offset = te::select(big, c(M_PI / 2, t), te::select(mid, c(M_PI / 4, t), c(0, t)));
  return withSignOf(x, te::binary(Prim::VAdd, offset, atanKernel(r, t)), t);
}

// asin s for |s| ≤ 1/2, given z = s²: s + s·z·P(z), Cephes' asinf polynomial (relative error
// below 3e-7).
ExprPtr asinKernel(ExprPtr s, ExprPtr z, DType t) {
  ExprPtr p = horner(z, {4.2163199048e-2, 2.4181311049e-2, 4.5470025998e-2, 7.4953002686e-2, 1.6666752422e-1}, t);
  return te::binary(Prim::VAdd, s, te::binary(Prim::VMul, te::binary(Prim::VMul, s, z), p));
}

// For |x| > 1/2 the kernel runs on s = √((1 − |x|)/2), as asin|x| = π/2 − 2·asin s and
// acos|x| = 2·asin s; |x| > 1 takes the square root of a negative number: NaN, as NumPy.
struct HalfAngle {
  ExprPtr outer;  // |x| > 1/2
  ExprPtr p;      // asin of x (|x| ≤ 1/2) or of s
};

HalfAngle halfAngle(ExprPtr x, DType t) {
  ExprPtr a = te::unary(Prim::VAbs, x);
  ExprPtr outer = te::compare(te::Cmp::GT, a, c(0.5, t));
  ExprPtr z = te::select(outer, te::withScalar(Prim::VAdds, te::withScalar(Prim::VMuls, a, -0.5), 0.5), te::binary(Prim::VMul, x, x));
  ExprPtr s = te::select(outer, te::unary(Prim::VSqrt, z), x);
  return {outer, asinKernel(s, z, t)};
}

ExprPtr arcsine(ExprPtr x, DType t) {
  HalfAngle h = halfAngle(x, t);
  ExprPtr folded = withSignOf(x, te::withScalar(Prim::VAdds, te::withScalar(Prim::VMuls, h.p, -2), M_PI / 2), t);
  return te::select(h.outer, folded, h.p);
}

// acos x = π/2 − asin x near 0; 2·asin s above 1/2 and π − 2·asin s below −1/2, so that the
// result keeps its relative precision as it approaches 0 at x = 1.
ExprPtr arccosine(ExprPtr x, DType t) {
  HalfAngle h = halfAngle(x, t);
  ExprPtr twice = te::withScalar(Prim::VMuls, h.p, 2);
  ExprPtr folded = te::select(te::compare(te::Cmp::LT, x, c(0, t)), te::withScalar(Prim::VAdds, negate(twice), M_PI), twice);
  return te::select(h.outer, folded, te::withScalar(Prim::VAdds, negate(h.p), M_PI / 2));
}

// A function computed in float32 for float16 operands (range reduction and cancellation need the
// precision).
std::function<ExprPtr(ExprPtr, DType)> inFloat32(ExprPtr (*fn)(ExprPtr, DType)) {
  return [fn](ExprPtr x, DType t) {
    return t == DType::Float16 ? te::cast(fn(te::cast(x, DType::Float32), DType::Float32), t) : fn(x, t);
  };
}

// e^x − 1 (Kahan): u = e^x rounded, then (u − 1)·(x / ln u) cancels u's rounding error (within 2 ulp);
// x where u rounds to 1, −1 where u − 1 does, +∞ where u overflows; NaN stays NaN.
ExprPtr expm1(ExprPtr x, DType t) {
  ExprPtr u = te::unary(Prim::VExp, x);
  ExprPtr less = te::withScalar(Prim::VAdds, u, -1);
  ExprPtr corrected = te::binary(Prim::VMul, less, te::binary(Prim::VDiv, x, te::unary(Prim::VLog, u)));
  return te::select(is(te::Cmp::EQ, u, 1, t), x,
                    te::select(is(te::Cmp::EQ, less, -1, t), c(-1, t), te::select(is(te::Cmp::EQ, u, INFINITY, t), u, corrected)));
}

// ln(1 + x) (Kahan): u = 1 + x rounded, then ln u · (x / (u − 1)) cancels u's rounding error; x where
// u rounds to 1, +∞ for +∞; ln 0 = −∞ at x = −1 and NaN below, as NumPy.
ExprPtr log1p(ExprPtr x, DType t) {
  ExprPtr u = te::withScalar(Prim::VAdds, x, 1);
  ExprPtr corrected = te::binary(Prim::VMul, te::unary(Prim::VLog, u), te::binary(Prim::VDiv, x, te::withScalar(Prim::VAdds, u, -1)));
  return te::select(is(te::Cmp::EQ, u, 1, t), x, te::select(is(te::Cmp::EQ, u, INFINITY, t), u, corrected));
}

// Above this |x|, e^|x| overflows float32 while sinh and cosh are still finite (up to 89.4).
constexpr double kExpOverflow = 88.5;

// e^a / 2 for a near overflow: (e^(a/2) / 2)·e^(a/2), halving before the last product.
ExprPtr halfExpLarge(ExprPtr a) {
  ExprPtr h = te::unary(Prim::VExp, te::withScalar(Prim::VMuls, a, 0.5));
  return te::binary(Prim::VMul, te::withScalar(Prim::VMuls, h, 0.5), h);
}

// sinh x = sign(x)·(E + E / (E + 1)) / 2 with E = e^|x| − 1 (no cancellation near 0); e^|x| / 2 near
// overflow.
ExprPtr hyperbolicSine(ExprPtr x, DType t) {
  ExprPtr a = te::unary(Prim::VAbs, x);
  ExprPtr e = expm1(a, t);
  ExprPtr small = te::withScalar(Prim::VMuls, te::binary(Prim::VAdd, e, te::binary(Prim::VDiv, e, te::withScalar(Prim::VAdds, e, 1))), 0.5);
  return withSignOf(x, te::select(is(te::Cmp::GT, a, kExpOverflow, t), halfExpLarge(a), small), t);
}

// cosh x = (e^|x| + 1/e^|x|) / 2 (both terms positive); e^|x| / 2 near overflow.
ExprPtr hyperbolicCosine(ExprPtr x, DType t) {
  ExprPtr a = te::unary(Prim::VAbs, x);
  ExprPtr u = te::unary(Prim::VExp, a);
  ExprPtr small = te::withScalar(Prim::VMuls, te::binary(Prim::VAdd, u, te::unary(Prim::VRec, u)), 0.5);
  return te::select(is(te::Cmp::GT, a, kExpOverflow, t), halfExpLarge(a), small);
}

// tanh x = sign(x)·E / (E + 2) with E = e^(2|x|) − 1 (no cancellation near 0); 1 from |x| > 9.1, where
// the float32 result is 1.
ExprPtr hyperbolicTangent(ExprPtr x, DType t) {
  ExprPtr a = te::unary(Prim::VAbs, x);
  ExprPtr e = expm1(te::withScalar(Prim::VMuls, a, 2), t);
  ExprPtr ratio = te::binary(Prim::VDiv, e, te::withScalar(Prim::VAdds, e, 2));
  return withSignOf(x, te::select(is(te::Cmp::GT, a, 9.1, t), c(1, t), ratio), t);
}

// ln x / ln 2 and ln x / ln 10 (float16 in float32: ln x rounded to float16 first is 2 ulp off).
ExprPtr log2(ExprPtr x, DType) { return scaled(te::unary(Prim::VLog, x), 1 / M_LN2); }
ExprPtr log10(ExprPtr x, DType) { return scaled(te::unary(Prim::VLog, x), 1 / M_LN10); }

// Above this |x| the inverse hyperbolic sine and cosine are ln 2|x| (the next term, 1/(4x²), is below
// 2^-26 of it), which also keeps x² from overflowing.
constexpr double kInverseHyperbolicLarge = 4096;

// asinh x = sign(x)·ln(1 + a + a²/(1 + √(1 + a²))) with a = |x| (log1p keeps tiny x exact).
ExprPtr inverseHyperbolicSine(ExprPtr x, DType t) {
  ExprPtr a = te::unary(Prim::VAbs, x);
  ExprPtr a2 = te::binary(Prim::VMul, a, a);
  ExprPtr root = te::withScalar(Prim::VAdds, te::unary(Prim::VSqrt, te::withScalar(Prim::VAdds, a2, 1)), 1);
  ExprPtr moderate = log1p(sum(a, te::binary(Prim::VDiv, a2, root)), t);
  ExprPtr large = te::withScalar(Prim::VAdds, te::unary(Prim::VLog, a), M_LN2);
  return withSignOf(x, te::select(is(te::Cmp::GT, a, kInverseHyperbolicLarge, t), large, moderate), t);
}

// acosh x = ln(1 + u + √(2u + u²)) with u = x − 1 (exact near 1); NaN below 1, as NumPy.
ExprPtr inverseHyperbolicCosine(ExprPtr x, DType t) {
  ExprPtr u = te::withScalar(Prim::VAdds, x, -1);
  ExprPtr root = te::unary(Prim::VSqrt, sum(scaled(u, 2), te::binary(Prim::VMul, u, u)));
  ExprPtr moderate = log1p(sum(u, root), t);
  ExprPtr large = te::withScalar(Prim::VAdds, te::unary(Prim::VLog, x), M_LN2);
  ExprPtr nanBelowOne = te::unary(Prim::VSqrt, u);  // √u: NaN where x < 1 (log1p would give −∞ below −1)
  return te::select(is(te::Cmp::LT, x, 1, t), nanBelowOne,
                    te::select(is(te::Cmp::GT, x, kInverseHyperbolicLarge, t), large, moderate));
}

// atanh x = sign(x)·ln(1 + 2a/(1 − a))/2 with a = |x|: ±∞ at ±1, NaN beyond.
ExprPtr inverseHyperbolicTangent(ExprPtr x, DType t) {
  ExprPtr a = te::unary(Prim::VAbs, x);
  ExprPtr ratio = te::binary(Prim::VDiv, scaled(a, 2), te::withScalar(Prim::VAdds, negate(a), 1));
  return withSignOf(x, scaled(log1p(ratio, t), 0.5), t);
}

// 2^x = e^p·(1 + q) where p + q = x·ln 2 to about 2^-48 (Dekker's product without a fused
// multiply-add: x split into 12-bit halves, ln 2 into a 12-bit head and a float tail), so that the
// rounding of x·ln 2, up to 64 ulp of the result near the ends of the range, is corrected. |x| is
// clamped to 200 (the result is 0 or +∞ already) so that the split does not overflow.
ExprPtr exp2(ExprPtr x, DType t) {
  constexpr double kHead = 2839.0 / 4096;  // ln 2 to 12 bits
  const double tail = static_cast<float>(M_LN2 - kHead);
  ExprPtr xc = te::select(is(te::Cmp::GT, x, 200, t), c(200, t), te::select(is(te::Cmp::LT, x, -200, t), c(-200, t), x));
  ExprPtr spread = te::withScalar(Prim::VMuls, xc, 4097);
  ExprPtr high = te::binary(Prim::VSub, spread, te::binary(Prim::VSub, spread, xc));
  ExprPtr low = te::binary(Prim::VSub, xc, high);
  ExprPtr p = te::withScalar(Prim::VMuls, xc, M_LN2);
  ExprPtr q = te::binary(Prim::VAdd,
                         te::binary(Prim::VAdd, te::binary(Prim::VSub, te::withScalar(Prim::VMuls, high, kHead), p),
                                    te::withScalar(Prim::VMuls, low, kHead)),
                         te::withScalar(Prim::VMuls, xc, tail));
  ExprPtr u = te::unary(Prim::VExp, p);
  return te::select(is(te::Cmp::EQ, u, INFINITY, t), u, te::binary(Prim::VAdd, u, te::binary(Prim::VMul, u, q)));
}

// x ** k for an integer k ≥ 0 by repeated squaring (int32 products wrap, as NumPy's)
ExprPtr integerPower(ExprPtr x, int k) {
  ExprPtr result, square = x;
  for (; k > 0; k /= 2) {
    if (k % 2) result = result ? te::binary(Prim::VMul, result, square) : square;
    if (k > 1) square = te::binary(Prim::VMul, square, square);
  }
  return result ? result : te::withScalar(Prim::VAdds, te::withScalar(Prim::VMuls, x, 0), 1);  // x ** 0 = 1
}

// 1 where `cond` holds, else 0 (int32)
ExprPtr indicator(ExprPtr cond) { return te::select(cond, c(1, DType::Int32), c(0, DType::Int32)); }

// a // b for int32 (the vector unit has no integer division): the float32 quotient floored, refined
// once by the floored float32 quotient of the remainder (then within one of the truth) and
// corrected by the remainder's sign against b; exact over int32 for b ≠ 0 (products wrap, and the
// remainders they give are small).
ExprPtr floorDivideInt(ExprPtr a, ExprPtr b) {
  ExprPtr fb = te::cast(b, DType::Float32);
  auto quotient = [&](ExprPtr num) {
    return te::cast(te::binary(Prim::VDiv, te::cast(num, DType::Float32), fb), DType::Int32, RoundMode::Floor);
  };
  auto remainderOf = [&](ExprPtr q) { return te::binary(Prim::VSub, a, te::binary(Prim::VMul, q, b)); };
  ExprPtr q = quotient(a);
  q = te::binary(Prim::VAdd, q, quotient(remainderOf(q)));
  ExprPtr r = remainderOf(q);
  ExprPtr zero = c(0, DType::Int32), positive = te::compare(te::Cmp::GT, b, zero);
  // the remainder lies in [0, b) for b > 0 and in (b, 0] for b < 0
  ExprPtr tooHigh = te::select(positive, indicator(te::compare(te::Cmp::LT, r, zero)), indicator(te::compare(te::Cmp::GT, r, zero)));
  ExprPtr tooLow = te::select(positive, indicator(te::compare(te::Cmp::GE, r, b)), indicator(te::compare(te::Cmp::LE, r, b)));
  return te::binary(Prim::VAdd, te::binary(Prim::VSub, q, tooHigh), tooLow);
}

// a / b rounded toward −∞, as NumPy's floor_divide
ExprPtr floorDivide(ExprPtr a, ExprPtr b, DType t) {
  if (!isFloat(t)) return floorDivideInt(a, b);
  return roundToIntegral(te::binary(Prim::VDiv, a, b), t, RoundMode::Floor);
}

// a − floor(a / b)·b: the sign of the divisor, as NumPy's remainder
ExprPtr remainder(ExprPtr a, ExprPtr b, DType t) {
  return te::binary(Prim::VSub, a, te::binary(Prim::VMul, floorDivide(a, b, t), b));
}

// Whether x is negative, −0 included (1/−0 is −∞; −∞ itself is below 0).
ExprPtr signBitSet(ExprPtr x, DType t) {
  return is(te::Cmp::LT, te::select(is(te::Cmp::LT, x, 0, t), c(-1, t), te::unary(Prim::VRec, x)), 0, t);
}

// Dekker's product without a fused multiply-add: p + e = a·b exactly (p the rounded product), from
// the products of 12-bit halves, which are exact; a and b below 2^100 in magnitude.
std::pair<ExprPtr, ExprPtr> twoProduct(ExprPtr a, ExprPtr b) {
  ExprPtr p = te::binary(Prim::VMul, a, b);
  auto [ah, al] = splitHalves(a);
  auto [bh, bl] = splitHalves(b);
  auto times = [](ExprPtr u, ExprPtr v) { return te::binary(Prim::VMul, u, v); };
  ExprPtr e = sum(sum(difference(times(ah, bh), p), times(ah, bl)), times(al, bh));
  return {p, sum(e, times(al, bl))};
}

// 2^j for an integral j with |j| ≤ 100: e^(j·ln 2) is within 2^-17 of it and is rounded to one
// significant bit (Veltkamp's split with 23 bits dropped), which leaves the power of two exactly.
ExprPtr powerOfTwo(ExprPtr j) {
  ExprPtr near = te::unary(Prim::VExp, scaled(j, M_LN2));
  ExprPtr spread = scaled(near, 8388609);  // 2^23 + 1
  return difference(spread, difference(spread, near));
}

// ln a for a finite a > 0 (subnormals included) as an unevaluated sum hi + lo, to about 2^-30 of it:
// a = 2^k·m with m within about √2 of 1 (2^−k applied exactly, as two powers of two); m·c within
// 1.09 of 1 for c = 5/4, 1 or 3/4 (the product exact in two floats); ln(mc) = 2·atanh s with
// s = (mc − 1)/(mc + 1) carried as s_h + s_l (the division's residual exact by Dekker's product) and
// the series 2s + 2s³/3 + … to s^11; then k·ln 2 − ln c, their 16-bit heads summed exactly.
std::pair<ExprPtr, ExprPtr> logTwoFloat(ExprPtr a, DType t) {
  ExprPtr k = roundToIntegral(scaled(te::unary(Prim::VLog, a), 1 / M_LN2), t, RoundMode::Rint);
  ExprPtr k1 = roundToIntegral(scaled(k, 0.5), t, RoundMode::Floor);
  ExprPtr m = te::binary(Prim::VMul, te::binary(Prim::VMul, a, powerOfTwo(negate(k1))), powerOfTwo(negate(difference(k, k1))));
  ExprPtr below = is(te::Cmp::LT, m, 0.84, t), above = is(te::Cmp::GT, m, 1.19, t);
  auto pick = [&](double low, double high) { return te::select(below, c(low, t), te::select(above, c(high, t), c(0, t))); };
  auto head16 = [](double v) { return std::round(std::ldexp(v, 16)) / 65536; };
  const double ln5over4 = std::log(1.25), ln3over4 = std::log(0.75);
  ExprPtr scale = te::select(below, c(1.25, t), te::select(above, c(0.75, t), c(1, t)));
  auto [mHigh, mLow] = splitHalves(m);
  ExprPtr mc = te::binary(Prim::VMul, m, scale);
  ExprPtr mcLow = sum(difference(te::binary(Prim::VMul, mHigh, scale), mc), te::binary(Prim::VMul, mLow, scale));
  ExprPtr f = te::withScalar(Prim::VAdds, mc, -1);
  auto [u, uLow] = twoSum(mc, c(1, t));
  ExprPtr sHigh = te::binary(Prim::VDiv, f, u);
  auto [p, pLow] = twoProduct(sHigh, u);
  ExprPtr residual = difference(sum(difference(difference(f, p), pLow), mcLow), te::binary(Prim::VMul, sHigh, sum(uLow, mcLow)));
  ExprPtr sLow = te::binary(Prim::VDiv, residual, u);
  ExprPtr z = te::binary(Prim::VMul, sHigh, sHigh);
  ExprPtr series = horner(z, {2.0 / 11, 2.0 / 9, 2.0 / 7, 2.0 / 5, 2.0 / 3}, t);
  // d(2·atanh s)/ds = 2/(1 − s²): s_l's share
  ExprPtr tail = sum(scaled(te::binary(Prim::VMul, sLow, te::withScalar(Prim::VAdds, z, 1)), 2),
                     te::binary(Prim::VMul, te::binary(Prim::VMul, sHigh, z), series));
  const double ln2Head = head16(M_LN2);
  tail = sum(tail, sum(scaled(k, M_LN2 - ln2Head),
                       pick(head16(ln5over4) - ln5over4, head16(ln3over4) - ln3over4)));
  ExprPtr heads = difference(scaled(k, ln2Head), pick(head16(ln5over4), head16(ln3over4)));
  auto [hi, e1] = twoSum(heads, scaled(sHigh, 2));
  ExprPtr lo = sum(e1, tail);
  ExprPtr h = sum(hi, lo);
  return {h, difference(lo, difference(h, hi))};
}

// x ** y as NumPy's float power (C99's pow). |x|^y = e^(y·ln|x|), the exponent carried as an
// unevaluated sum z_h + z_l (ln|x| in two floats, the product by Dekker's), then e^(z_h)·(1 + z_l):
// within 2 ulp wherever the result is finite and nonzero. Elsewhere (x zero or infinite, y infinite
// or beyond 2^100, |y·ln|x|| above 150) e^(y·ln|x|) in one float, which is then exact (0, 1 or
// ∞). The sign: negative for x < 0 or −0 and an odd integral y; NaN for a finite x < 0 and a
// non-integral y; 1 for y = 0, for x = 1 and for x = −1 with y = ±∞.
ExprPtr floatPower(ExprPtr x, ExprPtr y, DType t) {
  ExprPtr a = te::unary(Prim::VAbs, x);
  ExprPtr ay = te::unary(Prim::VAbs, y);
  ExprPtr plain = te::binary(Prim::VMul, y, te::unary(Prim::VLog, a));
  // |y·ln|x||, or 1000 where the accurate path does not apply
  ExprPtr reach = te::select(is(te::Cmp::LT, ay, std::ldexp(1.0, 100), t), te::unary(Prim::VAbs, plain), c(1000, t));
  reach = te::select(is(te::Cmp::LT, a, INFINITY, t), te::select(is(te::Cmp::GT, a, 0, t), reach, c(1000, t)), c(1000, t));
  ExprPtr accurate = is(te::Cmp::LT, reach, 150, t);
  // the accurate path's operands kept finite where it is not taken
  ExprPtr safeY = te::select(accurate, y, c(1, t));
  auto [lh, ll] = logTwoFloat(te::select(accurate, a, c(2, t)), t);
  auto [zh, zl] = twoProduct(safeY, lh);
  zl = sum(zl, te::binary(Prim::VMul, safeY, ll));
  ExprPtr u = te::unary(Prim::VExp, zh);
  ExprPtr corrected = sum(u, te::binary(Prim::VMul, u, zl));
  // near overflow z_h may round above ln(FLT_MAX) while z_h + z_l is below it: e^(z_h/2) twice
  ExprPtr h = te::unary(Prim::VExp, scaled(zh, 0.5));
  ExprPtr large = te::binary(Prim::VMul, sum(h, te::binary(Prim::VMul, h, zl)), h);
  corrected = te::select(is(te::Cmp::GT, zh, 88, t), large, corrected);
  ExprPtr magnitude = te::select(accurate, corrected, te::unary(Prim::VExp, plain));
  ExprPtr integral = te::compare(te::Cmp::EQ, roundToIntegral(y, t, RoundMode::Floor), y);
  ExprPtr half = scaled(y, 0.5);
  ExprPtr odd = te::compare(te::Cmp::NE, roundToIntegral(half, t, RoundMode::Floor), half);  // when integral
  ExprPtr r = te::select(signBitSet(x, t), te::select(integral, te::select(odd, negate(magnitude), magnitude), magnitude), magnitude);
  r = te::select(is(te::Cmp::LT, x, 0, t), te::select(is(te::Cmp::GT, x, -INFINITY, t), te::select(integral, r, c(NAN, t)), r), r);
  r = te::select(is(te::Cmp::EQ, a, 1, t), te::select(is(te::Cmp::EQ, ay, INFINITY, t), c(1, t), r), r);
  return te::select(is(te::Cmp::EQ, y, 0, t), c(1, t), te::select(is(te::Cmp::EQ, x, 1, t), c(1, t), r));
}

// atan2(y, x): atan of the smaller magnitude over the larger, r in [0, 1] (π/4 + atan((r − 1)/(r + 1))
// above tan(π/8)), π/2 minus it past the diagonal, π minus that where x is negative (−0 included),
// the sign of y (−0 included); both zero gives 0 or π, both infinite π/4 or 3π/4, NaN in either
// NaN, as NumPy.
ExprPtr arctangent2(ExprPtr y, ExprPtr x, DType t) {
  ExprPtr ay = te::unary(Prim::VAbs, y), ax = te::unary(Prim::VAbs, x);
  ExprPtr steep = te::compare(te::Cmp::GT, ay, ax);
  ExprPtr small = te::select(steep, ax, ay), large = te::select(steep, ay, ax);
  ExprPtr r = te::select(is(te::Cmp::EQ, large, 0, t), c(0, t), te::binary(Prim::VDiv, small, large));
  r = te::select(is(te::Cmp::EQ, te::select(is(te::Cmp::EQ, ay, INFINITY, t), ax, c(0, t)), INFINITY, t), c(1, t), r);
  ExprPtr mid = is(te::Cmp::GT, r, 0.4142135623730950, t);
  ExprPtr folded = te::binary(Prim::VDiv, te::withScalar(Prim::VAdds, r, -1), te::withScalar(Prim::VAdds, r, 1));
  ExprPtr angle = te::binary(Prim::VAdd, te::select(mid, c(M_PI / 4, t), c(0, t)), atanKernel(te::select(mid, folded, r), t));
  angle = te::select(steep, te::withScalar(Prim::VAdds, negate(angle), M_PI / 2), angle);
  angle = te::select(signBitSet(x, t), te::withScalar(Prim::VAdds, negate(angle), M_PI), angle);
  angle = te::select(signBitSet(y, t), negate(angle), angle);
  // NaN in either (the zero-ratio selection above would hide one)
  return te::select(te::compare(te::Cmp::NE, y, y), y, te::select(te::compare(te::Cmp::NE, x, x), x, angle));
}

// hypot(x, y) = m·√(1 + (n/m)²) with m, n the larger and smaller magnitudes (no overflow or
// underflow of the squares); 0 for two zeros, +∞ when either is infinite (NaN or not, as NumPy).
ExprPtr hypotenuse(ExprPtr x, ExprPtr y, DType t) {
  ExprPtr ax = te::unary(Prim::VAbs, x), ay = te::unary(Prim::VAbs, y);
  ExprPtr m = te::binary(Prim::VMax, ax, ay), n = te::binary(Prim::VMin, ax, ay);
  ExprPtr r = te::binary(Prim::VDiv, n, m);
  ExprPtr h = te::binary(Prim::VMul, m, te::unary(Prim::VSqrt, te::withScalar(Prim::VAdds, te::binary(Prim::VMul, r, r), 1)));
  h = te::select(is(te::Cmp::EQ, m, 0, t), c(0, t), h);
  return te::select(is(te::Cmp::EQ, ax, INFINITY, t), c(INFINITY, t), te::select(is(te::Cmp::EQ, ay, INFINITY, t), c(INFINITY, t), h));
}

// A binary function computed in float32 for float16 operands: a quotient rounded to an integer
// must not round up to it in float16 first.
Lowering binaryInFloat32(ExprPtr (*fn)(ExprPtr, ExprPtr, DType), double (*ref)(double, double)) {
  return {[fn](const graph::Node&, const std::vector<ExprPtr>& a, DType t) {
            DType wide = t == DType::Float16 ? DType::Float32 : t;
            return castTo(fn(castTo(a[0], wide), castTo(a[1], wide), wide), t);
          },
          [ref](const graph::Node&, const std::vector<double>& v) { return ref(v[0], v[1]); }};
}

const std::map<std::string, Lowering>& table();

// A bitwise operator: on booleans the logical operator `logical` (none for the shifts, which take
// integers only: elementwiseExpr refuses them before building); its reference is `fn` on int64 values.
Lowering bitwise(const char* logical, int64_t (*fn)(int64_t, int64_t)) {
  return {[logical](const graph::Node& n, const std::vector<ExprPtr>& a, DType t) { return table().at(logical).build(n, a, t); },
          [fn](const graph::Node&, const std::vector<double>& v) {
            return static_cast<double>(fn(static_cast<int64_t>(v[0]), v.size() > 1 ? static_cast<int64_t>(v[1]) : 0));
          }};
}

const std::map<std::string, Lowering>& table() {
  static const std::map<std::string, Lowering> t = {
      {"Add", binary(Prim::VAdd, [](double a, double b) { return a + b; })},
      {"Sub", binary(Prim::VSub, [](double a, double b) { return a - b; })},
      {"Mul", binary(Prim::VMul, [](double a, double b) { return a * b; })},
      {"Div", binary(Prim::VDiv, [](double a, double b) { return a / b; })},
      {"Maximum", binary(Prim::VMax, [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); })},
      {"Minimum", binary(Prim::VMin, [](double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b); })},
      {"Pow", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) {
                 ExprPtr x = castTo(a[0], t);
                 if (a[1]->prim == Prim::Const) {
                   double p = a[1]->value;
                   if (p == 1) return x;
                   if (p == 2) return te::binary(Prim::VMul, x, x);
                   if (p == 3) return te::binary(Prim::VMul, te::binary(Prim::VMul, x, x), x);
                   if (p == 0.5) return te::unary(Prim::VSqrt, x);  // NumPy's `x ** 0.5` is np.sqrt (−∞ gives NaN)
                   if (p == -1) return te::unary(Prim::VRec, x);
                   if (p == -0.5 && isFloat(t)) {  // C99's pow at −0 (+∞) and −∞ (0), where 1/√x gives −∞ and NaN
                     return te::select(is(te::Cmp::EQ, x, 0, t), c(INFINITY, t),
                                       te::select(is(te::Cmp::EQ, x, -INFINITY, t), c(0, t), te::unary(Prim::VRsqrt, x)));
                   }
                   if (!isFloat(t)) return integerPower(x, static_cast<int>(p));
                 }
                 // float16 in float32: the two-float logarithm needs float32's exponent range
                 if (t == DType::Float16) return castTo(floatPower(castTo(x, DType::Float32), castTo(a[1], DType::Float32), DType::Float32), t);
                 return floatPower(x, castTo(a[1], t), t);
               },
               [](const graph::Node&, const std::vector<double>& v) { return std::pow(v[0], v[1]); }}},
      {"Neg", unary([](ExprPtr x, DType) { return te::withScalar(Prim::VMuls, x, -1); }, [](double x) { return -x; })},
      {"Abs", unary([](ExprPtr x, DType) { return te::unary(Prim::VAbs, x); }, [](double x) { return std::fabs(x); })},
      {"Square", unary([](ExprPtr x, DType) { return te::binary(Prim::VMul, x, x); }, [](double x) { return x * x; })},
      {"Reciprocal", unary(
                         [](ExprPtr x, DType t) {
                           if (isFloat(t)) return te::unary(Prim::VRec, x);
                           // integer 1 / x truncates: ±1 for ±1, else 0 (NumPy's value at 0 is undefined)
                           return te::select(te::compare(te::Cmp::EQ, x, c(1, t)), c(1, t),
                                             te::select(te::compare(te::Cmp::EQ, x, c(-1, t)), c(-1, t), c(0, t)));
                         },
                         [](double x) { return 1 / x; })},
      {"Exp", unary([](ExprPtr x, DType) { return te::unary(Prim::VExp, x); }, [](double x) { return std::exp(x); })},
      {"Log", unary([](ExprPtr x, DType) { return te::unary(Prim::VLog, x); }, [](double x) { return std::log(x); })},
      {"Exp2", unary(inFloat32(exp2), [](double x) { return std::exp2(x); })},
      {"Log2", unary(inFloat32(log2), [](double x) { return std::log2(x); })},
      {"Log10", unary(inFloat32(log10), [](double x) { return std::log10(x); })},
      {"Sqrt", unary([](ExprPtr x, DType) { return te::unary(Prim::VSqrt, x); }, [](double x) { return std::sqrt(x); })},
      {"Relu", unary([](ExprPtr x, DType) { return te::unary(Prim::VRelu, x); }, [](double x) { return std::max(x, 0.0); })},
      {"Sigmoid", unary(sigmoid, sigmoidRef)},
      {"Tanh", unary(inFloat32(hyperbolicTangent), [](double x) { return std::tanh(x); })},
      {"Gelu", unary(
                   [](ExprPtr x, DType t) {
                     // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
                     ExprPtr cube = te::binary(Prim::VMul, te::binary(Prim::VMul, x, x), x);
                     ExprPtr inner = te::withScalar(Prim::VMuls, te::binary(Prim::VAdd, x, te::withScalar(Prim::VMuls, cube, 0.044715)),
                                                    std::sqrt(2 / M_PI));
                     return te::binary(Prim::VMul, te::withScalar(Prim::VMuls, x, 0.5),
                                       te::withScalar(Prim::VAdds, tanhBySigmoid(inner, t), 1));
                   },
                   [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); })},
      {"LeakyRelu", {[](const graph::Node& n, const std::vector<ExprPtr>& a, DType t) {
                       return te::withScalar(Prim::VLRelu, castTo(a[0], t), n.floatAttr("alpha", 0.01));
                     },
                     [](const graph::Node& n, const std::vector<double>& v) {
                       return v[0] >= 0 ? v[0] : v[0] * n.floatAttr("alpha", 0.01);
                     }}},
      {"Ceil", rounding(RoundMode::Ceil, [](double x) { return std::ceil(x); })},
      {"Floor", rounding(RoundMode::Floor, [](double x) { return std::floor(x); })},
      {"Trunc", rounding(RoundMode::Trunc, [](double x) { return std::trunc(x); })},
      {"Rint", rounding(RoundMode::Rint, [](double x) { return std::nearbyint(x); })},
      {"Sign", unary(
                   [](ExprPtr x, DType t) {
                     return te::select(te::compare(te::Cmp::GT, x, c(0, t)), c(1, t),
                                       te::select(te::compare(te::Cmp::LT, x, c(0, t)), c(-1, t), x));
                   },
                   [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; })},
      {"Sin", unary(inFloat32(sine), [](double x) { return std::sin(x); })},
      {"Cos", unary(inFloat32(cosine), [](double x) { return std::cos(x); })},
      {"Tan", unary(inFloat32(tangent), [](double x) { return std::tan(x); })},
      {"Asin", unary(inFloat32(arcsine), [](double x) { return std::asin(x); })},
      {"Acos", unary(inFloat32(arccosine), [](double x) { return std::acos(x); })},
      {"Atan", unary(inFloat32(arctangent), [](double x) { return std::atan(x); })},
      {"Sinh", unary(inFloat32(hyperbolicSine), [](double x) { return std::sinh(x); })},
      {"Cosh", unary(inFloat32(hyperbolicCosine), [](double x) { return std::cosh(x); })},
      {"Asinh", unary(inFloat32(inverseHyperbolicSine), [](double x) { return std::asinh(x); })},
      {"Acosh", unary(inFloat32(inverseHyperbolicCosine), [](double x) { return std::acosh(x); })},
      {"Atanh", unary(inFloat32(inverseHyperbolicTangent), [](double x) { return std::atanh(x); })},
      {"Expm1", unary(inFloat32(expm1), [](double x) { return std::expm1(x); })},
      {"Log1p", unary(inFloat32(log1p), [](double x) { return std::log1p(x); })},
      {"Arctan2", binaryInFloat32(arctangent2, [](double y, double x) { return std::atan2(y, x); })},
      {"Hypot", binaryInFloat32(hypotenuse, [](double x, double y) { return std::hypot(x, y); })},
      {"FloorDiv", binaryInFloat32(floorDivide, [](double a, double b) { return std::floor(a / b); })},
      {"Mod", binaryInFloat32(remainder, [](double a, double b) { return a - std::floor(a / b) * b; })},
      {"IsNan", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                   return te::compare(te::Cmp::NE, a[0], a[0]);
                 },
                 [](const graph::Node&, const std::vector<double>& v) { return std::isnan(v[0]) ? 1.0 : 0.0; }}},
      {"IsInf", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                   if (!isFloat(a[0]->dtype)) return te::compare(te::Cmp::NE, a[0], a[0]);  // never
                   return te::compare(te::Cmp::EQ, te::unary(Prim::VAbs, a[0]), c(INFINITY, a[0]->dtype));
                 },
                 [](const graph::Node&, const std::vector<double>& v) { return std::isinf(v[0]) ? 1.0 : 0.0; }}},
      {"IsFinite", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                      if (!isFloat(a[0]->dtype)) return te::compare(te::Cmp::EQ, a[0], a[0]);  // always
                      return te::compare(te::Cmp::LT, te::unary(Prim::VAbs, a[0]), c(INFINITY, a[0]->dtype));
                    },
                    [](const graph::Node&, const std::vector<double>& v) { return std::isfinite(v[0]) ? 1.0 : 0.0; }}},
      {"Equal", comparison(te::Cmp::EQ, [](double a, double b) { return a == b; })},
      {"NotEqual", comparison(te::Cmp::NE, [](double a, double b) { return a != b; })},
      {"Less", comparison(te::Cmp::LT, [](double a, double b) { return a < b; })},
      {"LessEqual", comparison(te::Cmp::LE, [](double a, double b) { return a <= b; })},
      {"Greater", comparison(te::Cmp::GT, [](double a, double b) { return a > b; })},
      {"GreaterEqual", comparison(te::Cmp::GE, [](double a, double b) { return a >= b; })},
      {"LogicalNot", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                        return te::compare(te::Cmp::EQ, castTo(a[0], DType::Float16), c(0, DType::Float16));
                      },
                      [](const graph::Node&, const std::vector<double>& v) { return v[0] == 0 ? 1.0 : 0.0; }}},
      {"LogicalAnd", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                        ExprPtr p = te::binary(Prim::VMul, castTo(castTo(a[0], DType::Bool), DType::Float16),
                                               castTo(castTo(a[1], DType::Bool), DType::Float16));
                        return te::compare(te::Cmp::NE, p, c(0, DType::Float16));
                      },
                      [](const graph::Node&, const std::vector<double>& v) { return v[0] != 0 && v[1] != 0 ? 1.0 : 0.0; }}},
      {"LogicalOr", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                       ExprPtr p = te::binary(Prim::VMax, castTo(castTo(a[0], DType::Bool), DType::Float16),
                                              castTo(castTo(a[1], DType::Bool), DType::Float16));
                       return te::compare(te::Cmp::NE, p, c(0, DType::Float16));
                     },
                     [](const graph::Node&, const std::vector<double>& v) { return v[0] != 0 || v[1] != 0 ? 1.0 : 0.0; }}},
      {"LogicalXor", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType) {
                        return te::compare(te::Cmp::NE, castTo(castTo(a[0], DType::Bool), DType::Float16),
                                           castTo(castTo(a[1], DType::Bool), DType::Float16));
                      },
                      [](const graph::Node&, const std::vector<double>& v) { return (v[0] != 0) != (v[1] != 0) ? 1.0 : 0.0; }}},
      // the bitwise operators on booleans are the logical ones; on integers they run on the scalar
      // unit (select-templates' onScalarUnit), so the references are integer arithmetic
      {"BitwiseAnd", bitwise("LogicalAnd", [](int64_t a, int64_t b) { return a & b; })},
      {"BitwiseOr", bitwise("LogicalOr", [](int64_t a, int64_t b) { return a | b; })},
      {"BitwiseXor", bitwise("LogicalXor", [](int64_t a, int64_t b) { return a ^ b; })},
      {"Invert", bitwise("LogicalNot", [](int64_t a, int64_t) { return ~a; })},
      {"LeftShift", bitwise("", [](int64_t a, int64_t b) { return b >= 0 && b < 64 ? static_cast<int64_t>(static_cast<uint64_t>(a) << b) : 0; })},
      {"RightShift", bitwise("", [](int64_t a, int64_t b) { return b >= 0 && b < 64 ? a >> b : a < 0 ? -1 : 0; })},
      {"Where", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) {
                   return te::select(castTo(a[0], DType::Bool), castTo(a[1], t), castTo(a[2], t));
                 },
                 [](const graph::Node&, const std::vector<double>& v) { return v[0] != 0 ? v[1] : v[2]; }}},
      {"Clip", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) {
                  return te::binary(Prim::VMin, te::binary(Prim::VMax, castTo(a[0], t), castTo(a[1], t)), castTo(a[2], t));
                },
                [](const graph::Node&, const std::vector<double>& v) { return std::min(std::max(v[0], v[1]), v[2]); }}},
      {"Cast", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) { return castTo(a[0], t); },
                [](const graph::Node& n, const std::vector<double>& v) {
                  DType to = DType::Float64;
                  parseDType(n.stringAttr("dtype"), to);
                  return castValue(v[0], to);
                }}},
      {"Identity", {[](const graph::Node&, const std::vector<ExprPtr>& a, DType t) { return castTo(a[0], t); },
                    [](const graph::Node&, const std::vector<double>& v) { return v[0]; }}},
  };
  return t;
}

}  // namespace

ExprPtr elementwiseExpr(const graph::Node& node, const std::vector<ExprPtr>& args, DType outType, std::string& error) {
  auto it = table().find(node.op);
  if (it == table().end()) {
    error = "operator '" + node.op + "' has no vector lowering yet";
    return nullptr;
  }
  if (isBitwise(node.op) && (outType != DType::Bool || node.op == "LeftShift" || node.op == "RightShift")) {
    error = "operator '" + node.op + "' on integers has no vector lowering: the vector unit has no bitwise "
            "instructions (the scalar unit computes them; booleans are supported)";
    return nullptr;
  }
  if (node.op == "Pow" && !isFloat(outType) && outType != DType::Bool) {
    const ExprPtr& k = args.at(1);
    if (k->prim != Prim::Const || !isVectorIntegerExponent(k->value)) {
      error = "integer power has a vector lowering only for a constant exponent in 0..1024";
      return nullptr;
    }
  }
  for (const ExprPtr& a : args) {  // a comparison or cast of int64 has a vector-unit result but not operands
    if (a->prim != Prim::Const && a->dtype != DType::Bool && !isVectorDType(a->dtype)) {
      error = std::string("operator '") + node.op + "' on " + dtypeName(a->dtype) +
              " operands is not supported by the vector unit (float16, float32, int32)" +
              (a->dtype == DType::Int64 ? "; int64 values the program bounds within int32 (argmin/argmax indices, "
                                          "np.arange, constants) are narrowed, but this one is not"
                                        : "");
      return nullptr;
    }
  }
  DType computeType = outType == DType::Bool ? DType::Float16 : outType;
  if (!isVectorDType(computeType)) {
    error = std::string("operator '") + node.op + "' on " + dtypeName(outType) +
            " is not supported by the vector unit (float16, float32, int32)";
    return nullptr;
  }
  ExprPtr e = it->second.build(node, args, computeType);
  return castTo(e, outType);
}

bool isElementwiseOp(const std::string& op) { return table().count(op) > 0; }

bool isVectorIntegerExponent(double exponent) { return exponent >= 0 && exponent <= 1024 && exponent == std::floor(exponent); }

bool isBitwise(const std::string& op) {
  return op == "BitwiseAnd" || op == "BitwiseOr" || op == "BitwiseXor" || op == "Invert" || op == "LeftShift" ||
         op == "RightShift";
}

std::vector<std::string> elementwiseOpNames() {
  std::vector<std::string> names;
  for (const auto& [name, lowering] : table()) names.push_back(name);
  return names;
}

double elementwiseReference(const graph::Node& node, const std::vector<double>& args) {
  return table().at(node.op).reference(node, args);
}

}  // namespace pyasc::ops
