// Stage partition-loops: a loop whose whole body is a choice on a condition linear in its variable
// (the guard of cores that have one tile fewer, the shorter last tile of a split) becomes two loops,
// one over the iterations where the condition holds and one over the rest, so that the bodies the
// later stages see are straight-line code and loop extents say how many tiles each core runs.
#pragma once

#include "sdk/loop/LoopNest.h"

namespace pyasc::codegen {

loop::Kernel partitionLoops(const loop::Kernel& k);

}  // namespace pyasc::codegen
