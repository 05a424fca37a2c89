// Stage partition-loops: loops split where a linear condition of their variable changes, and first and
// last iterations peeled where only they read a clamped window across a tensor's border.
#include "codegen/loop/PartitionLoops.h"

#include <functional>

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

  // Whether every clamped window of GM that a vectorized loop inside `s` reads lies inside its tensor
  // for the values in `ranges` (and those of the loops inside `s`).
  bool windowsInside(const loop::Stmt& s, std::map<int, Interval> ranges) const {
    if (s.kind == loop::StmtKind::For && s.forKind == loop::ForKind::Vectorized) {
      std::optional<int64_t> lanes = constValue(s.extent);
      bool inside = true;
      std::function<void(const Expr&)> visit = [&](const Expr& e) {
        if (e->op == Op::Load && k_.buffers[static_cast<size_t>(e->tensor)].scope == isa::Space::GM) {
          if (auto w = clampedWindow(e->args[0], s.var)) {
            inside = inside && lanes && windowInside(*w, *lanes, k_.buffers[static_cast<size_t>(e->tensor)].elements, ranges);
          }
        }
        for (const auto& a : e->args) visit(a);
      };
      for (const auto& b : s.body) {
        if (b->value) visit(b->value);
      }
      return inside;
    }
    if (s.kind == loop::StmtKind::For) {
      std::optional<Interval> r = loopRange(s, ranges);
      if (!r) return false;
      ranges[s.var] = *r;
    }
    for (const auto& b : s.body) {
      if (!windowsInside(*b, ranges)) return false;
    }
    for (const auto& b : s.orelse) {
      if (!windowsInside(*b, ranges)) return false;
    }
    return true;
  }

  // A loop whose windows cross a border only in its first or last iteration runs those two apart:
  // the iterations between need no condition (select-intrinsics reads their windows by plain DMA).
  StmtPtr peeled(const StmtPtr& l) {
    if (l->kind != loop::StmtKind::For || (l->forKind != loop::ForKind::Serial && l->forKind != loop::ForKind::Pipelined)) return l;
    std::optional<Interval> min = intervalOf(l->min, ranges_), extent = intervalOf(l->extent, ranges_);
    if (!min || !extent || extent->hi < 3 || windowsInside(*l, ranges_)) return l;
    std::map<int, Interval> middle = ranges_;
    middle[l->var] = Interval{min->lo + 1, min->hi + extent->hi - 2};
    for (const auto& b : l->body) {
      if (!windowsInside(*b, middle)) return l;
    }
    auto part = [&](Expr from, Expr count, loop::ForKind kind, const std::string& suffix) {
      StmtPtr p = loop::forLoop(l->var, from, count, kind, l->body);
      p->copies = kind == loop::ForKind::Pipelined ? l->copies : 1;
      return cloneFresh(k_, p, {}, suffix);
    };
    auto max0 = [](Expr x) { return maxOf(std::move(x), intConst(0)); };
    std::vector<StmtPtr> parts;
    parts.push_back(part(l->min, minOf(l->extent, intConst(1)), loop::ForKind::Serial, ".first"));
    parts.push_back(part(add(l->min, intConst(1)), max0(sub(l->extent, intConst(2))), l->forKind, ".mid"));
    parts.push_back(part(add(l->min, maxOf(sub(l->extent, intConst(1)), intConst(1))),
                         minOf(max0(sub(l->extent, intConst(1))), intConst(1)), loop::ForKind::Serial, ".last"));
    return loop::block(std::move(parts));
  }

  StmtPtr rewrite(const StmtPtr& s) {
    auto copy = std::make_shared<loop::Stmt>(*s);
    {
      LoopRangeScope inside(*s, ranges_);
      for (auto& b : copy->body) b = rewrite(b);
    }
    for (auto& b : copy->orelse) b = rewrite(b);
    if (copy->kind != loop::StmtKind::For || copy->forKind == loop::ForKind::Vectorized ||
        copy->forKind == loop::ForKind::Cores) {
      return copy;
    }
    if (copy->body.size() != 1 || copy->body[0]->kind != loop::StmtKind::If) return peeled(copy);
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
  std::map<int, Interval> ranges_;  // the values of the enclosing loops' variables
};

}  // namespace

loop::Kernel partitionLoops(const loop::Kernel& k) { return Partitioner(k).run(); }

}  // namespace pyasc::codegen
