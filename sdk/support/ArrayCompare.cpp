// Array conversion and comparison for the differential tests of the tools.
#include "sdk/support/ArrayCompare.h"

#include <cmath>
#include <cstring>

#include "sdk/support/Float16.h"

namespace pyasc {

std::vector<double> arrayValues(const NpyArray& a) {
  std::vector<double> v(static_cast<size_t>(a.elementCount()));
  const uint8_t* p = a.data.data();
  for (size_t i = 0; i < v.size(); ++i) {
    switch (a.dtype) {
      case DType::Float16: { uint16_t h; std::memcpy(&h, p + 2 * i, 2); v[i] = halfToFloat(h); break; }
      case DType::Float32: { float f; std::memcpy(&f, p + 4 * i, 4); v[i] = f; break; }
      case DType::Float64: { double d; std::memcpy(&d, p + 8 * i, 8); v[i] = d; break; }
      case DType::Int32: { int32_t x; std::memcpy(&x, p + 4 * i, 4); v[i] = x; break; }
      case DType::Int64: { int64_t x; std::memcpy(&x, p + 8 * i, 8); v[i] = static_cast<double>(x); break; }
      case DType::Int16: { int16_t x; std::memcpy(&x, p + 2 * i, 2); v[i] = x; break; }
      case DType::Int8: v[i] = static_cast<int8_t>(p[i]); break;
      default: v[i] = p[i]; break;
    }
  }
  return v;
}

ArrayError compareArrays(const NpyArray& got, const NpyArray& want) {
  std::vector<double> g = arrayValues(got), w = arrayValues(want);
  ArrayError e;
  if (g.size() != w.size()) {
    e.sizesDiffer = true;
    return e;
  }
  double num = 0, den = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    double d = g[i] == w[i] ? 0.0 : g[i] - w[i];  // (equal infinities agree)
    if (std::isnan(g[i]) != std::isnan(w[i])) d = INFINITY;
    if (std::isnan(g[i]) && std::isnan(w[i])) d = 0;
    e.maxAbs = std::max(e.maxAbs, std::fabs(d));
    num += d * d;
    den += w[i] * w[i];
  }
  e.relative = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  return e;
}

NpyArray uniformArray(DType dtype, const std::vector<int64_t>& shape, LegacyRandom& gen, double lo, double hi) {
  NpyArray a;
  a.dtype = dtype;
  a.shape = shape;
  int64_t n = a.elementCount();
  int size = dtypeSize(dtype);
  a.data.resize(static_cast<size_t>(n * size));
  for (int64_t i = 0; i < n; ++i) {
    double v = lo + (hi - lo) * gen.randomSample();
    uint8_t* p = a.data.data() + i * size;
    switch (dtype) {
      case DType::Float16: { uint16_t h = doubleToHalf(v); std::memcpy(p, &h, 2); break; }
      case DType::Float32: { float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
      case DType::Float64: std::memcpy(p, &v, 8); break;
      case DType::Bool: p[0] = v < (lo + hi) / 2; break;
      default: { int64_t x = static_cast<int64_t>(v * 100); std::memcpy(p, &x, static_cast<size_t>(size)); break; }
    }
  }
  return a;
}

}  // namespace pyasc
