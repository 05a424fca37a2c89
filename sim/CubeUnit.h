// The cube unit (mmad on L0A/L0B into L0C) and the fixpipe that drains L0C to UB or GM.
#pragma once

#include "sim/CoreMemory.h"
#include "sim/IssuedInstruction.h"
#include "sim/Work.h"

namespace pyasc::sim {

Work runMmad(const IssuedInstruction& in, CoreMemory& mem);
Work runFixpipe(const IssuedInstruction& in, CoreMemory& mem);

}  // namespace pyasc::sim
