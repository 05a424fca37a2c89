// Stage double-buffer: a pipelined loop of N buffer sets is unrolled N times, each copy of its body
// on its own set of the local buffers every iteration writes before it reads (staged operands,
// temporaries, result tiles), so that while one set computes the next one loads; the iterations
// that do not fill a round run after the loop. Buffers an iteration carries to the next (a
// reduction's accumulator) stay shared. insert-sync then synchronises the sets: by flags when the
// body is straight-line code, by draining the pipes each iteration when it holds conditions.
#pragma once

#include "sdk/loop/LoopNest.h"

namespace pyasc::codegen {

loop::Kernel doubleBuffer(const loop::Kernel& k);

}  // namespace pyasc::codegen
