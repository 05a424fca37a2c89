// Slices written into arrays on the host: offsets from 0-d buffers, clipped strided copies.
#include "cpu/SliceWrite.h"

#include <algorithm>
#include <cstring>

namespace pyasc::cpu {

namespace {

// Floor and ceiling of a / b for b > 0.
int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

// Copies count[a..] elements of `element` bytes at byte strides to[a..] (destination) and from[a..]
// (source), axis a outermost.
void copyStrided(int a, int rank, const int64_t* count, const int64_t* to, const int64_t* from, int64_t element, uint8_t* d,
                 const uint8_t* f) {
  if (a == rank - 1) {
    if (to[a] == element && from[a] == element) {
      std::memcpy(d, f, static_cast<size_t>(count[a] * element));
      return;
    }
    for (int64_t r = 0; r < count[a]; ++r) std::memcpy(d + r * to[a], f + r * from[a], static_cast<size_t>(element));
    return;
  }
  for (int64_t r = 0; r < count[a]; ++r) copyStrided(a + 1, rank, count, to, from, element, d + r * to[a], f + r * from[a]);
}

}  // namespace

int64_t scalarValue(const Halide::Buffer<>& b) {
  const Halide::Type t = b.type();
  const void* p = b.data();
  if (t.is_uint()) {
    switch (t.bits()) {
      case 8: return *static_cast<const uint8_t*>(p);
      case 16: return *static_cast<const uint16_t*>(p);
      case 32: return *static_cast<const uint32_t*>(p);
      default: return static_cast<int64_t>(*static_cast<const uint64_t*>(p));
    }
  }
  switch (t.bits()) {
    case 8: return *static_cast<const int8_t*>(p);
    case 16: return *static_cast<const int16_t*>(p);
    case 32: return *static_cast<const int32_t*>(p);
    default: return *static_cast<const int64_t*>(p);
  }
}

void writeSlice(Halide::Buffer<>& array, const Halide::Buffer<>& slice, const std::vector<int64_t>& start, const std::vector<int64_t>& step) {
  const int rank = array.dimensions();
  const int64_t element = array.type().bytes();
  std::vector<int64_t> count(static_cast<size_t>(rank)), to(count), from(count);  // per NumPy axis
  uint8_t* dst = static_cast<uint8_t*>(array.data());
  const uint8_t* src = static_cast<const uint8_t*>(slice.data());
  for (int a = 0; a < rank; ++a) {
    const int h = rank - 1 - a;  // Halide's dimension
    const int64_t n = array.dim(h).extent(), s = step[a], b = start[a], extent = slice.dim(h).extent();
    // the first and one past the last r with 0 <= b + r * s < n
    int64_t lo = s > 0 ? ceilDiv(-b, s) : ceilDiv(b - n + 1, -s);
    int64_t hi = (s > 0 ? floorDiv(n - 1 - b, s) : floorDiv(b, -s)) + 1;
    lo = std::max<int64_t>(lo, 0);
    hi = std::min(hi, extent);
    if (hi <= lo) return;
    count[a] = hi - lo;
    to[a] = array.dim(h).stride() * s * element;
    from[a] = slice.dim(h).stride() * element;
    dst += (b + lo * s) * array.dim(h).stride() * element;
    src += lo * from[a];
  }
  if (rank == 0) std::memcpy(dst, src, static_cast<size_t>(element));
  else copyStrided(0, rank, count.data(), to.data(), from.data(), element, dst, src);
}

}  // namespace pyasc::cpu
