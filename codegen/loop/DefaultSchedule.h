// The schedule of a te.compute definition that gives none: the last output axis split into tiles
// that fit the target's UB and vectorized, every loop outside them fused into one loop spread
// over the vector cores. Written as primitives, so that it prints and replays like a hand schedule.
#pragma once

#include "sdk/target/Target.h"
#include "sdk/te/Compute.h"
#include "sdk/te/Schedule.h"

namespace pyasc::codegen {

te::Schedule defaultComputeSchedule(const te::ComputeDef& def, const Target& target);

// UB buffers of `tileElems` elements a vectorized tile of `def` needs: one per distinct input read,
// one for the result, one per intermediate value.
int computeTileBuffers(const te::ComputeDef& def);

}  // namespace pyasc::codegen
