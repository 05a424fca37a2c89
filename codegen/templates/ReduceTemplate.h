// The reduction template's fusion with elementwise work: a reduction of a fusion group's value
// computes the group's expression in its own kernel, tile by tile in UB, instead of reading the
// value from device memory (fuse-elementwise gives the reduction the group's hint at O2).
#pragma once

#include <vector>

#include "codegen/templates/ElementwiseTemplate.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

// Whether reduction `n` can compute an elementwise prologue of up to `slots` UB tiles per buffer
// set: a static float16 or float32 reduction over adjacent axes whose kernels fit UB with them.
bool reduceTakesPrologue(const Node& n, const graph::Graph& g, int slots, const Target& target);
// Lowers reduction `n` of a value `group` computes: one kernel computing the group's expression
// and reducing it (the group is cleared), or, when the kernel cannot read an operand as it is
// (elements of another size), the group's kernel and then the reduction.
void lowerReduceOfGroup(const Node& n, FusionGroup& group, Lowering& l, std::vector<Step>& out);

}  // namespace pyasc::codegen
