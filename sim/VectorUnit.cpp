// Vector semantics of docs/isa.md: lane addressing, normal and counter masks, f16 computed in f32
// and rounded once, transcendental functions in f64, vconv rounding, vcmp bits, reductions.
#include "sim/VectorUnit.h"

#include <bitset>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "sdk/support/Float16.h"
#include "sim/Conversion.h"
#include "sim/FastPaths.h"
#include "sim/HalfLoops.h"
#include "sim/InstructionTable.h"
#include "sim/Violation.h"

namespace pyasc::sim {

namespace {

using isa::Opcode;
using Lanes = std::bitset<128>;

// Which lanes of which repeats run: normal mode uses the mask bits and the repeat field,
// counter mode an element count.
struct Iteration {
  int lanes = 128;
  uint64_t repeats = 0;
  bool counter = false;
  uint64_t count = 0;
  uint64_t lo = 0, hi = 0;

  Lanes active(uint64_t r) const {
    Lanes a;
    if (counter) {
      uint64_t left = count - r * static_cast<uint64_t>(lanes);
      uint64_t n = left < static_cast<uint64_t>(lanes) ? left : static_cast<uint64_t>(lanes);
      for (uint64_t e = 0; e < n; ++e) a.set(e);
      return a;
    }
    for (int e = 0; e < lanes; ++e) {
      if (e < 64 ? (lo >> e) & 1 : (hi >> (e - 64)) & 1) a.set(e);
    }
    return a;
  }
};

Iteration iteration(const IssuedInstruction& in, int lanes) {
  Iteration it;
  it.lanes = lanes;
  it.counter = in.mask.counter;
  it.lo = in.mask.lo;
  it.hi = in.mask.hi;
  if (it.counter) {
    it.count = in.mask.lo;
    it.repeats = (it.count + lanes - 1) / lanes;
  } else {
    it.repeats = in.inst->repeat;
  }
  return it;
}

// One strided UB operand: base address, block and repeat strides (32-byte units), element size.
struct Operand {
  uint64_t base;
  uint64_t blk, rep;
  int esize;

