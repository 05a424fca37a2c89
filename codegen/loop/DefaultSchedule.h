// The schedule of a te.compute definition that gives none: the last output axis split into tiles
// that fit the target's UB and vectorized, every loop outside them fused into one loop spread
// over the vector cores, tiles double-buffered; reduce axes around the tile, or unrolled when the
// reduction has at most 32 points (a window's taps), or across the lanes when one reads a last
// dimension. Written as primitives, so that it prints and replays like a hand schedule.
#pragma once

#include "sdk/target/Target.h"
#include "sdk/te/Compute.h"
#include "sdk/te/Schedule.h"

namespace pyasc::codegen {

te::Schedule defaultComputeSchedule(const te::ComputeDef& def, const Target& target);

}  // namespace pyasc::codegen
