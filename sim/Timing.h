// The timing model: cycles an instruction occupies its pipe, from the target's rates.
#pragma once

#include <cstdint>

#include "sdk/target/Target.h"
#include "sim/Work.h"

namespace pyasc::sim {

// vector: vectorStartup + repeats × vectorCyclesPerRepeat[kind];
// transfer between on-chip buffers: dmaLatency[path] + bytes / bandwidth (GM transfers are timed
// by the launch's MemorySystem);
// cube: cubeStartup + ⌈m/16⌉·⌈n/16⌉·⌈k/16⌉ / rate(type). Rounded up to whole cycles.
uint64_t workCycles(const Work& work, const Target& target);

}  // namespace pyasc::sim
