// Integer elementwise operators element by element on the scalar unit, whose registers are 64-bit:
// the exact int64 (int8, int16, uint8) arithmetic the vector unit (float16, float32, int32 lanes)
// has no lanes for, and the bitwise operators and integer powers it has no instructions for.
#pragma once

#include <string>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "codegen/lower/MatmulKernel.h"
#include "sdk/support/DType.h"

namespace pyasc::codegen {

// One operand of a scalar elementwise kernel: an array in GM (one element per position, or one
// element for all), a constant, or a scalar argument (a loop counter by value).
struct ScalarOperand {
  enum class Kind { Array, Element, Constant, Argument } kind = Kind::Array;
  DType dtype = DType::Int64;  // of the array's elements (bool stored as one byte)
  int64_t constant = 0;        // Constant: its value
};

struct ScalarCompute {
  std::string name;
  std::string op;  // a registry operator: Add, Sub, Mul, Maximum, Minimum, Neg, Abs, Square, Sign,
                   // Relu, Reciprocal, IsNan, IsInf, IsFinite, Where, the comparisons, the logical
                   // and bitwise operators,
                   // the shifts, Cast, FloorDiv, Mod, Clip, Pow
  std::vector<ScalarOperand> operands;
  DType outType = DType::Int64;
  int64_t count = 0;
  int sourceLine = 0;
};

// Whether `op` on these dtypes has a scalar-unit lowering; empty when it has, else why not.
std::string scalarRefusal(const std::string& op, const std::vector<DType>& inputs, DType out);

// The kernel: tensor arguments are the Array and Element operands in order, then the output;
// scalar arguments the Argument operands in order. Positions are split over `cores` cores.
KernelCode lowerScalarElementwise(const ScalarCompute& c, int cores);

// An int64 reduction of [outer, reduce, inner] to [outer, inner]: ReduceSum, ReduceProd (wrapping,
// as NumPy), ReduceMax, ReduceMin. Tensor arguments: the input, the output.
struct ScalarReduce {
  std::string name;
  std::string op;
  int64_t outer = 1, reduce = 1, inner = 1;
  int sourceLine = 0;
};
KernelCode lowerScalarReduce(const ScalarReduce& r, int cores);

// An integer matmul (`transB` false) of [batch, m, k] by [batch, k, n] (or [k, n] shared, without
// batchB) to [batch, m, n], each sum of products in a 64-bit register, wrapping as NumPy, stored as
// `outType` (its low bits). Tensor arguments: A, B, the output.
KernelCode lowerScalarMatMul(const MatmulCompute& mm, int cores);

}  // namespace pyasc::codegen
