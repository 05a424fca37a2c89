// Pairwise folding of one UB row down to at most one repeat of lanes, the first step of every
// per-row reduction (sum, max, min) whose row is too long for a single instruction.
#pragma once

#include <cstdint>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/isa/ISA.h"

namespace pyasc::codegen {

// Folds the `count` elements of type `t` at UB `src` with `combine` (vadd, vmax, vmin) into
// `dst` (which may equal `src`): the odd tail onto the head, then halves, every address 32-byte
// aligned. Stops once at most `limit` elements remain (default: one repeat of lanes) and returns
// that n: the first n elements at `dst` reduce to the row's result.
int64_t foldRow(KernelBuilder& b, isa::Opcode combine, DType t, int64_t src, int64_t dst, int64_t count,
                int64_t limit = 0);

}  // namespace pyasc::codegen
