// Stage double-buffer: pipelined loops unrolled over private buffer sets.
#include "codegen/loop/DoubleBuffer.h"

#include <set>

#include "codegen/loop/IndexMath.h"

namespace pyasc::codegen {

namespace {

using loop::Expr;
using loop::StmtPtr;

void reads(const Expr& e, std::set<int>& out) {
  if (!e) return;
  if (e->op == te::Op::Load) out.insert(e->tensor);
  for (const auto& a : e->args) reads(a, out);
}

class Buffering {
 public:
  explicit Buffering(const loop::Kernel& k) : k_(k) {}

  loop::Kernel run() {
    k_.body = rewrite(k_.body);
    return std::move(k_);
  }

 private:
  bool local(int b) const { return k_.buffers[static_cast<size_t>(b)].role == loop::Buffer::Role::Local; }

  // The buffers `s` (and what it holds) reads and writes.
  static void accesses(const loop::Stmt& s, std::set<int>& r, std::set<int>& w) {
    switch (s.kind) {
      case loop::StmtKind::Dma:
      case loop::StmtKind::Vector:
        for (const auto& src : s.srcs) r.insert(src.buffer);
        reads(s.scalar, r);
        w.insert(s.dst.buffer);
        break;
      case loop::StmtKind::Store:
        reads(s.value, r);
        reads(s.index, r);
        w.insert(s.buffer);
        break;
      default: break;
    }
    reads(s.cond, r);
    for (const auto& b : s.body) accesses(*b, r, w);
    for (const auto& b : s.orelse) accesses(*b, r, w);
  }

  // Local buffers whose first access in the body (in order) is a write: private to an iteration.
  std::set<int> privateBuffers(const std::vector<StmtPtr>& body) const {
    std::set<int> seen, privates;
    for (const auto& s : body) {
      std::set<int> r, w;
      accesses(*s, r, w);
      for (int b : w) {
        if (local(b) && !seen.count(b) && !r.count(b)) privates.insert(b);
      }
      seen.insert(r.begin(), r.end());
      seen.insert(w.begin(), w.end());
    }
    return privates;
  }

  StmtPtr rewrite(const StmtPtr& s) {
    auto copy = std::make_shared<loop::Stmt>(*s);
    for (auto& b : copy->body) b = rewrite(b);
    for (auto& b : copy->orelse) b = rewrite(b);
    if (copy->kind != loop::StmtKind::For || copy->forKind != loop::ForKind::Pipelined) return copy;
    const int sets = copy->copies;
    std::set<int> privates = privateBuffers(copy->body);
    // buffer maps per set: set 0 keeps the buffers, set k > 0 gets copies named <buffer>.<k>
    std::vector<std::map<int, int>> maps(static_cast<size_t>(sets));
    for (int b : privates) {
      for (int set = 1; set < sets; ++set) {
        loop::Buffer twin = k_.buffers[static_cast<size_t>(b)];
        std::string base = twin.name + "." + std::to_string(set);
        twin.name = base;
        for (int n = 1; k_.findBuffer(twin.name) >= 0; ++n) twin.name = base + "." + std::to_string(n);
        k_.buffers.push_back(twin);
        maps[static_cast<size_t>(set)][b] = static_cast<int>(k_.buffers.size()) - 1;
      }
    }
    // for u in [0, n // sets): the body once per set, iteration t = min + sets * u + set
    int u = k_.addVar(k_.vars[static_cast<size_t>(copy->var)] + ".round");
    Expr rounds = floorDiv(copy->extent, intConst(sets));
    std::vector<StmtPtr> unrolled;
    for (int set = 0; set < sets; ++set) {
      Expr t = add(copy->min, add(mul(te::var(u), intConst(sets)), intConst(set)));
      for (const auto& b : copy->body) unrolled.push_back(cloneFresh(k_, b, {{copy->var, t}}, "", maps[static_cast<size_t>(set)]));
    }
    std::vector<StmtPtr> out;
    out.push_back(loop::forLoop(u, intConst(0), rounds, loop::ForKind::Serial, std::move(unrolled)));
    // the iterations left over: set k runs iteration min + sets * rounds + k when k < n % sets
    Expr left = floorMod(copy->extent, intConst(sets));
    for (int set = 0; set + 1 < sets; ++set) {
      Expr t = add(copy->min, add(mul(rounds, intConst(sets)), intConst(set)));
      std::vector<StmtPtr> body;
      for (const auto& b : copy->body) body.push_back(cloneFresh(k_, b, {{copy->var, t}}, "", maps[static_cast<size_t>(set)]));
      if (auto n = constValue(left); n && *n <= set) continue;
      out.push_back(loop::ifThen(lessThan(intConst(set), left), std::move(body)));
    }
    return loop::block(std::move(out));
  }

  loop::Kernel k_;
};

}  // namespace

loop::Kernel doubleBuffer(const loop::Kernel& k) { return Buffering(k).run(); }

}  // namespace pyasc::codegen
