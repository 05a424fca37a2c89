// What an executed instruction did, in the units the timing and energy models charge for.
#pragma once

#include <cstdint>

#include "sdk/support/DType.h"
#include "sdk/target/Target.h"

namespace pyasc::sim {

struct Work {
  enum class Kind : uint8_t { Instant, Vector, Transfer, Cube };
  Kind kind = Kind::Instant;
  // Vector: repeats run, the instruction's cost kind, active lanes computed.
  uint64_t repeats = 0;
  isa::VectorCost cost = isa::VectorCost::Unary;  // set from the opcode by the core
  uint64_t lanes = 0;
  // Transfer: bytes moved on a path; on a path to or from GM, the GM side's bursts: `bursts`
  // of `burstBytes` each, `gmPitch` bytes apart from `gmAddr`.
  DmaPath path = DmaPath::GmToUb;
  uint64_t bytes = 0;
  uint64_t gmAddr = 0, bursts = 0, burstBytes = 0, gmPitch = 0;
  // Cube: matrix sizes and input type.
  uint64_t m = 0, n = 0, k = 0;
  DType cubeType = DType::Float16;

  static Work vector(uint64_t repeats, uint64_t lanes) {
    Work w;
    w.kind = Kind::Vector;
    w.repeats = repeats;
    w.lanes = lanes;
    return w;
  }
  static Work transfer(DmaPath path, uint64_t bytes) {
    Work w;
    w.kind = Kind::Transfer;
    w.path = path;
    w.bytes = bytes;
    return w;
  }
  static Work gmTransfer(DmaPath path, uint64_t gmAddr, uint64_t bursts, uint64_t burstBytes, uint64_t gmPitch) {
    Work w = transfer(path, bursts * burstBytes);
    w.gmAddr = gmAddr;
    w.bursts = bursts;
    w.burstBytes = burstBytes;
    w.gmPitch = gmPitch;
    return w;
  }
  static Work cube(uint64_t m, uint64_t n, uint64_t k, DType type) {
    Work w;
    w.kind = Kind::Cube;
    w.m = m;
    w.n = n;
    w.k = k;
    w.cubeType = type;
    return w;
  }
};

}  // namespace pyasc::sim