  int lanesPerBlock() const { return isa::kBlockBytes / esize; }
  uint64_t blockAddress(uint64_t r, int b) const { return base + (r * rep + static_cast<uint64_t>(b) * blk) * isa::kBlockBytes; }
};

// The blocks of one operand in one repeat, mapped for access; only blocks with active lanes.
struct View {
  std::array<uint8_t*, 8> block{};
  int esize = 2, lpb = 16;
  uint8_t* lane(int e) const { return block[e / lpb] + (e % lpb) * esize; }
};

bool blockActive(const Lanes& active, int b, int lpb, int lanes) {
  for (int e = b * lpb; e < (b + 1) * lpb && e < lanes; ++e) {
    if (active[e]) return true;
  }
  return false;
}

View map(CoreMemory& mem, const Operand& o, uint64_t r, const Lanes& active, int lanes, AccessKind kind) {
  View v;
  v.esize = o.esize;
  v.lpb = o.lanesPerBlock();
  int blocks = (lanes + v.lpb - 1) / v.lpb;
  for (int b = 0; b < blocks; ++b) {
    if (!blockActive(active, b, v.lpb, lanes)) continue;
    uint64_t addr = o.blockAddress(r, b);
    v.block[b] = kind == AccessKind::Read ? mem.read(isa::Space::UB, addr, isa::kBlockBytes)
                                          : mem.write(isa::Space::UB, addr, isa::kBlockBytes);
  }
  return v;
}

// Sanitizer: within one repeat a source and the destination share all their blocks or none.
void checkOverlap(const Operand& dst, const Operand& src, uint64_t r, const Lanes& active, int lanes,
                  const char* srcName) {
  std::vector<uint64_t> d, s;
  int dl = dst.lanesPerBlock(), sl = src.lanesPerBlock();
  for (int b = 0; b < (lanes + dl - 1) / dl; ++b) {
    if (blockActive(active, b, dl, lanes)) d.push_back(dst.blockAddress(r, b));
  }
  for (int b = 0; b < (lanes + sl - 1) / sl; ++b) {
    if (blockActive(active, b, sl, lanes)) s.push_back(src.blockAddress(r, b));
  }
  if (d == s) return;
  for (uint64_t a : d) {
    for (uint64_t b : s) {
      if (a < b + isa::kBlockBytes && b < a + isa::kBlockBytes) {
        throw Violation(std::string(srcName) + " partially overlaps dst in repeat " + std::to_string(r) +
                        " (ub blocks " + hexText(b) + " and " + hexText(a) + ")");
      }
    }
  }
}

uint32_t loadBits(const uint8_t* p, int esize) {
  uint32_t v = 0;
  std::memcpy(&v, p, esize);
  return v;
}
void storeBits(uint8_t* p, int esize, uint32_t v) { std::memcpy(p, &v, esize); }

bool isHalf(DType t) { return t == DType::Float16; }

float bitsAsFloat(DType t, uint32_t bits) { return isHalf(t) ? halfBitsToFloat(static_cast<uint16_t>(bits)) : bitsToFloat(bits); }
// Rounds a binary32 result once to T (binary16 or binary32).
uint32_t floatBits(DType t, float v) { return isHalf(t) ? floatToHalfNearest(v) : floatToBits(v); }
// Rounds a binary64 result once to T.
uint32_t doubleBits(DType t, double v) { return isHalf(t) ? doubleToHalf(v) : floatToBits(static_cast<float>(v)); }
float roundTo(DType t, float v) { return bitsAsFloat(t, floatBits(t, v)); }

float nanMax(float a, float b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return a >= b ? a : b;
}
float nanMin(float a, float b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return a <= b ? a : b;
}
float relu(float a) { return std::isnan(a) || a > 0 ? a : 0.0f; }

// f16/f32 lanes: a (src0), b (src1 or scalar), d (old dst for vmla).
uint32_t floatLane(Opcode op, DType t, float a, float b, float d) {
  switch (op) {
    case Opcode::VAdd: case Opcode::VAdds: return floatBits(t, a + b);
    case Opcode::VSub: return floatBits(t, a - b);
    case Opcode::VMul: case Opcode::VMuls: return floatBits(t, a * b);
    case Opcode::VDiv: return floatBits(t, a / b);
    case Opcode::VMax: case Opcode::VMaxs: return floatBits(t, nanMax(a, b));
    case Opcode::VMin: case Opcode::VMins: return floatBits(t, nanMin(a, b));
    case Opcode::VMla: return floatBits(t, roundTo(t, a * b) + d);
    case Opcode::VAddRelu: return floatBits(t, relu(a + b));
    case Opcode::VLRelu: return floatBits(t, a >= 0 ? a : a * b);
    case Opcode::VExp: return doubleBits(t, std::exp(static_cast<double>(a)));
    case Opcode::VLn: return doubleBits(t, std::log(static_cast<double>(a)));
    case Opcode::VSqrt: return doubleBits(t, std::sqrt(static_cast<double>(a)));
    case Opcode::VRsqrt: return doubleBits(t, 1.0 / std::sqrt(static_cast<double>(a)));
    case Opcode::VRec: return doubleBits(t, 1.0 / static_cast<double>(a));
    case Opcode::VAbs: return floatBits(t, std::fabs(a));
    case Opcode::VRelu: return floatBits(t, relu(a));
    default: return 0;
  }
}

// s32 lanes wrap in two's complement.
uint32_t intLane(Opcode op, int32_t a, int32_t b, int32_t d) {
  uint32_t ua = static_cast<uint32_t>(a), ub = static_cast<uint32_t>(b);
  switch (op) {
    case Opcode::VAdd: case Opcode::VAdds: return ua + ub;
    case Opcode::VSub: return ua - ub;
    case Opcode::VMul: case Opcode::VMuls: return ua * ub;
    case Opcode::VMax: case Opcode::VMaxs: return static_cast<uint32_t>(a > b ? a : b);
    case Opcode::VMin: case Opcode::VMins: return static_cast<uint32_t>(a < b ? a : b);
    case Opcode::VMla: return ua * ub + static_cast<uint32_t>(d);
    case Opcode::VAddRelu: {
      int32_t s = static_cast<int32_t>(ua + ub);
      return s > 0 ? static_cast<uint32_t>(s) : 0;
    }
    case Opcode::VAbs: return a < 0 ? 0u - ua : ua;
    case Opcode::VRelu: return a > 0 ? ua : 0;
    default: return 0;
  }
}

// One elementwise instruction's per-lane computation on raw lane bits: a (src0), b (src1 or the
// scalar), d (the old dst, for vmla).
struct LaneOp {
  Opcode op;
  DType t;
  int es;
  int sources;  // 0 (vdup), 1 or 2
  bool readsDst;
  uint32_t scalar;

