// The vector unit: every V-pipe instruction on UB operands (repeats, masks, block/repeat strides).
#pragma once

#include "sim/CoreMemory.h"
#include "sim/IssuedInstruction.h"
#include "sim/Work.h"

namespace pyasc::sim {

// Runs one vector instruction (formats VBinary .. VTranspose) and reports the work done.
Work runVector(const IssuedInstruction& in, CoreMemory& mem);

}  // namespace pyasc::sim
