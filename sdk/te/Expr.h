// TE-style compute expressions: placeholders, constants and the te.lang.cce elementwise primitives.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sdk/support/DType.h"
#include "sdk/support/Float16.h"

namespace pyasc::te {

// One primitive per te.lang.cce elementwise function (the TBE DSL), plus placeholders and constants.
enum class Prim {
  Placeholder,  // input tensor `index`
  Const,        // scalar constant `value`
  VAdd, VSub, VMul, VDiv, VMax, VMin,   // tensor ⊕ tensor
  VAdds, VMuls, VMaxs, VMins,           // tensor ⊕ scalar `value`
  VExp, VLog, VAbs, VRec, VSqrt, VRsqrt, VRelu,
  VLRelu,   // leaky relu with slope `value`
  Cast,     // to `dtype` with rounding `round`
  VCmp,     // compare with mode `cmp` → bool
  VSel,     // args: condition (bool), then, else
};

enum class Cmp { EQ, NE, LT, LE, GT, GE };

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  Prim prim;
  DType dtype;
  std::vector<ExprPtr> args;
  int index = -1;      // Placeholder
  double value = 0;    // Const and scalar variants
  RoundMode round = RoundMode::Rint;
  Cmp cmp = Cmp::EQ;
};

ExprPtr placeholder(int index, DType dtype);
ExprPtr constant(double value, DType dtype);
ExprPtr binary(Prim prim, ExprPtr a, ExprPtr b);
ExprPtr withScalar(Prim prim, ExprPtr a, double value);  // VAdds VMuls VMaxs VMins VLRelu
ExprPtr unary(Prim prim, ExprPtr a);
ExprPtr cast(ExprPtr a, DType to, RoundMode round = RoundMode::Rint);
ExprPtr compare(Cmp cmp, ExprPtr a, ExprPtr b);
ExprPtr select(ExprPtr cond, ExprPtr a, ExprPtr b);

const char* primName(Prim prim);  // te.lang.cce spelling: "vadd", "cast_to", ...
const char* cmpName(Cmp cmp);     // "eq", "lt", ...
std::string print(const ExprPtr& e);  // "vadd(x0, vmuls(x1, 2))"

// Nodes reachable from `roots`, every node after its arguments, shared nodes once.
std::vector<const Expr*> topologicalOrder(const std::vector<ExprPtr>& roots);

}  // namespace pyasc::te
