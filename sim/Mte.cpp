// DMA block and byte modes, ND→ZZ/ZN fractal loads with transpose and zero-filled tails, img2col.
#include "sim/Mte.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <vector>

#include "sim/InstructionTable.h"

namespace pyasc::sim {

namespace {

using isa::Opcode;
using isa::Space;

// Byte distance between consecutive bursts on one side: GM counts byte-mode lengths and gaps
// in bytes; a local buffer always advances in whole 32-byte blocks.
uint64_t burstPitch(Space side, bool byteMode, uint64_t len, uint64_t gap) {
  if (!byteMode) return (len + gap) * isa::kBlockBytes;
  if (side == Space::GM) return len + gap;
  return ((len + isa::kBlockBytes - 1) / isa::kBlockBytes + gap) * isa::kBlockBytes;
}

#if defined(__x86_64__)
// 64-byte lines of non-temporal stores, with AVX-512 where the host has it, else SSE2.
__attribute__((target("avx512f"))) void streamLines512(uint8_t* d, const uint8_t* s, uint64_t n) {
  for (uint64_t i = 0; i < n; i += 64) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(d + i), _mm512_loadu_si512(s + i));
  }
}

void streamLines(uint8_t* d, const uint8_t* s, uint64_t n) {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (avx512) {
    streamLines512(d, s, n);
  } else {
    for (uint64_t i = 0; i < n; i += 16) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
    }
  }
}
#endif

// Copies n bytes into GM: whole 64-byte lines with non-temporal stores (GM data is not read again
// soon by this host thread, and such stores do not read the lines they replace), the rest as memmove.
// This thread sees its own stores in order; other threads once drainStreamedStores has run.
void copyToGm(uint8_t* d, const uint8_t* s, uint64_t n) {
  uint64_t head = (64 - reinterpret_cast<uintptr_t>(d) % 64) % 64;
  if (n < 1024 || head >= n) {
    std::memmove(d, s, n);
    return;
  }
#if defined(__x86_64__)
  std::memmove(d, s, head);
  uint64_t body = (n - head) / 64 * 64;
  streamLines(d + head, s + head, body);
  std::memmove(d + head + body, s + head + body, n - head - body);
#else
  std::memmove(d, s, n);
#endif
}

Work copy(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  CopyRoute r = copyRoute(inst.op);
  bool byteMode = inst.mode == 1;
  uint64_t src = in.address(inst.src0), dst = in.address(inst.dst);
  mem.requireAligned(r.src, src);
  mem.requireAligned(r.dst, dst);
  uint64_t burstBytes = byteMode ? inst.burstLen : static_cast<uint64_t>(inst.burstLen) * isa::kBlockBytes;
  uint64_t srcPitch = burstPitch(r.src, byteMode, inst.burstLen, inst.srcGap);
  uint64_t dstPitch = burstPitch(r.dst, byteMode, inst.burstLen, inst.dstGap);
  if (burstBytes == 0) return Work::transfer(r.path, 0);
  for (uint64_t i = 0; i < inst.nburst; ++i) {
    const uint8_t* s = mem.read(r.src, src + i * srcPitch, burstBytes);
    uint8_t* d = mem.write(r.dst, dst + i * dstPitch, burstBytes);
    if (r.dst == Space::GM) {
      copyToGm(d, s, burstBytes);
    } else {
      std::memmove(d, s, burstBytes);
    }
  }
  if (r.src == Space::GM) return Work::gmTransfer(r.path, src, inst.nburst, burstBytes, srcPitch);
  if (r.dst == Space::GM) return Work::gmTransfer(r.path, dst, inst.nburst, burstBytes, dstPitch);
  return Work::transfer(r.path, burstBytes * inst.nburst);
}

// Writes an rows×cols matrix, given element by element, into L0A (ZZ) or L0B (ZN) fractals.
// `element(r, c, out)` copies element (r, c) of the logical matrix (zero when outside).
template <typename ElementFn>
void writeFractals(uint8_t* dst, bool zn, int rows, int cols, int es, ElementFn element) {
  int c0 = isa::kBlockBytes / es;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      uint64_t offset;
      if (!zn) {
        offset = (static_cast<uint64_t>(r / 16) * (cols / c0) + c / c0) * isa::kFractalBytes +
                 ((r % 16) * c0 + c % c0) * es;
      } else {  // rows are k, cols are n
        offset = (static_cast<uint64_t>(r / c0) * (cols / 16) + c / 16) * isa::kFractalBytes +
                 ((c % 16) * c0 + r % c0) * es;
      }
      element(r, c, dst + offset);
    }
  }
}

