// Stage partition-loops: loops split where a linear condition of their variable changes.
#include "codegen/loop/PartitionLoops.h"

#include "codegen/loop/IndexMath.h"

namespace pyasc::codegen {

namespace {

using loop::Expr;
using loop::StmtPtr;
using te::Op;

class Partitioner {
 public:
  explicit Partitioner(const loop::Kernel& k) : k_(k) {}

  loop::Kernel run() {
    k_.body = rewrite(k_.body);
    return std::move(k_);
  }

 private:
  // The number of iterations from the loop's start for which `cond` holds, when it holds on a
  // prefix of them: cond is a < K with a = base + stride * var, stride > 0 (or its mirror forms).
  std::optional<Expr> prefix(const loop::Stmt& l, const Expr& cond) const {
    if (cond->op != Op::Lt && cond->op != Op::Le && cond->op != Op::Gt && cond->op != Op::Ge) return std::nullopt;
    bool greater = cond->op == Op::Gt || cond->op == Op::Ge;  // K > a, K >= a
    const Expr& lhs = greater ? cond->args[1] : cond->args[0];
    const Expr& rhs = greater ? cond->args[0] : cond->args[1];
    bool inclusive = cond->op == Op::Le || cond->op == Op::Ge;
    auto a = linearIn(lhs, l.var);
    if (!a || a->stride <= 0 || usesVar(rhs, l.var)) return std::nullopt;
    // base + stride * v < K  ⟺  v < ceil((K - base) / stride)   (≤: K + 1)
    Expr bound = sub(inclusive ? add(rhs, intConst(1)) : rhs, a->base);
    Expr first = floorDiv(add(bound, intConst(a->stride - 1)), intConst(a->stride));  // first v where it fails
    Expr n = sub(first, l.min);
    Expr clamped = minOf(te::node(Op::Max, DType::Int32, {n, intConst(0)}), l.extent);
    return simplify(clamped);
  }

  StmtPtr rewrite(const StmtPtr& s) {
    auto copy = std::make_shared<loop::Stmt>(*s);
    for (auto& b : copy->body) b = rewrite(b);
    for (auto& b : copy->orelse) b = rewrite(b);
    if (copy->kind != loop::StmtKind::For || copy->forKind == loop::ForKind::Vectorized ||
        copy->forKind == loop::ForKind::Cores || copy->body.size() != 1 || copy->body[0]->kind != loop::StmtKind::If) {
      return copy;
    }
    const loop::Stmt& choice = *copy->body[0];
    std::optional<Expr> n = prefix(*copy, choice.cond);
    if (!n) return copy;
    std::vector<StmtPtr> parts;
    StmtPtr held = loop::forLoop(copy->var, copy->min, *n, copy->forKind, choice.body);
    held->copies = copy->copies;
    parts.push_back(rewrite(held));
    if (!choice.orelse.empty()) {
      StmtPtr rest = loop::forLoop(copy->var, add(copy->min, *n), sub(copy->extent, *n), copy->forKind, choice.orelse);
      rest->copies = copy->copies;
      parts.push_back(rewrite(cloneFresh(k_, rest, {}, ".rest")));
    }
    return loop::block(std::move(parts));
  }

  loop::Kernel k_;
};

}  // namespace

loop::Kernel partitionLoops(const loop::Kernel& k) { return Partitioner(k).run(); }

}  // namespace pyasc::codegen
