// Stage insert-sync: the pipes run their queues independently, so every dependence between
// statements of different pipes (one writes a buffer range the other reads or writes) gets a flag:
// set on the producer's pipe after it, waited for on the consumer's pipe before it. Around a loop,
// an if or a nested block holding work of several pipes, every pipe is drained (pipe_barrier ALL),
// so that nothing crosses their boundaries or a loop's iterations unordered.
#pragma once

#include "sdk/loop/LoopNest.h"

namespace pyasc::codegen {

loop::Kernel insertSync(const loop::Kernel& k);

// The pipe a statement runs on: DMA by direction, vector statements on V, everything else (element
// loops, scalar loads) on S.
isa::Pipe statementPipe(const loop::Kernel& k, const loop::Stmt& s);

}  // namespace pyasc::codegen
