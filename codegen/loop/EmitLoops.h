// Stage emit-loops: a loop nest whose statements are all machine statements (DMA, vector, sync,
// element copies on the scalar unit) becomes a kernel's instructions. Loops count in scalar
// registers (a cores loop reads block_idx), index expressions are computed on the scalar unit
// (// and % by positive constants), addresses are a buffer's base plus its offset.
#pragma once

#include "codegen/emit/KernelBuilder.h"
#include "sdk/loop/LoopNest.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

KernelCode emitLoops(const loop::Kernel& k, int sourceLine, const SourceLocation& where);

}  // namespace pyasc::codegen
