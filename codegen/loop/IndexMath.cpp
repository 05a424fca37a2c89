// Substitution, folding and linear forms of index expressions (int32 arithmetic, Python's // and %).
#include "codegen/loop/IndexMath.h"

#include <algorithm>

namespace pyasc::codegen {

using loop::Expr;
using te::Op;

namespace {

int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

Expr binaryInt(Op op, Expr a, Expr b) {
  DType t = a->dtype;
  return simplify(te::node(op, t, {std::move(a), std::move(b)}));
}

}  // namespace

bool sameExpr(const Expr& a, const Expr& b) {
  if (a == b) return true;
  if (a->op != b->op || a->dtype != b->dtype || a->var != b->var || a->tensor != b->tensor || a->ival != b->ival ||
      a->fval != b->fval || a->fn != b->fn || a->axes != b->axes || a->args.size() != b->args.size()) {
    return false;
  }
  for (size_t i = 0; i < a->args.size(); ++i) {
    if (!sameExpr(a->args[i], b->args[i])) return false;
  }
  return true;
}

Expr intConst(int64_t v) { return te::intImm(v, DType::Int32); }
Expr add(Expr a, Expr b) { return binaryInt(Op::Add, std::move(a), std::move(b)); }
Expr sub(Expr a, Expr b) { return binaryInt(Op::Sub, std::move(a), std::move(b)); }
Expr mul(Expr a, Expr b) { return binaryInt(Op::Mul, std::move(a), std::move(b)); }
Expr floorDiv(Expr a, Expr b) { return binaryInt(Op::FloorDiv, std::move(a), std::move(b)); }
Expr floorMod(Expr a, Expr b) { return binaryInt(Op::FloorMod, std::move(a), std::move(b)); }
Expr maxOf(Expr a, Expr b) { return binaryInt(Op::Max, std::move(a), std::move(b)); }
Expr minOf(Expr a, Expr b) { return binaryInt(Op::Min, std::move(a), std::move(b)); }
Expr lessThan(Expr a, Expr b) { return simplify(te::node(Op::Lt, DType::Bool, {std::move(a), std::move(b)})); }

Expr allOf(const std::vector<Expr>& conditions) {
  Expr all;
  for (const auto& c : conditions) {
    if (c->op == Op::Int && c->ival != 0) continue;  // always true
    all = all ? te::node(Op::And, DType::Bool, {all, c}) : c;
  }
  return all;
}

std::optional<int64_t> constValue(const Expr& e) {
  if (e && e->op == Op::Int && e->dtype != DType::Bool) return e->ival;
  return std::nullopt;
}

bool usesVar(const Expr& e, int var) {
  if (e->op == Op::Var) return e->var == var;
  for (const auto& a : e->args) {
    if (usesVar(a, var)) return true;
  }
  return false;
}

Expr substitute(const Expr& e, const std::map<int, Expr>& values) {
  if (e->op == Op::Var) {
    auto it = values.find(e->var);
    return it == values.end() ? e : it->second;
  }
  if (e->args.empty()) return e;
  te::ComputeNode n = *e;
  bool changed = false;
  for (auto& a : n.args) {
    Expr s = substitute(a, values);
    changed = changed || s != a;
    a = s;
  }
  return changed ? simplify(std::make_shared<const te::ComputeNode>(std::move(n))) : e;
}

Expr simplify(const Expr& e) {
  if (te::isComparison(e->op)) {
    std::optional<int64_t> x = constValue(e->args[0]), y = constValue(e->args[1]);
    if (!x || !y) return e;
    bool r = e->op == Op::Lt ? *x < *y : e->op == Op::Le ? *x <= *y : e->op == Op::Gt ? *x > *y
           : e->op == Op::Ge ? *x >= *y : e->op == Op::Eq ? *x == *y : *x != *y;
    return te::intImm(r ? 1 : 0, DType::Bool);
  }
  if (e->args.size() != 2 || !isInteger(e->dtype)) return e;
  const Expr& a = e->args[0];
  const Expr& b = e->args[1];
  if (e->op == Op::Sub && sameExpr(a, b)) return te::intImm(0, e->dtype);
  std::optional<int64_t> ca = constValue(a), cb = constValue(b);
  if (ca && cb) {
    switch (e->op) {
      case Op::Add: return te::intImm(*ca + *cb, e->dtype);
      case Op::Sub: return te::intImm(*ca - *cb, e->dtype);
      case Op::Mul: return te::intImm(*ca * *cb, e->dtype);
      case Op::FloorDiv: if (*cb != 0) return te::intImm(floorDivInt(*ca, *cb), e->dtype); break;
      case Op::FloorMod: if (*cb != 0) return te::intImm(*ca - floorDivInt(*ca, *cb) * *cb, e->dtype); break;
      case Op::Min: return te::intImm(std::min(*ca, *cb), e->dtype);
      case Op::Max: return te::intImm(std::max(*ca, *cb), e->dtype);
      default: break;
    }
    return e;
  }
  switch (e->op) {
    case Op::Add:
      if (cb == 0) return a;
      if (ca == 0) return b;
      // (x + c1) + c2 → x + (c1 + c2)
      if (cb && a->op == Op::Add && constValue(a->args[1])) return add(a->args[0], intConst(*constValue(a->args[1]) + *cb));
      // x // c * c + x % c → x (a fused loop flattened again)
      if (a->op == Op::Mul && b->op == Op::FloorMod && a->args[0]->op == Op::FloorDiv) {
        std::optional<int64_t> c1 = constValue(a->args[0]->args[1]), c2 = constValue(a->args[1]), c3 = constValue(b->args[1]);
        if (c1 && c1 == c2 && c1 == c3 && sameExpr(a->args[0]->args[0], b->args[0])) return b->args[0];
      }
      break;
    case Op::Sub:
      if (cb == 0) return a;
      if (cb) return add(a, intConst(-*cb));
      break;
    case Op::Mul:
      if (cb == 1) return a;
      if (ca == 1) return b;
      if (cb == 0 || ca == 0) return te::intImm(0, e->dtype);
      break;
    case Op::FloorDiv:
      if (cb == 1) return a;
      break;
    case Op::FloorMod:
      if (cb == 1) return te::intImm(0, e->dtype);
      break;
    default: break;
  }
  return e;
}

std::optional<Linear> linearIn(const Expr& e, int var) {
  if (!usesVar(e, var)) return Linear{e, 0};
  switch (e->op) {
    case Op::Var: return Linear{intConst(0), 1};
    case Op::Add:
    case Op::Sub: {
      auto a = linearIn(e->args[0], var), b = linearIn(e->args[1], var);
      if (!a || !b) return std::nullopt;
      if (e->op == Op::Add) return Linear{add(a->base, b->base), a->stride + b->stride};
      return Linear{sub(a->base, b->base), a->stride - b->stride};
    }
    case Op::Mul: {
      auto a = linearIn(e->args[0], var), b = linearIn(e->args[1], var);
      if (!a || !b) return std::nullopt;
      std::optional<int64_t> ka = constValue(e->args[0]), kb = constValue(e->args[1]);
      if (a->stride != 0 && kb) return Linear{mul(a->base, e->args[1]), a->stride * *kb};
      if (b->stride != 0 && ka) return Linear{mul(e->args[0], b->base), b->stride * *ka};
      return std::nullopt;
    }
    case Op::Neg: {
      auto a = linearIn(e->args[0], var);
      if (!a) return std::nullopt;
      return Linear{sub(intConst(0), a->base), -a->stride};
    }
    default: return std::nullopt;
  }
}

std::optional<Interval> intervalOf(const loop::Expr& e, const std::map<int, Interval>& ranges) {
  using te::Op;
  if (e->op == Op::Int) return Interval{e->ival, e->ival};
  if (e->op == Op::Var) {
    auto it = ranges.find(e->var);
    return it == ranges.end() ? std::nullopt : std::optional<Interval>(it->second);
  }
  std::vector<Interval> a;
  for (const auto& arg : e->args) {
    std::optional<Interval> r = intervalOf(arg, ranges);
    if (!r) return std::nullopt;
    a.push_back(*r);
  }
  auto hull = [](std::initializer_list<int64_t> v) { return Interval{std::min(v), std::max(v)}; };
  switch (e->op) {
    case Op::Add: return Interval{a[0].lo + a[1].lo, a[0].hi + a[1].hi};
    case Op::Sub: return Interval{a[0].lo - a[1].hi, a[0].hi - a[1].lo};
    case Op::Neg: return Interval{-a[0].hi, -a[0].lo};
    case Op::Mul: return hull({a[0].lo * a[1].lo, a[0].lo * a[1].hi, a[0].hi * a[1].lo, a[0].hi * a[1].hi});
    case Op::Min: return Interval{std::min(a[0].lo, a[1].lo), std::min(a[0].hi, a[1].hi)};
    case Op::Max: return Interval{std::max(a[0].lo, a[1].lo), std::max(a[0].hi, a[1].hi)};
    case Op::FloorDiv:
      if (a[1].lo != a[1].hi || a[1].lo <= 0) return std::nullopt;
      return Interval{floorDivInt(a[0].lo, a[1].lo), floorDivInt(a[0].hi, a[1].lo)};
    case Op::FloorMod: {
      if (a[1].lo != a[1].hi || a[1].lo <= 0) return std::nullopt;
      int64_t m = a[1].lo;
      if (floorDivInt(a[0].lo, m) == floorDivInt(a[0].hi, m)) {  // within one period
        return Interval{a[0].lo - floorDivInt(a[0].lo, m) * m, a[0].hi - floorDivInt(a[0].lo, m) * m};
      }
      return Interval{0, m - 1};
    }
    default: return std::nullopt;
  }
}

bool multipleOf(const loop::Expr& e, int64_t n) {
  using te::Op;
  if (auto c = constValue(e)) return *c % n == 0;
  switch (e->op) {
    case Op::Add:
    case Op::Sub: return multipleOf(e->args[0], n) && multipleOf(e->args[1], n);
    case Op::Mul: return multipleOf(e->args[0], n) || multipleOf(e->args[1], n);
    case Op::Neg: return multipleOf(e->args[0], n);
    default: return false;
  }
}

std::optional<bool> truthOf(const loop::Expr& cond, const std::map<int, Interval>& ranges) {
  using te::Op;
  if (cond->op == Op::And) {
    std::optional<bool> a = truthOf(cond->args[0], ranges), b = truthOf(cond->args[1], ranges);
    if ((a && !*a) || (b && !*b)) return false;
    if (a && b) return true;
    return std::nullopt;
  }
  if (cond->op != Op::Lt && cond->op != Op::Le && cond->op != Op::Gt && cond->op != Op::Ge) return std::nullopt;
  bool greater = cond->op == Op::Gt || cond->op == Op::Ge;
  std::optional<Interval> a = intervalOf(cond->args[greater ? 1 : 0], ranges), b = intervalOf(cond->args[greater ? 0 : 1], ranges);
  if (!a || !b) return std::nullopt;
  bool strict = cond->op == Op::Lt || cond->op == Op::Gt;  // a < b, or a <= b
  if (strict ? a->hi < b->lo : a->hi <= b->lo) return true;
  if (strict ? a->lo >= b->hi : a->lo > b->hi) return false;
  return std::nullopt;
}

std::optional<ClampedWindow> clampedWindow(const loop::Expr& idx, int lane) {
  using te::Op;
  ClampedWindow c{intConst(0), nullptr, nullptr, nullptr};
  loop::Expr e = idx;
  bool clamped = false;
  for (;;) {
    if (!usesVar(e, lane)) return std::nullopt;
    if (clamped && e->op != Op::Max && e->op != Op::Min) break;  // inside the clamps: the window's offset
    if (e->op == Op::Add && !usesVar(e->args[1], lane)) {
      c.base = add(c.base, e->args[1]);
      e = e->args[0];
    } else if (e->op == Op::Add && !usesVar(e->args[0], lane)) {
      c.base = add(c.base, e->args[0]);
      e = e->args[1];
    } else if ((e->op == Op::Max || e->op == Op::Min) && !usesVar(e->args[1], lane)) {
      loop::Expr& bound = e->op == Op::Max ? c.lo : c.hi;
      if (bound) return std::nullopt;  // one clamp each way
      bound = e->args[1];
      clamped = true;
      e = e->args[0];
    } else {
      break;
    }
  }
  auto inner = linearIn(e, lane);
  if (!clamped || !inner || inner->stride != 1) return std::nullopt;
  c.offset = inner->base;
  return c;
}

bool windowInside(const ClampedWindow& w, int64_t lanes, int64_t elements, const std::map<int, Interval>& ranges) {
  std::optional<Interval> start = intervalOf(add(w.base, w.offset), ranges);
  return start && start->lo >= 0 && start->hi + lanes <= elements;
}

std::optional<Interval> loopRange(const loop::Stmt& s, const std::map<int, Interval>& ranges) {
  std::optional<Interval> min = intervalOf(s.min, ranges), extent = intervalOf(s.extent, ranges);
  if (!min || !extent || extent->hi < 1) return std::nullopt;
  return Interval{min->lo, min->hi + extent->hi - 1};
}

LoopRangeScope::LoopRangeScope(const loop::Stmt& s, std::map<int, Interval>& ranges) : ranges_(ranges) {
  if (s.kind != loop::StmtKind::For) return;
  if (std::optional<Interval> r = loopRange(s, ranges)) {
    var_ = s.var;
    ranges_[var_] = *r;
  }
}

LoopRangeScope::~LoopRangeScope() {
  if (var_ >= 0) ranges_.erase(var_);
}

namespace {

void collectReads(const loop::Expr& e, std::set<int>& reads) {
  if (!e) return;
  if (e->op == te::Op::Load) reads.insert(e->tensor);
  for (const auto& a : e->args) collectReads(a, reads);
}

void collect(const loop::Stmt& s, BufferAccess& a) {
  switch (s.kind) {
    case loop::StmtKind::Store:
      a.writes.insert(s.buffer);
      collectReads(s.index, a.reads);
      collectReads(s.value, a.reads);
      break;
    case loop::StmtKind::Dma:
    case loop::StmtKind::Vector:
    case loop::StmtKind::Cube:
      a.writes.insert(s.dst.buffer);
      for (const auto& r : s.srcs) a.reads.insert(r.buffer);
      collectReads(s.scalar, a.reads);
      if (s.kind == loop::StmtKind::Cube && s.op == "mmad" && !s.init) a.reads.insert(s.dst.buffer);  // accumulates
      break;
    default: break;
  }
  collectReads(s.cond, a.reads);
  for (const auto& b : s.body) collect(*b, a);
  for (const auto& b : s.orelse) collect(*b, a);
}

}  // namespace

BufferAccess bufferAccess(const loop::Stmt& s) {
  BufferAccess a;
  collect(s, a);
  return a;
}

std::vector<loop::StmtPtr> loadsFirst(const loop::Kernel& k, std::vector<loop::StmtPtr> list) {
  auto local = [&](int b) { return k.buffers[static_cast<size_t>(b)].scope != isa::Space::GM; };
  for (size_t i = 0; i < list.size(); ++i) {
    const loop::Stmt& d = *list[i];
    if (d.kind != loop::StmtKind::Dma || !local(d.dst.buffer)) continue;
    BufferAccess moving = bufferAccess(d);
    for (size_t j = i; j > 0; --j) {
      const loop::Stmt& before = *list[j - 1];
      if (before.kind == loop::StmtKind::Sync || (before.kind == loop::StmtKind::Dma && local(before.dst.buffer))) break;
      BufferAccess a = bufferAccess(before);
      bool conflict = a.writes.count(d.dst.buffer) || a.reads.count(d.dst.buffer);
      for (int r : moving.reads) conflict = conflict || a.writes.count(r);
      if (conflict) break;
      std::swap(list[j - 1], list[j]);
    }
  }
  return list;
}

bool holdsPipeWork(const loop::Stmt& s) {
  if (s.kind == loop::StmtKind::Dma || s.kind == loop::StmtKind::Vector || s.kind == loop::StmtKind::Cube) return true;
  for (const auto& b : s.body) {
    if (holdsPipeWork(*b)) return true;
  }
  for (const auto& b : s.orelse) {
    if (holdsPipeWork(*b)) return true;
  }
  return false;
}

std::vector<loop::StmtPtr> flattenBlocks(const std::vector<loop::StmtPtr>& list) {
  std::vector<loop::StmtPtr> out;
  for (const auto& s : list) {
    if (s->kind == loop::StmtKind::Block) {
      for (auto& inner : flattenBlocks(s->body)) out.push_back(inner);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

Expr renameBuffers(const Expr& e, const std::map<int, int>& buffers) {
  if (!e || buffers.empty()) return e;
  if (e->op != Op::Load && e->args.empty()) return e;
  te::ComputeNode n = *e;
  if (n.op == Op::Load) {
    auto it = buffers.find(n.tensor);
    if (it != buffers.end()) n.tensor = it->second;
  }
  for (auto& a : n.args) a = renameBuffers(a, buffers);
  return std::make_shared<const te::ComputeNode>(std::move(n));
}

loop::StmtPtr cloneFresh(loop::Kernel& k, const loop::StmtPtr& s, std::map<int, Expr> rename, const std::string& suffix,
                         const std::map<int, int>& buffers) {
  auto c = std::make_shared<loop::Stmt>(*s);
  auto buffer = [&](int b) {
    auto it = buffers.find(b);
    return it == buffers.end() ? b : it->second;
  };
  c->buffer = c->buffer >= 0 ? buffer(c->buffer) : c->buffer;
  if (c->dst.buffer >= 0) c->dst.buffer = buffer(c->dst.buffer);
  for (auto& r : c->srcs) r.buffer = buffer(r.buffer);
  for (Expr* e : {&c->min, &c->extent}) {
    if (*e) *e = substitute(*e, rename);
  }
  if (c->kind == loop::StmtKind::For) {
    int fresh = k.addVar(k.vars[static_cast<size_t>(c->var)] + suffix);
    rename[c->var] = te::var(fresh);
    c->var = fresh;
  }
  for (Expr* e : {&c->index, &c->value, &c->cond, &c->rows, &c->len, &c->dstStride, &c->srcStride, &c->count,
                  &c->scalar, &c->event, &c->dst.offset, &c->validRows, &c->validCols}) {
    if (*e) *e = renameBuffers(substitute(*e, rename), buffers);
  }
  for (auto& r : c->srcs) r.offset = substitute(r.offset, rename);
  for (auto& b : c->body) b = cloneFresh(k, b, rename, suffix, buffers);
  for (auto& b : c->orelse) b = cloneFresh(k, b, rename, suffix, buffers);
  return c;
}

}  // namespace pyasc::codegen
