// Lowers softmax, log-softmax and layer norm along the last axis of [rows, cols] to one fused
// kernel: each tile of rows is read once, reduced (max and sum of exp, or mean and variance) and
// normalised in UB, and written once.
#pragma once

#include <string>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

enum class RowNorm : uint8_t { Softmax, LogSoftmax, LayerNorm };

struct SoftmaxCompute {
  std::string name;
  RowNorm kind = RowNorm::Softmax;
  double epsilon = 1e-5;  // layer norm: added to the variance
  DType dtype = DType::Float32;
  int64_t rows = 1, cols = 1;
  int sourceLine = 0;
};

// Why the fused kernel does not take rows of `compute.cols` elements on `target`, empty when it
// does: one row's buffers must fit UB, and a layer norm's row be at most 16 KB. The one answer to
// "is this row the fused kernel's?": expand-composites keeps a node whole by it, the row-norm
// template accepts by it, the solver schedules by it.
std::string rowKernelRefusal(const SoftmaxCompute& compute, const Target& target);
constexpr int64_t kMaxLayerNormRowBytes = 16 * 1024;

struct SoftmaxSchedule {
  int64_t rowsPerTile = 0;  // 0: the kernel does not take the rows (rowKernelRefusal)
  int blockDim = 1;
  std::string str() const;
};

SoftmaxSchedule scheduleSoftmax(const SoftmaxCompute& compute, const Target& target, int maxCores);
// The schedule of `rows` rows per tile on `blockDim` cores, checked against UB and the core count;
// a CompileError at `where` (else the kernel's source line) names what does not fit.
SoftmaxSchedule softmaxSchedule(const SoftmaxCompute& compute, const Target& target, int64_t rows, int blockDim,
                                int maxCores, const SourceLocation& where);
// Kernel arguments: input, output; for layer norm input, gamma [cols], beta [cols], output.
KernelCode lowerSoftmax(const SoftmaxCompute& compute, const SoftmaxSchedule& schedule, const Target& target);

}  // namespace pyasc::codegen
