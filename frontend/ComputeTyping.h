// Typing of te.compute element expressions as NumPy types them when python/te evaluates the same
// definition: axes are int32, Python numbers are weak (they take the other operand's dtype when
// it has their kind), arrays promote as np.promote_types; what would need float64 or int64 (which
// the NPU does not compute) is an error naming the cast to write.
#pragma once

#include <string>

#include "sdk/te/Compute.h"

namespace pyasc::frontend {

// An operand inside an element function: an expression, or a Python number not yet typed.
struct ComputeOperand {
  te::ComputeExpr expr;  // null for a number
  double number = 0;
  bool integral = false;  // the number was written as an int (or bool)
  static ComputeOperand of(te::ComputeExpr e) { return {std::move(e), 0, false}; }
  static ComputeOperand ofNumber(double v, bool integral) { return {nullptr, v, integral}; }
};

// Python's binary operator `op` (+ - * / // % < <= > >= == != & |) on two operands; on error
// returns null and sets `error` to a one-line message.
te::ComputeExpr computeBinary(const std::string& op, const ComputeOperand& a, const ComputeOperand& b,
                              std::string& error);
// te.min / te.max of two operands (binary form), typed like `+`.
te::ComputeExpr computeMinMax(bool max, const ComputeOperand& a, const ComputeOperand& b, std::string& error);
// te.if_then_else(cond, a, b): cond bool, the branches typed like `+`.
te::ComputeExpr computeSelect(const ComputeOperand& cond, const ComputeOperand& a, const ComputeOperand& b,
                              std::string& error);
// -x, ~x (bool not)
te::ComputeExpr computeUnary(const std::string& op, const ComputeOperand& a, std::string& error);
// An operand as an expression of its own dtype: a number becomes int32 or float32 (the NPU's
// defaults for a literal standing alone).
te::ComputeExpr computeExpr(const ComputeOperand& a);

}  // namespace pyasc::frontend
