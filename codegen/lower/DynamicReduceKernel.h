// Lowers a float32 reduction of [outer, reduce, inner] whose outer and reduce extents are bound at
// launch (pyasc --dynamic-dims) to one or two vector kernels that loop over them at run time.
#pragma once

#include <string>

#include "codegen/emit/KernelBuilder.h"
#include "codegen/lower/ReduceKernel.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

// Sum, mean, maximum or minimum of float32 [outer, reduce, inner] over `reduce`: outer and reduce
// are the largest extents, inner (static) divides a repeat's 64 lanes. A float16 result
// (halfResult) is the float32 one rounded.
struct DynamicReduceCompute {
  std::string name;
  ReduceKind kind = ReduceKind::Sum;
  bool halfResult = false;
  int64_t outer = 1, reduce = 1, inner = 1;
  int sourceLine = 0;
};

// Each image's `reduce` rows are cut into `parts` parts of ceil(reduce / parts) rows, one unit of
// work each, read in chunks of `chunkRows` rows through two UB buffers. With one part the kernel
// writes the result; with more it writes the parts' results, which a second kernel combines.
struct DynamicReducePlan {
  int64_t parts = 1, chunkRows = 1;
  int blockDim = 1;
};

// The scalar arguments of the first kernel: the units (outer · parts), the reduce extent and the
// rows of a part (ceil(reduce / parts)); of the second: outer and reduce.
enum class PartialScalar { Units, Reduce, PartRows, Count };
enum class CombineScalar { Outer, Reduce, Count };

// A CompileError at the compute's line when it is not one of these reductions.
DynamicReducePlan planDynamicReduce(const DynamicReduceCompute& compute, const Target& target, int maxCores);
// Arguments: input, output (or the parts' results [outer · parts, inner]), then PartialScalar.
KernelCode lowerDynamicReduceParts(const DynamicReduceCompute& compute, const DynamicReducePlan& plan, const Target& target);
// Arguments: the parts' results, output, then CombineScalar.
KernelCode lowerDynamicReduceCombine(const DynamicReduceCompute& compute, const DynamicReducePlan& plan,
                                     const Target& target);

}  // namespace pyasc::codegen
