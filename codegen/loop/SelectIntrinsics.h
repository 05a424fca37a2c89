// Stage select-intrinsics: vectorized loops become the statements the machine has. A copy whose
// source and destination advance one element per lane becomes a DMA, a copy of one value into every
// lane a vector broadcast (vdup) of a scalar load, a clamped window a DMA with the lanes past its
// border patched, any other copy an element-by-element loop on the scalar unit; a computation over
// UB tiles becomes vector instructions, one per operation, through UB temporaries. An operation the
// vector unit lacks is a located error naming it.
#pragma once

#include "sdk/loop/LoopNest.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

loop::Kernel selectIntrinsics(const loop::Kernel& k, const SourceLocation& where);

}  // namespace pyasc::codegen
