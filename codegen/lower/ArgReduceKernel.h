// Lowers argmax/argmin over the middle axis of [outer, reduce, inner]: rows of the last axis
// (inner 1) on the vector unit, other axes on the scalar unit; indices are written as int64.
#pragma once

#include <string>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

struct ArgReduceCompute {
  std::string name;
  bool argmin = false;
  DType dtype = DType::Float32;  // float16 or float32 input
  int64_t outer = 1, reduce = 1, inner = 1;
  int sourceLine = 0;
  DType indexType = DType::Int64;  // the indices written: int64, or int32
};

// Kernel arguments: input, output (indexType). The first extreme wins, as in NumPy.
KernelCode lowerArgReduce(const ArgReduceCompute& compute, const Target& target, int maxCores);

}  // namespace pyasc::codegen
