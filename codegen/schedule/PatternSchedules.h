// The pattern templates' schedules as primitive traces: each tiling solver's choice written as
// split/tile/bind/double_buffer/cache/vectorize/tensorize steps, and a trace (the solver's own, or
// one a custom operator's definition gives) replayed into the template's parameters, checked like
// the solver's own choices.
#pragma once

#include "codegen/lower/ConvKernel.h"
#include "codegen/lower/ElementwiseKernel.h"
#include "codegen/lower/MatmulKernel.h"
#include "codegen/lower/ReduceKernel.h"
#include "codegen/lower/SoftmaxKernel.h"
#include "sdk/te/Schedule.h"

namespace pyasc::codegen {

using te::Primitive;
using te::Schedule;
using te::ScheduleStep;

// Axes: elementwise kernels see one flat axis i0 over every element; reductions the kept rows i0
// and the reduced axis r0; matmuls the output rows i0, columns i1 and the contraction r0.
Schedule elementwiseTrace(const ElementwiseCompute& compute, const ElementwiseSchedule& schedule);
Schedule reduceTrace(const ReduceCompute& compute, const ReduceSchedule& schedule);
Schedule matmulTrace(const MatmulCompute& compute, const MatmulSchedule& schedule);
// Softmax rows like a reduction's; conv2d's output pixels i0 and channels i1 tiled, the window
// contraction r0 (taps × input channels) split, img2col into L1.
Schedule softmaxTrace(const SoftmaxCompute& compute, const SoftmaxSchedule& schedule);
Schedule conv2dTrace(const Conv2dCompute& compute, const Conv2dSchedule& schedule);

// Replays a trace: parameters a trace leaves out come from `fallback` (the solver's choice); a
// primitive the template cannot apply, or a value that does not fit, is a CompileError at the step.
ElementwiseSchedule replayElementwise(const Schedule& trace, const ElementwiseCompute& compute,
                                      const ElementwiseSchedule& fallback, const Target& target, int maxCores);
ReduceSchedule replayReduce(const Schedule& trace, const ReduceCompute& compute, const ReduceSchedule& fallback,
                            const Target& target, int maxCores);
MatmulSchedule replayMatmul(const Schedule& trace, const MatmulCompute& compute, const MatmulSchedule& fallback,
                            const Target& target, int maxCores);
SoftmaxSchedule replaySoftmax(const Schedule& trace, const SoftmaxCompute& compute, const SoftmaxSchedule& fallback,
                              const Target& target, int maxCores);

}  // namespace pyasc::codegen
