// Runs a loop nest on the host in float64 (integers exact): the reference every lowering stage is
// checked against. Cores loops run one core after another, pipelined loops one iteration
// after another; DMA moves elements, vector statements compute per element (their ops by mnemonic).
#pragma once

#include <string>
#include <vector>

#include "sdk/loop/LoopNest.h"

namespace pyasc::loop {

// `params` holds the inputs' then the outputs' elements (row-major), in buffer order; outputs are
// updated in place. Throws std::runtime_error naming the statement on an out-of-range access.
void interpretKernel(const Kernel& k, std::vector<std::vector<double>>& params);

}  // namespace pyasc::loop
