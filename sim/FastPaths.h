// The switch for the simulator's bulk paths (contiguous vector instructions, float16 mmad).
#pragma once

namespace pyasc::sim {

// On by default. Tests turn it off to run every instruction through the general per-lane paths
// and compare the bulk ones with them bit for bit.
void setFastPaths(bool enabled);
bool fastPaths();

}  // namespace pyasc::sim
