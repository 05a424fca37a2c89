// Energy = operations × per-operation cost + bytes × per-byte cost of the memory touched.
#include "sim/Energy.h"

namespace pyasc::sim {

double computeEnergy(const Work& work, const Target& target) {
  if (work.kind == Work::Kind::Vector) {
    return static_cast<double>(work.repeats) * isa::kRepeatBytes * target.energyPerVectorByte;
  }
  if (work.kind == Work::Kind::Cube) {
    double scale = work.cubeType == DType::Int8 ? 0.5 : work.cubeType == DType::Float32 ? 4.0 : 1.0;
    return static_cast<double>(work.m * work.n * work.k) * target.energyPerMacF16 * scale;
  }
  return 0;
}

double trafficEnergy(const std::array<uint64_t, isa::kSpaceCount>& bytes, const Target& target) {
  double e = 0;
  for (int s = 0; s < isa::kSpaceCount; ++s) e += static_cast<double>(bytes[s]) * target.energyPerByte[s];
  return e;
}

}  // namespace pyasc::sim
