// The cube kernel of a te.compute contraction, for the te.compute template (and tests).
#pragma once

#include <optional>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/target/Target.h"
#include "sdk/te/Compute.h"

namespace pyasc::codegen {

// A te.compute on the cube: its kernel (arguments A, B, the output) and which of its inputs are A and B.
struct CubeKernel {
  KernelCode code;
  int a = 0, b = 0;
};

// The kernel of `def` when it is a contraction (te.sum(a[i, k] * b[k, j], axis=k), or b[j, k]) without
// a schedule: the matmul template's pipeline, its tiling solver's tiles (`cores` cube cores at most);
// nullopt otherwise.
std::optional<CubeKernel> tensorizedKernel(const te::ComputeDef& def, const Target& target, int sourceLine, int cores);

}  // namespace pyasc::codegen