Work loadFractal(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  bool isB = inst.op == Opcode::LoadL0B;
  int es = dtypeSize(inst.type);
  int rows = isB ? inst.k : inst.m, cols = isB ? inst.n : inst.k;
  int validR = inst.validRows ? inst.validRows : rows, validC = inst.validCols ? inst.validCols : cols;
  if (validR > rows) validR = rows;
  if (validC > cols) validC = cols;
  bool trans = inst.mode == 1;
  uint64_t src = in.address(inst.src0), dst = in.address(inst.dst);
  uint64_t stride = inst.srcStride;
  Space dstSpace = isB ? Space::L0B : Space::L0A;
  mem.requireAligned(Space::L1, src);
  mem.requireAligned(dstSpace, dst);
  // The L1 lines the valid part occupies: rows of ND, or columns when transposed.
  int lines = trans ? validC : validR, lineLen = trans ? validR : validC;
  std::vector<const uint8_t*> line(lines);
  for (int i = 0; i < lines && lineLen > 0; ++i) line[i] = mem.read(Space::L1, src + i * stride * es, static_cast<uint64_t>(lineLen) * es);
  uint64_t bytes = static_cast<uint64_t>(rows) * cols * es;
  uint8_t* out = mem.write(dstSpace, dst, bytes);
  writeFractals(out, isB, rows, cols, es, [&](int r, int c, uint8_t* p) {
    if (r >= validR || c >= validC) {
      std::memset(p, 0, es);
    } else {
      std::memcpy(p, trans ? line[c] + r * es : line[r] + c * es, es);
    }
  });
  return Work::transfer(isB ? DmaPath::L1ToL0B : DmaPath::L1ToL0A, bytes);
}

Work img2col(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  int es = dtypeSize(inst.type);
  uint64_t src = in.address(inst.src0), dst = in.address(inst.dst);
  mem.requireAligned(Space::L1, src);
  mem.requireAligned(Space::L0A, dst);
  int64_t H = inst.h, W = inst.w, C = inst.c;
  int64_t effH = (inst.kh - 1) * static_cast<int64_t>(inst.dilH) + 1, effW = (inst.kw - 1) * static_cast<int64_t>(inst.dilW) + 1;
  int64_t OH = (H + inst.padT + inst.padB - effH) / inst.strideH + 1;
  int64_t OW = (W + inst.padL + inst.padR - effW) / inst.strideW + 1;
  if (OH < 0) OH = 0;
  if (OW < 0) OW = 0;
  const uint8_t* image = mem.read(Space::L1, src, static_cast<uint64_t>(H * W * C) * es);
  uint64_t bytes = static_cast<uint64_t>(inst.m) * inst.k * es;
  uint8_t* out = mem.write(Space::L0A, dst, bytes);
  writeFractals(out, false, inst.m, inst.k, es, [&](int r, int q, uint8_t* p) {
    int64_t pos = inst.posStart + static_cast<int64_t>(r);
    int64_t ch = q % C, ij = q / C, i = ij / inst.kw, j = ij % inst.kw;
    if (pos >= OH * OW || i >= inst.kh) {
      std::memset(p, 0, es);
      return;
    }
    int64_t ih = (pos / OW) * inst.strideH - inst.padT + i * inst.dilH;
    int64_t iw = (pos % OW) * inst.strideW - inst.padL + j * inst.dilW;
    if (ih < 0 || ih >= H || iw < 0 || iw >= W) {
      std::memset(p, 0, es);
      return;
    }
    std::memcpy(p, image + ((ih * W + iw) * C + ch) * es, es);
  });
  return Work::transfer(DmaPath::L1ToL0A, bytes);
}

}  // namespace

void drainStreamedStores() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

Work runTransfer(const IssuedInstruction& in, CoreMemory& mem) {
  switch (in.inst->op) {
    case Opcode::LoadL0A:
    case Opcode::LoadL0B: return loadFractal(in, mem);
    case Opcode::Img2Col: return img2col(in, mem);
    default: return copy(in, mem);
  }
}

}  // namespace pyasc::sim
