// Lowers C[M×N] = A[M×K]·B[K×N] (optionally batched, B optionally transposed) to a cube kernel:
// GM→L1 panels, L1→L0A/L0B fractal loads, mmad with K accumulation, L0C→GM fixpipe (or, with an
// epilogue, L0C→UB chunks that the vector unit finishes and MTE3 writes).
#pragma once

#include <string>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

// What the kernel applies to the accumulator before writing (FusedMatMul): a row of n (float32,
// or float16 converted once per tile) added to every row, then max(·, 0). Either makes the result
// pass through UB in column chunks.
struct MatmulEpilogue {
  bool bias = false, relu = false;
  DType biasType = DType::Float32;
  bool any() const { return bias || relu; }
};

struct MatmulCompute {
  std::string name;
  int64_t batch = 1;  // A, B and C each hold `batch` matrices back to back (B may be shared)
  int64_t m = 0, k = 0, n = 0;
  bool transB = false;      // B is stored N×K
  bool batchB = true;       // false: one B shared by every batch
  DType inType = DType::Float16;   // A and B
  DType outType = DType::Float32;  // C
  MatmulEpilogue epilogue;         // float results only
  // Dynamic shapes: A's rows (and C's) at run time, at most `m` (batch 1, one tile of rows), from the
  // kernel's last scalar argument.
  bool dynamicRows = false;
  int sourceLine = 0;
};

// Tile sizes and buffering: plain data, printable.
struct MatmulSchedule {
  int64_t tm = 0, tn = 0, tk = 0;  // output tile rows/cols, K chunk
  int l0cBuffers = 1;
  int blockDim = 1;
  double estimatedCyclesPerStep = 0;
  std::string str() const;
};

// Enumerates tiles that fit L1, L0A, L0B and L0C (double-buffered where they fit) and keeps the one
// with the best modelled throughput. Throws CompileError when nothing fits.
MatmulSchedule scheduleMatmul(const MatmulCompute& compute, const Target& target, int maxCores);
// The schedule of a given tile and core count, checked like the solver's candidates; a CompileError
// at `where` (else the kernel's source line) names the buffer that cannot hold the tile.
MatmulSchedule matmulSchedule(const MatmulCompute& compute, const Target& target, int64_t tm, int64_t tn, int64_t tk,
                              int blockDim, int maxCores, const SourceLocation& where);
// Kernel arguments: A, B, C, then the bias with the epilogue's, then (dynamicRows) the row count.
KernelCode lowerMatmul(const MatmulCompute& compute, const MatmulSchedule& schedule, const Target& target);

}  // namespace pyasc::codegen