  uint32_t operator()(uint32_t a, uint32_t b, uint32_t d) const {
    if (op == Opcode::VDup) return scalar;
    if (op == Opcode::VMov) return a;
    if (t == DType::Int32) return intLane(op, static_cast<int32_t>(a), static_cast<int32_t>(b), static_cast<int32_t>(d));
    return floatLane(op, t, bitsAsFloat(t, a), bitsAsFloat(t, b), bitsAsFloat(t, d));
  }
};

LaneOp laneOp(const IssuedInstruction& in) {
  const isa::Instruction& inst = *in.inst;
  isa::Format format = opcodeEntry(inst.op).format;
  int es = dtypeSize(inst.type);
  int sources = format == isa::Format::VBinary ? 2 : format == isa::Format::VDup ? 0 : 1;
  uint32_t scalar = static_cast<uint32_t>(in.scalarBits() & (es == 2 ? 0xffffu : 0xffffffffu));
  return {inst.op, inst.type, es, sources, inst.op == Opcode::VMla, scalar};
}

bool halfOpOf(Opcode op, HalfOp& out) {
  switch (op) {
    case Opcode::VAdd: case Opcode::VAdds: out = HalfOp::Add; return true;
    case Opcode::VSub: out = HalfOp::Sub; return true;
    case Opcode::VMul: case Opcode::VMuls: out = HalfOp::Mul; return true;
    case Opcode::VDiv: out = HalfOp::Div; return true;
    case Opcode::VMax: case Opcode::VMaxs: out = HalfOp::Max; return true;
    case Opcode::VMin: case Opcode::VMins: out = HalfOp::Min; return true;
    default: return false;
  }
}

// The bulk path: when every lane of every repeat runs and each operand is one contiguous run of
// lanes (block stride 1, repeat stride 8), in UB, a source either being the destination or apart
// from it, the instruction is a plain loop over n lanes (n = repeats × lanes, or the counter),
// equal lane by lane to the per-repeat path. The accesses are the same 32-byte blocks, logged as
// one range per operand. Returns false, touching nothing, when the instruction does not qualify.
bool contiguousElementwise(const LaneOp& o, const Iteration& it, const Operand& dst, const Operand& s0,
                           const Operand& s1, CoreMemory& mem, uint64_t& lanesDone) {
  if (!fastPaths()) return false;
  uint64_t n;
  if (it.counter) {
    n = it.count;
  } else {
    uint64_t loNeeded = it.lanes >= 64 ? ~0ull : (1ull << it.lanes) - 1;
    if ((it.lo & loNeeded) != loNeeded || (it.lanes > 64 && it.hi != ~0ull)) return false;
    n = it.repeats * static_cast<uint64_t>(it.lanes);
  }
  if (n == 0) return false;
  constexpr uint64_t kRepeatBlocks = isa::kRepeatBytes / isa::kBlockBytes;
  uint64_t bytes = (n * static_cast<uint64_t>(o.es) + isa::kBlockBytes - 1) / isa::kBlockBytes * isa::kBlockBytes;
  auto contiguous = [&](const Operand& x) {
    return x.blk == 1 && x.rep == kRepeatBlocks && mem.inRange(isa::Space::UB, x.base, bytes);
  };
  auto apart = [&](const Operand& x) { return x.base == dst.base || x.base + bytes <= dst.base || dst.base + bytes <= x.base; };
  if (!contiguous(dst)) return false;
  if (o.sources >= 1 && !(contiguous(s0) && apart(s0))) return false;
  if (o.sources >= 2 && !(contiguous(s1) && apart(s1))) return false;
  const uint8_t* a = o.sources >= 1 ? mem.read(isa::Space::UB, s0.base, bytes) : nullptr;
  const uint8_t* b = o.sources >= 2 ? mem.read(isa::Space::UB, s1.base, bytes) : nullptr;
  if (o.readsDst) mem.read(isa::Space::UB, dst.base, bytes);
  uint8_t* d = mem.write(isa::Space::UB, dst.base, bytes);
  lanesDone = n;
  HalfOp half;
  if (o.t == DType::Float16 && o.sources >= 1 && halfOpOf(o.op, half) &&
      halfBinary(half, d, a, b, static_cast<uint16_t>(o.scalar), n)) {
    return true;
  }
  int es = o.es;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t x = a ? loadBits(a + i * es, es) : 0;
    uint32_t y = b ? loadBits(b + i * es, es) : o.scalar;
    uint32_t z = o.readsDst ? loadBits(d + i * es, es) : 0;
    storeBits(d + i * es, es, o(x, y, z));
  }
  return true;
}

Work elementwise(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  LaneOp o = laneOp(in);
  int es = o.es;
  Iteration it = iteration(in, isa::kRepeatBytes / es);
  Operand dst{in.address(inst.dst), inst.dstBlk, inst.dstRep, es};
  Operand s0{in.address(inst.src0), inst.src0Blk, inst.src0Rep, es};
  Operand s1{in.address(inst.src1), inst.src1Blk, inst.src1Rep, es};
  uint64_t lanesDone = 0;
  if (contiguousElementwise(o, it, dst, s0, s1, mem, lanesDone)) return Work::vector(it.repeats, lanesDone);
  std::array<uint32_t, 128> out{};
  for (uint64_t r = 0; r < it.repeats; ++r) {
    Lanes act = it.active(r);
    if (act.none()) continue;
    if (mem.sanitizing()) {
      if (o.sources >= 1) checkOverlap(dst, s0, r, act, it.lanes, "src0");
      if (o.sources >= 2) checkOverlap(dst, s1, r, act, it.lanes, "src1");
    }
    View v0, v1, vd;
    if (o.sources >= 1) v0 = map(mem, s0, r, act, it.lanes, AccessKind::Read);
    if (o.sources >= 2) v1 = map(mem, s1, r, act, it.lanes, AccessKind::Read);
    if (o.readsDst) map(mem, dst, r, act, it.lanes, AccessKind::Read);
    vd = map(mem, dst, r, act, it.lanes, AccessKind::Write);
    for (int e = 0; e < it.lanes; ++e) {
      if (!act[e]) continue;
      ++lanesDone;
      uint32_t a = o.sources >= 1 ? loadBits(v0.lane(e), es) : 0;
      uint32_t b = o.sources == 2 ? loadBits(v1.lane(e), es) : o.scalar;
      uint32_t d = o.readsDst ? loadBits(vd.lane(e), es) : 0;
      out[e] = o(a, b, d);
    }
    for (int e = 0; e < it.lanes; ++e) {
      if (act[e]) storeBits(vd.lane(e), es, out[e]);
    }
  }
  return Work::vector(it.repeats, lanesDone);
}

Work conversion(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  int ss = dtypeSize(inst.type), ds = dtypeSize(inst.type2);
  Iteration it = iteration(in, isa::kRepeatBytes / (ss > ds ? ss : ds));
  Operand dst{in.address(inst.dst), inst.dstBlk, inst.dstRep, ds};
  Operand src{in.address(inst.src0), inst.src0Blk, inst.src0Rep, ss};
  RoundMode mode = static_cast<RoundMode>(inst.mode);
  uint64_t lanesDone = 0;
  std::array<uint32_t, 128> out{};
  for (uint64_t r = 0; r < it.repeats; ++r) {
    Lanes act = it.active(r);
    if (act.none()) continue;
    if (mem.sanitizing()) checkOverlap(dst, src, r, act, it.lanes, "src0");
    View vs = map(mem, src, r, act, it.lanes, AccessKind::Read);
    View vd = map(mem, dst, r, act, it.lanes, AccessKind::Write);
    for (int e = 0; e < it.lanes; ++e) {
      if (act[e]) out[e] = convertValue(inst.type, inst.type2, mode, loadBits(vs.lane(e), ss));
    }
    for (int e = 0; e < it.lanes; ++e) {
      if (act[e]) {
        storeBits(vd.lane(e), ds, out[e]);
        ++lanesDone;
      }
    }
  }
  return Work::vector(it.repeats, lanesDone);
}

bool compare(isa::CmpMode mode, double a, double b) {
  switch (mode) {
    case isa::CmpMode::EQ: return a == b;
    case isa::CmpMode::NE: return a != b;
    case isa::CmpMode::LT: return a < b;
    case isa::CmpMode::LE: return a <= b;
    case isa::CmpMode::GT: return a > b;
    case isa::CmpMode::GE: return a >= b;
  }
  return false;
}

double laneValue(DType t, uint32_t bits) {
  return t == DType::Int32 ? static_cast<double>(static_cast<int32_t>(bits)) : bitsAsFloat(t, bits);
}

Work comparison(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  int es = dtypeSize(inst.type);
  Iteration it = iteration(in, isa::kRepeatBytes / es);
  Operand s0{in.address(inst.src0), inst.src0Blk, inst.src0Rep, es};
  Operand s1{in.address(inst.src1), inst.src1Blk, inst.src1Rep, es};
  uint64_t dst = in.address(inst.dst);
  int bytes = it.lanes / 8;
  uint64_t lanesDone = 0;
  for (uint64_t r = 0; r < it.repeats; ++r) {
    Lanes act = it.active(r);
    std::array<uint8_t, 16> bits{};
    if (act.any()) {
      View v0 = map(mem, s0, r, act, it.lanes, AccessKind::Read);
      View v1 = map(mem, s1, r, act, it.lanes, AccessKind::Read);
      for (int e = 0; e < it.lanes; ++e) {
        if (!act[e]) continue;
        ++lanesDone;
        if (compare(static_cast<isa::CmpMode>(inst.mode), laneValue(inst.type, loadBits(v0.lane(e), es)),
                    laneValue(inst.type, loadBits(v1.lane(e), es)))) {
          bits[e / 8] |= static_cast<uint8_t>(1u << (e % 8));
        }
      }
    }
    std::memcpy(mem.write(isa::Space::UB, dst + r * bytes, bytes), bits.data(), bytes);
  }
  return Work::vector(it.repeats, lanesDone);
}

Work selection(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  int es = dtypeSize(inst.type);
  Iteration it = iteration(in, isa::kRepeatBytes / es);
  Operand dst{in.address(inst.dst), inst.dstBlk, inst.dstRep, es};
  Operand s0{in.address(inst.src0), inst.src0Blk, inst.src0Rep, es};
  Operand s1{in.address(inst.src1), inst.src1Blk, inst.src1Rep, es};
  uint64_t sel = in.address(inst.src2);
  int bytes = it.lanes / 8;
  uint64_t lanesDone = 0;
  std::array<uint32_t, 128> out{};
  for (uint64_t r = 0; r < it.repeats; ++r) {
    Lanes act = it.active(r);
    if (act.none()) continue;
    if (mem.sanitizing()) {
      checkOverlap(dst, s0, r, act, it.lanes, "src0");
      checkOverlap(dst, s1, r, act, it.lanes, "src1");
    }
    const uint8_t* bits = mem.read(isa::Space::UB, sel + r * bytes, bytes);
    View v0 = map(mem, s0, r, act, it.lanes, AccessKind::Read);
    View v1 = map(mem, s1, r, act, it.lanes, AccessKind::Read);
    View vd = map(mem, dst, r, act, it.lanes, AccessKind::Write);
    for (int e = 0; e < it.lanes; ++e) {
      if (!act[e]) continue;
      bool pick0 = (bits[e / 8] >> (e % 8)) & 1;
      out[e] = loadBits(pick0 ? v0.lane(e) : v1.lane(e), es);
    }
    for (int e = 0; e < it.lanes; ++e) {
      if (act[e]) {
        storeBits(vd.lane(e), es, out[e]);
        ++lanesDone;
      }
    }
  }
  return Work::vector(it.repeats, lanesDone);
}

// vcadd: balanced pairwise tree over all lanes (inactive lanes are 0), each sum rounded to T.
uint32_t pairwiseSum(DType t, std::array<uint32_t, 128> v, int lanes) {
  for (int n = lanes; n > 1; n /= 2) {
    for (int i = 0; i < n / 2; ++i) {
      uint32_t a = v[2 * i], b = v[2 * i + 1];
      v[i] = t == DType::Int32 ? a + b : floatBits(t, bitsAsFloat(t, a) + bitsAsFloat(t, b));
    }
  }
  return v[0];
}

Work reduction(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  DType t = inst.type;
  int es = dtypeSize(t);
  Iteration it = iteration(in, isa::kRepeatBytes / es);
  Operand src{in.address(inst.src0), inst.src0Blk, inst.src0Rep, es};
  uint64_t dst = in.address(inst.dst);
  bool withIndex = inst.op != Opcode::VCAdd && inst.mode == 1;
  bool isMax = inst.op == Opcode::VCMax;
  uint64_t lanesDone = 0;
  for (uint64_t r = 0; r < it.repeats; ++r) {
    Lanes act = it.active(r);
    if (act.none()) continue;
    View v = map(mem, src, r, act, it.lanes, AccessKind::Read);
    std::array<uint32_t, 128> vals{};
    int first = -1;
    for (int e = 0; e < it.lanes; ++e) {
      if (!act[e]) continue;
      ++lanesDone;
      vals[e] = loadBits(v.lane(e), es);
      if (first < 0) first = e;
    }
    uint32_t result;
    uint32_t index = static_cast<uint32_t>(first);
    if (inst.op == Opcode::VCAdd) {
      result = pairwiseSum(t, vals, it.lanes);
    } else {
      result = vals[first];
      for (int e = first + 1; e < it.lanes; ++e) {
        if (!act[e]) continue;
        double best = laneValue(t, result), x = laneValue(t, vals[e]);
        if (std::isnan(best)) break;
        if (std::isnan(x) || (isMax ? x > best : x < best)) {
          result = vals[e];
          index = static_cast<uint32_t>(e);
        }
      }
    }
    uint8_t* p = mem.write(isa::Space::UB, dst + r * inst.dstRep * es, withIndex ? 2 * es : es);
    storeBits(p, es, result);
    if (withIndex) storeBits(p + es, es, index);
  }
  return Work::vector(it.repeats, lanesDone);
}

Work transpose(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  uint64_t src = in.address(inst.src0), dst = in.address(inst.dst);
  constexpr int kBytes = 16 * 16 * 2;
  std::array<uint16_t, 256> tile{};
  for (uint64_t r = 0; r < inst.repeat; ++r) {
    const uint8_t* s = mem.read(isa::Space::UB, src + r * inst.src0Rep * isa::kBlockBytes, kBytes);
    std::array<uint16_t, 256> in16;
    std::memcpy(in16.data(), s, kBytes);
    for (int i = 0; i < 16; ++i) {
      for (int j = 0; j < 16; ++j) tile[j * 16 + i] = in16[i * 16 + j];
    }
    std::memcpy(mem.write(isa::Space::UB, dst + r * inst.dstRep * isa::kBlockBytes, kBytes), tile.data(), kBytes);
  }
  return Work::vector(inst.repeat, static_cast<uint64_t>(inst.repeat) * 256);
}

}  // namespace

