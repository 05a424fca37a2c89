// The memory transfer engines: DMA copies (MTE2, MTE3, MTE1 and V's UB copy), fractal loads
// into L0A/L0B and img2col (MTE1).
#pragma once

#include "sim/CoreMemory.h"
#include "sim/IssuedInstruction.h"
#include "sim/Work.h"

namespace pyasc::sim {

// Runs one Dma, LoadFractal or Img2Col instruction and reports the bytes moved.
Work runTransfer(const IssuedInstruction& in, CoreMemory& mem);
// Orders the non-temporal stores of copies into GM before whatever this thread does next, so that
// other threads see them: called once a launch has ended.
void drainStreamedStores();

}  // namespace pyasc::sim
