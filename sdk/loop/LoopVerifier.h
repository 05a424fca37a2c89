// Checks of the loop-nest IR's invariants, for every pass's output and for parsed text.
#pragma once

#include <string>

#include "sdk/loop/LoopNest.h"

namespace pyasc::loop {

// "" when `k` is well formed, else the first problem found:
// variables used only inside the loops that define them, each loop variable defined once; buffer
// references in range, element types as stores, loads and copies need them; integer indices and
// extents; inputs never written; vectorized loops holding only stores; no cores loop inside another.
std::string verifyKernel(const Kernel& k);

}  // namespace pyasc::loop
