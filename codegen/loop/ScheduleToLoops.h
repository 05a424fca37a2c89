// Stage schedule-to-loops: the loop nest of a te.compute definition under a schedule. Every axis
// (the output's, then the reduce axes) starts as one serial loop, outermost first; the schedule's
// loop primitives then transform the nest as Halide and TVM define them, and the body stores the
// output element, the inputs read by flat index. A te.compute attached to it (compute_at) is
// computed, with its region's default schedule for the target, at the start of the loop its
// compute_at step names. A tensorized tile of a contraction becomes cube statements.
// compute_inline (applied when a definition is read) is an error here.
#pragma once

#include "sdk/loop/LoopNest.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"
#include "sdk/te/Compute.h"
#include "sdk/te/Schedule.h"

namespace pyasc::codegen {

// Loop primitives:
//   split A F     A → A.o (outer) × A.i (F); with a remainder, the last tile is a loop of its own
//                 of the remainder's extent (so every loop keeps a constant extent).
//   tile A B FA FB  split A and B, then order A.o B.o A.i B.i.
//   fuse A B      adjacent loops A (outer) and B → one loop A.B.
//   reorder A...  these loops take the places they occupy, in the given order.
//   bind A C      A's iterations spread over C cores: core c runs c, c + C, ... (a cores loop,
//                 outermost).
//   unroll A, vectorize A (the innermost loop).
//   double_buffer N  the loop directly outside the vectorized one becomes pipelined over N buffer sets.
//   cache_read T UB, cache_write T UB  what stage-operands does for every GM tensor; L1, L0A, L0B, L0C
//                 what a tensorized tile does (an error elsewhere).
//   tensorize A mmad  the loops inside A (one each of rows, columns and the contraction of
//                 te.sum(a[i, k] * b[k, j], axis=k)) become, per chunk, DMAs of A and B into L1,
//                 load_l0a/load_l0b and mmad into L0C (the first chunk initialising it), the fixpipe
//                 to GM after the contraction's outer loop (directly outside A; double_buffer
//                 pipelines it).
//   compute_at T A  the attached te.compute T computed at the start of loop A's body (followed
//                 through later splits, binds and fuses; a vectorized loop: the loop outside it), over
//                 the region the loops inside read: per dimension, the span of an index linear in
//                 their variables (else the whole dimension), moved inside the tensor at its borders.
// An axis is named by its definition name (the lambda's parameter) or as s.axis(k) names it: i<k>,
// reduce axes r<k>. A primitive that cannot apply throws a CompileError at its step.
loop::Kernel scheduleToLoops(const te::ComputeDef& def, const te::Schedule& schedule, const Target& target,
                             const SourceLocation& where);

}  // namespace pyasc::codegen