Work runVector(const IssuedInstruction& in, CoreMemory& mem) {
  const isa::Instruction& inst = *in.inst;
  mem.requireAligned(isa::Space::UB, in.address(inst.dst));
  switch (opcodeEntry(inst.op).format) {
    case isa::Format::VConv:
      mem.requireAligned(isa::Space::UB, in.address(inst.src0));
      return conversion(in, mem);
    case isa::Format::VCmp:
      mem.requireAligned(isa::Space::UB, in.address(inst.src0));
      mem.requireAligned(isa::Space::UB, in.address(inst.src1));
      return comparison(in, mem);
    case isa::Format::VSelect:
      mem.requireAligned(isa::Space::UB, in.address(inst.src0));
      mem.requireAligned(isa::Space::UB, in.address(inst.src1));
      mem.requireAligned(isa::Space::UB, in.address(inst.src2));
      return selection(in, mem);
    case isa::Format::VReduce:
      mem.requireAligned(isa::Space::UB, in.address(inst.src0));
      return reduction(in, mem);
    case isa::Format::VTranspose:
      mem.requireAligned(isa::Space::UB, in.address(inst.src0));
      return transpose(in, mem);
    case isa::Format::VBinary:
      mem.requireAligned(isa::Space::UB, in.address(inst.src1));
      [[fallthrough]];
    case isa::Format::VScalar:
    case isa::Format::VUnary:
      mem.requireAligned(isa::Space::UB, in.address(inst.src0));
      [[fallthrough]];
    default:
      return elementwise(in, mem);
  }
}

}  // namespace pyasc::sim
