// F16C/AVX loops of eight lanes, and AVX-512 loops of sixteen where the host has them: vcvtph2ps
// widens exactly, vcvtps2ph (imm 0) rounds nearest-even with overflow to infinity like
// floatToHalfNearest; NaN lanes are then set to the canonical 0x7e00.
#include "sim/HalfLoops.h"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define PYASC_HALF_LOOPS 1
#endif

namespace pyasc::sim {

#ifdef PYASC_HALF_LOOPS

namespace {

constexpr int kLanes = 8;

template <HalfOp Op>
__attribute__((target("avx,f16c"), always_inline)) inline __m256 apply(__m256 a, __m256 b) {
  if constexpr (Op == HalfOp::Add) return _mm256_add_ps(a, b);
  if constexpr (Op == HalfOp::Sub) return _mm256_sub_ps(a, b);
  if constexpr (Op == HalfOp::Mul) return _mm256_mul_ps(a, b);
  if constexpr (Op == HalfOp::Div) return _mm256_div_ps(a, b);
  if constexpr (Op == HalfOp::Max) return _mm256_max_ps(b, a);  // b > a ? b : a: a on ties
  if constexpr (Op == HalfOp::Min) return _mm256_min_ps(b, a);  // b < a ? b : a
}

// Eight lanes: a and b widened, the result rounded, lanes with a NaN operand or result 0x7e00.
template <HalfOp Op>
__attribute__((target("avx,f16c"), always_inline)) inline __m128i eightLanes(__m128i a16, __m256 b) {
  __m256 a = _mm256_cvtph_ps(a16);
  __m256 r = apply<Op>(a, b);
  __m256 nan = _mm256_or_ps(_mm256_cmp_ps(a, b, _CMP_UNORD_Q), _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
  __m256i wide = _mm256_castps_si256(nan);
  __m128i narrow = _mm_packs_epi32(_mm256_castsi256_si128(wide), _mm256_extractf128_si256(wide, 1));
  __m128i h = _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT);
  return _mm_blendv_epi8(h, _mm_set1_epi16(0x7e00), narrow);
}

template <HalfOp Op>
__attribute__((target("avx,f16c"))) void halfLoop(uint8_t* dst, const uint8_t* a, const uint8_t* b, uint16_t scalar,
                                                  uint64_t n) {
  __m256 bs = _mm256_cvtph_ps(_mm_set1_epi16(static_cast<short>(scalar)));
  uint64_t full = n / kLanes * kLanes;
  for (uint64_t i = 0; i < full; i += kLanes) {
    __m128i a16 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 2 * i));
    __m256 bv = b ? _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 2 * i))) : bs;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 2 * i), eightLanes<Op>(a16, bv));
  }
  uint64_t rest = n - full;
  if (rest == 0) return;
  alignas(16) uint16_t ta[kLanes] = {}, tb[kLanes] = {}, td[kLanes];
  std::memcpy(ta, a + 2 * full, 2 * rest);
  if (b) std::memcpy(tb, b + 2 * full, 2 * rest);
  __m256 bv = b ? _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(tb))) : bs;
  _mm_store_si128(reinterpret_cast<__m128i*>(td), eightLanes<Op>(_mm_load_si128(reinterpret_cast<const __m128i*>(ta)), bv));
  std::memcpy(dst + 2 * full, td, 2 * rest);
}

// GCC 12's AVX-512 conversion intrinsics start from an undefined register, which it then reports.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

template <HalfOp Op>
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline __m512 apply16(__m512 a, __m512 b) {
  if constexpr (Op == HalfOp::Add) return _mm512_add_ps(a, b);
  if constexpr (Op == HalfOp::Sub) return _mm512_sub_ps(a, b);
  if constexpr (Op == HalfOp::Mul) return _mm512_mul_ps(a, b);
  if constexpr (Op == HalfOp::Div) return _mm512_div_ps(a, b);
  if constexpr (Op == HalfOp::Max) return _mm512_max_ps(b, a);  // as apply: a on ties
  if constexpr (Op == HalfOp::Min) return _mm512_min_ps(b, a);
}

// halfLoop sixteen lanes at a time; the tail of fewer than sixteen goes through halfLoop.
template <HalfOp Op>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void halfLoop16(uint8_t* dst, const uint8_t* a, const uint8_t* b,
                                                                    uint16_t scalar, uint64_t n) {
  __m512 bs = _mm512_cvtph_ps(_mm256_set1_epi16(static_cast<short>(scalar)));
  __m256i canonicalNan = _mm256_set1_epi16(0x7e00);
  uint64_t full = n / 16 * 16;
  for (uint64_t i = 0; i < full; i += 16) {
    __m512 av = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 2 * i)));
    __m512 bv = b ? _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 2 * i))) : bs;
    __m512 r = apply16<Op>(av, bv);
    __mmask16 nan = _mm512_cmp_ps_mask(av, bv, _CMP_UNORD_Q) | _mm512_cmp_ps_mask(r, r, _CMP_UNORD_Q);
    __m256i h = _mm512_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 2 * i), _mm256_mask_mov_epi16(h, nan, canonicalNan));
  }
  if (full < n) halfLoop<Op>(dst + 2 * full, a + 2 * full, b ? b + 2 * full : nullptr, scalar, n - full);
}

#pragma GCC diagnostic pop

bool hostHasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl");
  return has;
}

template <HalfOp Op>
void halfLoopBest(uint8_t* dst, const uint8_t* a, const uint8_t* b, uint16_t scalar, uint64_t n) {
  if (hostHasAvx512()) {
    halfLoop16<Op>(dst, a, b, scalar, n);
  } else {
    halfLoop<Op>(dst, a, b, scalar, n);
  }
}

}  // namespace

bool hostHasHalfLoops() {
  // CPUID leaf 1, ECX: bit 27 OSXSAVE, 28 AVX, 29 F16C (clang has no __builtin_cpu_supports("f16c")),
  // and the OS saving the AVX state (XCR0 bits 1 and 2)
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx >> 27 & 1) || !(ecx >> 28 & 1) || !(ecx >> 29 & 1)) return false;
    unsigned xcr0 = 0, xcr0High = 0;
    __asm__("xgetbv" : "=a"(xcr0), "=d"(xcr0High) : "c"(0));
    return (xcr0 & 6) == 6;
  }();
  return has;
}

bool halfBinary(HalfOp op, uint8_t* dst, const uint8_t* a, const uint8_t* b, uint16_t scalar, uint64_t n) {
  if (!hostHasHalfLoops()) return false;
  switch (op) {
    case HalfOp::Add: halfLoopBest<HalfOp::Add>(dst, a, b, scalar, n); break;
    case HalfOp::Sub: halfLoopBest<HalfOp::Sub>(dst, a, b, scalar, n); break;
    case HalfOp::Mul: halfLoopBest<HalfOp::Mul>(dst, a, b, scalar, n); break;
    case HalfOp::Div: halfLoopBest<HalfOp::Div>(dst, a, b, scalar, n); break;
    case HalfOp::Max: halfLoopBest<HalfOp::Max>(dst, a, b, scalar, n); break;
    case HalfOp::Min: halfLoopBest<HalfOp::Min>(dst, a, b, scalar, n); break;
  }
  return true;
}

#else

bool hostHasHalfLoops() { return false; }
bool halfBinary(HalfOp, uint8_t*, const uint8_t*, const uint8_t*, uint16_t, uint64_t) { return false; }

#endif

}  // namespace pyasc::sim
