// Lowers a reduction over the middle axis of [outer, reduce, inner] (inner = 1: rows) to a
// double-buffered vector kernel: lane-parallel accumulation then vcadd/vcmax/vcmin per row (a
// product folds its lanes with vmul), or a pairwise tree over rows when inner > 1.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "codegen/lower/TileExpressions.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

enum class ReduceKind { Sum, Mean, Max, Min, Prod };

// An elementwise prologue (fuse-elementwise at O2): the kernel reduces `value`, computed tile by
// tile in UB from inputs of its own, instead of reading its input from GM. Placeholder i reads
// inputs[i]: an array of the reduction's shape (loaded as the input would be, elements of the
// reduction's size), one element, a UB row repeated (`period`: `inner` elements, or `reduce` when
// inner is 1) or one value per UB row or per unit (`stretch`: the elements it covers).
struct ReducePrologue {
  std::vector<ElementwiseInput> inputs;
  te::ExprPtr value;
  SlotPlan plan;  // planSlots(inputs, {value})
};
std::shared_ptr<const ReducePrologue> makeReducePrologue(std::vector<ElementwiseInput> inputs, te::ExprPtr value);

struct ReduceCompute {
  std::string name;
  ReduceKind kind = ReduceKind::Sum;
  DType dtype = DType::Float32;  // float16, float32; int32 for sums (wrapping), max and min
  bool halfResult = false;  // a float32 reduction writes its result rounded to float16
  int64_t outer = 1, reduce = 1, inner = 1;
  // Where the input's units lie in GM: 0 is dense [outer, reduce, inner]. `columns` > 0 cuts one
  // slice [reduce, columns] (a single outer index) into outer units of `inner` columns: a unit's
  // rows lie `columns` elements apart and units `inner` apart (planReduceColumns).
  int64_t columns = 0;
  std::shared_ptr<const ReducePrologue> prologue;  // none: the kernel reduces its input
  int sourceLine = 0;
};

struct ReduceSchedule {
  int64_t unitsPerTile = 1;  // rows (inner = 1) or whole outer slices (inner > 1) per tile
  int64_t unitBytes = 0;     // UB bytes of one unit
  int blockDim = 1;
  std::string str() const;
};

// The vector instruction combining two partial results of `kind` element by element (vadd, vmax,
// vmin, vmul), and the one reducing a repeat's lanes to one (vcadd, vcmax, vcmin; not products).
isa::Opcode reduceCombineOp(ReduceKind kind);
isa::Opcode reduceLaneOp(ReduceKind kind);

// The extents of the stages that reduce `compute.reduce` (their product): one stage when a unit
// fits UB and the outer units keep the cores busy; otherwise [outer, m·k, inner] is reduced over m
// first (into [outer, k, inner], a unit that fits and, if possible, one per core) and k next.
// A mean of means over equal groups is the mean, so every stage keeps the kind.
std::vector<int64_t> planReduceStages(const ReduceCompute& compute, const Target& target, int maxCores);
// A single slice [reduce, inner] (outer 1) that would take stages, cut into units of columns
// instead: the narrowest whole 32-byte column blocks dividing inner that leave no more units than
// cores, the compute with `columns` set; none (columns 0) when that width does not fit UB, no width
// leaves few enough units, or inner is one block or less.
ReduceCompute planReduceColumns(const ReduceCompute& compute, const Target& target, int maxCores);
// Whether one unit (a row, or a slice of `reduce` rows of `inner` elements) fits UB double-buffered.
bool reduceUnitFits(const ReduceCompute& compute, int64_t reduce, const Target& target);
ReduceSchedule scheduleReduce(const ReduceCompute& compute, const Target& target, int maxCores);
// The schedule of `units` rows (or slices) per tile on `blockDim` cores, checked against UB and
// the core count; a CompileError at `where` (else the kernel's source line) names what does not fit.
ReduceSchedule reduceSchedule(const ReduceCompute& compute, const Target& target, int64_t units, int blockDim,
                              int maxCores, const SourceLocation& where);
// Kernel arguments: input, output; with a prologue its GM inputs in order, output, then its by-value
// scalars in input order.
KernelCode lowerReduce(const ReduceCompute& compute, const ReduceSchedule& schedule, const Target& target);

}  // namespace pyasc::codegen
