// Durations per work kind: vector repeats by kind, local transfers, cube fractal steps.
#include "sim/Timing.h"

#include <algorithm>
#include <cmath>

namespace pyasc::sim {

namespace {

uint64_t ceilCycles(double c) { return c <= 0 ? 0 : static_cast<uint64_t>(std::ceil(c - 1e-9)); }

double cubeRate(DType t, const Target& target) {
  switch (t) {
    case DType::Int8: return target.cubeRateS8;
    case DType::Float32: return target.cubeRateF32;
    default: return target.cubeRateF16;
  }
}

}  // namespace

uint64_t workCycles(const Work& work, const Target& target) {
  switch (work.kind) {
    case Work::Kind::Instant: return 0;
    case Work::Kind::Vector: return vectorInstructionCycles(target, work.repeats, work.cost);
    case Work::Kind::Transfer: {
      if (work.bytes == 0) return 0;
      double bw = target.bw(work.path);
      uint64_t latency = static_cast<uint64_t>(target.dmaLatency[static_cast<int>(work.path)]);
      return latency + ceilCycles(static_cast<double>(work.bytes) / bw);
    }
    case Work::Kind::Cube: {
      double steps = static_cast<double>(((work.m + 15) / 16) * ((work.n + 15) / 16) * ((work.k + 15) / 16));
      double rate = cubeRate(work.cubeType, target);
      return static_cast<uint64_t>(target.cubeStartup) + ceilCycles(rate > 0 ? steps / rate : steps);
    }
  }
  return 0;
}

}  // namespace pyasc::sim
