// The cube matmul template's launch, shared with the contraction template.
#pragma once

#include "codegen/templates/Lowering.h"

namespace pyasc::codegen {

// A CompileError at `n` unless both operands are float16, both float32 or both the same integer dtype.
void checkCubeTypes(const graph::Node& n, DType a, DType b);
// One cube launch: dst[batch][m×n] = a[batch][m×k] · b[batch or shared][k×n], with the node's
// explicit schedule when it has one; integers are summed exactly on the scalar unit instead. A
// FusedMatMul's epilogue reads its bias from storage `bias`. With `rows` (dynamic shapes), the rows
// of a and dst are that expression at run time, at most `m`.
void launchMatmul(const graph::Node& n, Lowering& l, int a, int b, int dst, int64_t batch, bool batchB, int64_t m,
                  int64_t k, int64_t nn, DType in, DType outType, std::vector<Step>& out, int bias = -1,
                  const ShapeExpr& rows = nullptr);

}  // namespace pyasc::codegen
