// te.compute definitions (the Compute operator of custom operators) as Halide functions.
#pragma once

#include <string>
#include <vector>

#include "cpu/LowerNode.h"
#include "sdk/te/Compute.h"

namespace pyasc::cpu {

// The function `def` defines over `inputs` (its in0, in1, ...): one Halide variable per output axis,
// a reduction domain per reduction, loads clamped into their tensors (a definition guards the loads
// it selects away), float16 operations rounded as the vector unit rounds them.
Lowered computeToHalide(const std::string& name, const te::ComputeDef& def, const std::vector<Lowered>& inputs,
                        const graph::TensorType& outType);

}  // namespace pyasc::cpu
