// Stage stage-operands (cache_read and cache_write to UB): every vectorized loop storing into GM
// becomes three: copies of each distinct GM value it reads into a UB tile (one per value), the
// computation over those tiles into a UB result tile, and the copy of that tile into GM. Later
// stages choose how each copy moves (DMA, broadcast, element by element).
#pragma once

#include "sdk/loop/LoopNest.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

loop::Kernel stageOperands(const loop::Kernel& k, const SourceLocation& where);

}  // namespace pyasc::codegen
