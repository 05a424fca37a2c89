// Stage insert-sync: the pipes run their queues independently, so every dependence between
// statements of different pipes (one writes a buffer range the other reads or writes) gets a flag:
// set on the producer's pipe after it, waited for on the consumer's pipe before it. A loop whose
// body is straight-line code also gets flags between its iterations: the first use of a local buffer
// on one pipe waits for its last use on another in the iteration before (a flag set once before the
// loop and waited for once after it), so that double-buffered sets overlap. Around a loop, an if or a
// nested block holding work of several pipes, every pipe is drained (pipe_barrier ALL), and a loop
// whose body is not straight-line is also drained after every iteration.
#pragma once

#include "sdk/loop/LoopNest.h"

namespace pyasc::codegen {

loop::Kernel insertSync(const loop::Kernel& k);

// The pipe a statement runs on: DMA by direction, vector statements on V, everything else (element
// loops, scalar loads) on S.
isa::Pipe statementPipe(const loop::Kernel& k, const loop::Stmt& s);

}  // namespace pyasc::codegen
