// The fused elementwise template: a group of elementwise nodes (formed by fuse-elementwise) as one
// kernel of TE expressions over placeholders and constants, and how such a kernel reads an operand
// whose shape differs from the group's (asked by fuse-elementwise too).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "codegen/templates/Lowering.h"
#include "sdk/te/Expr.h"

namespace pyasc::codegen {

// How many times each element of an operand of `shape` repeats when it broadcasts to `groupShape`
// as a column (its shape is the group's leading dimensions followed by 1s), if the kernel can
// stretch it in UB; else 0.
int64_t columnStretch(const std::vector<int64_t>& shape, const std::vector<int64_t>& groupShape, DType dtype);
// Whether two shapes are equal once their leading 1s are dropped (the same rows in row-major order).
bool sameBeyondLeadingOnes(std::vector<int64_t> a, std::vector<int64_t> b);
// Whether the kernel reads an operand of `shape` itself: one element (not a boolean), the group's element count,
// whole trailing rows it repeats in UB (the shape, leading 1s aside, is the group's last dimensions)
// or a column it stretches. Otherwise a copy kernel materialises it at its user's shape first.
bool readsOperand(const std::vector<int64_t>& shape, const std::vector<int64_t>& groupShape, DType dtype);

// The group being built during select-templates; `flush` launches its kernel.
class FusionGroup {
 public:
  // A kernel input: a graph value read from its storage or by value (a loop counter), or the
  // storage of a copy broadcasting it to the group's shape.
  struct Operand {
    graph::ValueId value;
    int copy = -1;
    int64_t period = 0;  // > 0: `copy` holds a few repeats of a row, `period` elements of whole blocks
  };

  bool empty() const { return nodes_.empty(); }
  int id() const { return id_; }
  // Adds `n` (one result) to group `id`, flushing the group first when `id` is another. A group
  // that feeds a reduction's prologue (`raw`) keeps broadcast operands as they are: the reduction
  // decides how to read them.
  void add(const graph::Node& n, int id, Lowering& l, std::vector<Step>& out, bool raw = false);
  // One kernel writing back the group's values still read later (none: no kernel).
  void flush(Lowering& l, std::vector<Step>& out);

  // The group's expression of `v` (computed in it; else null) over placeholders of `operands()`.
  te::ExprPtr expr(graph::ValueId v) const;
  const std::vector<Operand>& operands() const { return inputs_; }
  // Ends the group without a kernel: its work now belongs to the caller's.
  void clear() { *this = FusionGroup{}; }

 private:
  te::ExprPtr operandExpr(graph::ValueId v, const graph::Node& user, Lowering& l, std::vector<Step>& out);
  // Operand `index` read as `dtype`: one placeholder per operand, so the kernel loads it once.
  te::ExprPtr placeholder(int index, DType dtype);

  bool raw_ = false;
  int id_ = -1;
  std::vector<const graph::Node*> nodes_;
  int64_t count_ = -1;
  std::vector<int64_t> shape_;
  std::map<graph::ValueId, te::ExprPtr> exprs_;  // values computed in the group
  std::vector<Operand> inputs_;                 // by placeholder index
  std::vector<te::ExprPtr> placeholders_;       // by placeholder index
};

}  // namespace pyasc::codegen
