// The energy model: picojoules for computation and for bytes moved through each memory.
#pragma once

#include <array>
#include <cstdint>

#include "sdk/target/Target.h"
#include "sim/Work.h"

namespace pyasc::sim {

// Compute energy of one instruction: energyPerMacF16 per MAC (s8 at half, f32 at four times the
// f16 cost), energyPerVectorByte per byte of every repeat processed.
double computeEnergy(const Work& work, const Target& target);
// Memory energy: energyPerByte[space] for every byte read or written in that space.
double trafficEnergy(const std::array<uint64_t, isa::kSpaceCount>& bytes, const Target& target);

}  // namespace pyasc::sim
