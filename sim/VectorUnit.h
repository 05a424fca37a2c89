// The vector unit: every V-pipe instruction on UB operands (repeats, masks, block/repeat strides).
#pragma once

#include "sim/CoreMemory.h"
#include "sim/IssuedInstruction.h"
#include "sim/Work.h"

namespace pyasc::sim {

// Runs one vector instruction (formats VBinary .. VTranspose) and reports the work done.
Work runVector(const IssuedInstruction& in, CoreMemory& mem);

// Tests: false runs every instruction through the general per-repeat path, to compare the bulk
// loops against it bit for bit (on by default).
void setVectorFastPaths(bool enabled);

}  // namespace pyasc::sim
