// mmad over ZZ/ZN fractals into NZ L0C with sequential k accumulation (one binary32 rounding per
// addition, exact int32 for s8), and fixpipe from NZ L0C to row-major UB/GM with conversion.
#include "sim/CubeUnit.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "sdk/support/Float16.h"
#include "sim/Conversion.h"
#include "sim/FastPaths.h"
#include "sim/InstructionTable.h"

namespace pyasc::sim {

namespace {

using isa::Space;

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Offset of element (r, c) of an m-row matrix in NZ layout (16×16 fractals, column of fractals
// first).
uint64_t nzOffset(uint64_t r, uint64_t c, uint64_t m16, int es) {
  return ((c / 16) * m16 + r / 16) * 256 * es + ((r % 16) * 16 + c % 16) * es;
}

// acc + product rounded once to binary32. The double sum can be off only when it lands exactly on
// a binary32 midpoint; the TwoSum error term then says which way the exact value lies.
float addRounded(float acc, double product) {
  double a = acc, s = a + product;
  double bb = s - a;
  double err = (a - (s - bb)) + (product - bb);
  float f = static_cast<float>(s);
  if (err == 0 || !std::isfinite(f)) return f;
  float up = std::nextafter(f, INFINITY), down = std::nextafter(f, -INFINITY);
  if (s == (static_cast<double>(f) + up) / 2) return err > 0 ? up : f;
  if (s == (static_cast<double>(f) + down) / 2) return err < 0 ? down : f;
  return f;
}

double loadValue(DType t, const uint8_t* p) {
  switch (t) {
    case DType::Float16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return halfToFloat(h);
    }
    case DType::Float32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    default: return static_cast<int8_t>(*p);
  }
}

// C (m×n, row-major, n floats a row) += A (m×k) · B (k×n), for each element adding the products in
// k order, each addition rounded once in binary32. For float16 inputs every product is exact in
// binary32 (11 × 11 significant bits, exponents in range), so binary32 arithmetic gives the same
// bits as addRounded; rows go four at a time so each row of B is loaded once for them.
__attribute__((target_clones("avx2", "default"))) void accumulateHalfProducts(float* c, const float* a,
                                                                              const float* b, uint64_t m, uint64_t n,
                                                                              uint64_t k) {
  uint64_t r = 0;
  for (; r + 4 <= m; r += 4) {
    float* __restrict c0 = c + r * n;
    float* __restrict c1 = c0 + n;
    float* __restrict c2 = c1 + n;
    float* __restrict c3 = c2 + n;
    for (uint64_t q = 0; q < k; ++q) {
      const float* __restrict bq = b + q * n;
      float a0 = a[r * k + q], a1 = a[(r + 1) * k + q], a2 = a[(r + 2) * k + q], a3 = a[(r + 3) * k + q];
      for (uint64_t col = 0; col < n; ++col) {
        float x = bq[col];
        c0[col] += a0 * x;
        c1[col] += a1 * x;
        c2[col] += a2 * x;
        c3[col] += a3 * x;
      }
    }
  }
  for (; r < m; ++r) {
    float* __restrict cr = c + r * n;
    for (uint64_t q = 0; q < k; ++q) {
      const float* __restrict bq = b + q * n;
      float ar = a[r * k + q];
      for (uint64_t col = 0; col < n; ++col) cr[col] += ar * bq[col];
    }
  }
}

// Reused scratch for unpacked operands: no allocation per mmad.
template <typename T>
T* scratch(std::vector<T>& v, uint64_t size) {
  if (v.size() < size) v.resize(size);
  return v.data();
}

}  // namespace

Work runMmad(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  DType t = inst.type;
  int es = dtypeSize(t), ds = dtypeSize(inst.type2);
  uint64_t c0 = isa::kBlockBytes / es;
  uint64_t m = inst.m, n = inst.n, k = inst.k;
  uint64_t m16 = ceilDiv(m, 16), n16 = ceilDiv(n, 16), kf = ceilDiv(k, c0);
  uint64_t a = in.address(inst.src0), b = in.address(inst.src1), c = in.address(inst.dst);
  mem.requireAligned(Space::L0A, a);
  mem.requireAligned(Space::L0B, b);
  mem.requireAligned(Space::L0C, c);
  const uint8_t* pa = mem.read(Space::L0A, a, m16 * kf * isa::kFractalBytes);
  const uint8_t* pb = mem.read(Space::L0B, b, kf * n16 * isa::kFractalBytes);
  bool init = inst.mode == 1;
  uint64_t cBytes = m16 * n16 * 256 * ds;
  if (!init) mem.read(Space::L0C, c, cBytes);
  uint8_t* pc = mem.write(Space::L0C, c, cBytes);
  auto aAt = [&](uint64_t r, uint64_t q) { return pa + ((r / 16) * kf + q / c0) * isa::kFractalBytes + ((r % 16) * c0 + q % c0) * es; };
  auto bAt = [&](uint64_t q, uint64_t col) { return pb + ((q / c0) * n16 + col / 16) * isa::kFractalBytes + ((col % 16) * c0 + q % c0) * es; };
  if (t == DType::Float16 && inst.type2 == DType::Float32 && fastPaths()) {
    static thread_local std::vector<float> A, B, C;
    float* fa = scratch(A, m * k);
    float* fb = scratch(B, k * n);
    float* fc = scratch(C, m * n);
    for (uint64_t r = 0; r < m; ++r) {
      for (uint64_t q = 0; q < k; ++q) fa[r * k + q] = static_cast<float>(loadValue(t, aAt(r, q)));
    }
    for (uint64_t q = 0; q < k; ++q) {
      for (uint64_t col = 0; col < n; ++col) fb[q * n + col] = static_cast<float>(loadValue(t, bAt(q, col)));
    }
    for (uint64_t r = 0; r < m; ++r) {
      for (uint64_t col = 0; col < n; ++col) {
        float acc = 0;
        if (!init) std::memcpy(&acc, pc + nzOffset(r, col, m16, ds), 4);
        fc[r * n + col] = acc;
      }
    }
    accumulateHalfProducts(fc, fa, fb, m, n, k);
    for (uint64_t r = 0; r < m; ++r) {
      for (uint64_t col = 0; col < n; ++col) std::memcpy(pc + nzOffset(r, col, m16, ds), &fc[r * n + col], 4);
    }
    return Work::cube(m, n, k, t);
  }
  // Unpack A (m×k, ZZ) and B (k×n, ZN) into row-major doubles once.
  std::vector<double> A(m * k), B(k * n);
  for (uint64_t r = 0; r < m; ++r) {
    for (uint64_t q = 0; q < k; ++q) A[r * k + q] = loadValue(t, aAt(r, q));
  }
  for (uint64_t q = 0; q < k; ++q) {
    for (uint64_t col = 0; col < n; ++col) B[q * n + col] = loadValue(t, bAt(q, col));
  }
  bool integer = t == DType::Int8;
  for (uint64_t r = 0; r < m; ++r) {
    for (uint64_t col = 0; col < n; ++col) {
      uint8_t* out = pc + nzOffset(r, col, m16, ds);
      if (integer) {
        uint32_t acc = 0;
        if (!init) std::memcpy(&acc, out, 4);
        for (uint64_t q = 0; q < k; ++q) {
          acc += static_cast<uint32_t>(static_cast<int32_t>(A[r * k + q]) * static_cast<int32_t>(B[q * n + col]));
        }
        std::memcpy(out, &acc, 4);
      } else {
        float acc = 0;
        if (!init) std::memcpy(&acc, out, 4);
        for (uint64_t q = 0; q < k; ++q) acc = addRounded(acc, A[r * k + q] * B[q * n + col]);
        std::memcpy(out, &acc, 4);
      }
    }
  }
  return Work::cube(m, n, k, t);
}

Work runFixpipe(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  bool toGm = inst.op == isa::Opcode::FixL0CToGm;
  Space dstSpace = toGm ? Space::GM : Space::UB;
  int ss = dtypeSize(inst.type), ds = dtypeSize(inst.type2);
  uint64_t m = inst.m, n = inst.n, m16 = ceilDiv(m, 16), n16 = ceilDiv(n, 16);
  uint64_t rows = inst.validRows ? inst.validRows : m, cols = inst.validCols ? inst.validCols : n;
  if (rows > m) rows = m;
  if (cols > n) cols = n;
  uint64_t src = in.address(inst.src0), dst = in.address(inst.dst);
  mem.requireAligned(Space::L0C, src);
  mem.requireAligned(dstSpace, dst);
  const uint8_t* pc = mem.read(Space::L0C, src, m16 * n16 * 256 * ss);
  RoundMode mode = static_cast<RoundMode>(inst.mode);
  for (uint64_t r = 0; r < rows; ++r) {
    uint8_t* row = mem.write(dstSpace, dst + r * inst.dstStride * ds, cols * ds);
    for (uint64_t col = 0; col < cols; ++col) {
      uint32_t bits;
      std::memcpy(&bits, pc + nzOffset(r, col, m16, ss), 4);
      uint32_t out = convertValue(inst.type, inst.type2, mode, bits);
      std::memcpy(row + col * ds, &out, ds);
    }
  }
  if (toGm) return Work::gmTransfer(DmaPath::L0CToGm, dst, rows, cols * ds, inst.dstStride * ds);
  return Work::transfer(DmaPath::L0CToUb, rows * cols * ds);
}

}  // namespace pyasc::sim
