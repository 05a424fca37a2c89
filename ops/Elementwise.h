// Elementwise operators as TE compute: each registry operator of the elementwise family becomes an
// expression over te.lang.cce primitives, with a float64 reference for table-driven tests.
#pragma once

#include <string>
#include <vector>

#include "sdk/graph/Graph.h"
#include "sdk/te/Expr.h"

namespace pyasc::ops {

// Data types the vector unit computes in.
bool isVectorDType(DType t);

// `e` converted to `to`: bool values are lane bits, so bool→number selects 1/0 and number→bool
// compares with 0.
te::ExprPtr castTo(const te::ExprPtr& e, DType to);

// The compute of `node` (a registry operator) over `args`, producing `outType`; nullptr with
// `error` set when the operator has no vector lowering.
te::ExprPtr elementwiseExpr(const graph::Node& node, const std::vector<te::ExprPtr>& args, DType outType,
                            std::string& error);

// Whether `op` is lowered by elementwiseExpr.
bool isElementwiseOp(const std::string& op);
// Whether an integer power by `exponent` has a vector lowering (products by squaring): a constant
// integer in 0..1024.
bool isVectorIntegerExponent(double exponent);
// The bitwise operators (&, |, ^, ~, <<, >>): logical on booleans, and on integers without vector
// instructions.
bool isBitwise(const std::string& op);
std::vector<std::string> elementwiseOpNames();  // sorted

// NumPy's result for one element (float64 arithmetic), for differential tests.
double elementwiseReference(const graph::Node& node, const std::vector<double>& args);

}  // namespace pyasc::ops
