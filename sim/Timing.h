// The timing model: cycles an instruction occupies its pipe, from the target's rates.
#pragma once

#include <cstdint>

#include "sdk/target/Target.h"
#include "sim/Work.h"

namespace pyasc::sim {

// vector: vectorStartup + repeats × vectorCyclesPerRepeat (× vectorTranscendentalFactor);
// transfer: dmaLatency[path] + bytes / bandwidth, GM paths sharing gmTotalBandwidth over blockDim;
// cube: cubeStartup + ⌈m/16⌉·⌈n/16⌉·⌈k/16⌉ / rate(type). Rounded up to whole cycles.
uint64_t workCycles(const Work& work, const Target& target, int blockDim);

}  // namespace pyasc::sim
