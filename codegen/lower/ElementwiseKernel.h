// Lowers a fused elementwise compute (TE expressions over same-shape and scalar inputs) to a
// multi-core GM→UB→vector→GM kernel with rotating UB buffer sets.
#pragma once

#include <string>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "codegen/lower/TileExpressions.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"
#include "sdk/te/Expr.h"

namespace pyasc::codegen {

// Whether a row of `period` elements of `dtype` can be broadcast inside an elementwise kernel: whole
// 32-byte blocks, and tiles of a common multiple of the row and 256 elements small enough for UB.
bool rowBroadcastFits(int64_t period, DType dtype);
// Whether each element of a column can be stretched over rows of `stretch` elements inside an
// elementwise kernel: rows of whole vector repeats' worth, 32-byte aligned, short enough for a tile.
bool columnBroadcastFits(int64_t stretch, DType dtype);

struct ElementwiseCompute;
// Whether one buffer set of tiles of the compute's granule (256 elements and every broadcast row's
// period) fits UB: a long row or column operand with many live values can need more.
bool granuleFitsUb(const ElementwiseCompute& c, const Target& target);

struct ElementwiseCompute {
  std::string name;
  std::vector<ElementwiseInput> inputs;  // placeholder i refers to inputs[i]
  std::vector<te::ExprPtr> outputs;      // each produces `count` elements
  int64_t count = 0;
  // Dynamic shapes: the kernel takes its element count (at most `count`, which the schedule is
  // chosen for) as its last scalar argument.
  bool dynamicCount = false;
  int sourceLine = 0;
};

// The schedule chosen for an elementwise compute: plain data, printable.
struct ElementwiseSchedule {
  int64_t tileElems = 0;   // elements per UB tile
  int blockDim = 1;        // cores
  int bufferSets = 4;      // UB buffer sets in rotation: loads run bufferSets-1 tiles ahead (1: none)
  int slotsPerSet = 0;     // UB tile buffers per set
  int persistentSlots = 0; // constant tiles materialised once
  int64_t slotBytes = 0;
  std::string str() const;
};

// Chooses tile size, buffer sets and core count so that every buffer fits the target's UB;
// without `doubleBuffer` one set, so that loads, compute and stores do not overlap.
ElementwiseSchedule scheduleElementwise(const ElementwiseCompute& compute, const Target& target, bool doubleBuffer,
                                        int maxCores);
// The schedule of given tile size, buffer sets and cores, checked against UB and the core count;
// a CompileError at `where` (else the kernel's source line) names what does not fit.
ElementwiseSchedule elementwiseSchedule(const ElementwiseCompute& compute, const Target& target, int64_t tileElems,
                                        int sets, int blockDim, int maxCores, const SourceLocation& where);
// Kernel arguments: GM inputs in order, then outputs, then the by-value scalars in input order, then
// (dynamic shapes) the element count.
KernelCode lowerElementwise(const ElementwiseCompute& compute, const ElementwiseSchedule& schedule,
                            const Target& target);

}  // namespace pyasc::codegen
