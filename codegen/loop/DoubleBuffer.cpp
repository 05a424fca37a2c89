// Stage double-buffer: pipelined loops unrolled over private buffer sets.
#include "codegen/loop/DoubleBuffer.h"

#include <map>
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
    nested_ = nestsPipelined(*k_.body, false);
    k_.body = rewrite(k_.body);
    return std::move(k_);
  }

 private:
  bool local(int b) const { return k_.buffers[static_cast<size_t>(b)].role == loop::Buffer::Role::Local; }

  static bool nestsPipelined(const loop::Stmt& s, bool inside) {
    bool pipelined = s.kind == loop::StmtKind::For && s.forKind == loop::ForKind::Pipelined;
    if (pipelined && inside) return true;
    for (const auto& b : s.body) {
      if (nestsPipelined(*b, inside || pipelined)) return true;
    }
    for (const auto& b : s.orelse) {
      if (nestsPipelined(*b, inside || pipelined)) return true;
    }
    return false;
  }

  // Local buffers whose first access in the body (in order) is a write: private to an iteration.
  std::set<int> privateBuffers(const std::vector<StmtPtr>& body) const {
    std::set<int> seen, privates;
    for (const auto& s : body) {
      BufferAccess a = bufferAccess(*s);
      for (int b : a.writes) {
        if (local(b) && !seen.count(b) && !a.reads.count(b)) privates.insert(b);
      }
      seen.insert(a.reads.begin(), a.reads.end());
      seen.insert(a.writes.begin(), a.writes.end());
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
        // one twin per buffer and set, whichever pipelined loops use it (they run one after another,
        // unless one holds another)
        auto [known, fresh] = twins_.try_emplace({b, set}, -1);
        fresh = fresh || nested_;
        if (fresh) {
          loop::Buffer twin = k_.buffers[static_cast<size_t>(b)];
          twin.name = k_.freshBufferName(twin.name + "." + std::to_string(set));
          k_.buffers.push_back(twin);
          known->second = static_cast<int>(k_.buffers.size()) - 1;
        }
        maps[static_cast<size_t>(set)][b] = known->second;
      }
    }
    if (sets == 2) {
      if (StmtPtr rotated = rotate(*copy, privates, maps)) return rotated;
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
    // the loads of a set start before the scalar unit waits for those of the set before it
    out.push_back(loop::forLoop(u, intConst(0), rounds, loop::ForKind::Serial, loadsFirst(k_, flattenBlocks(unrolled))));
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

  // Two buffer sets with the loads of each iteration issued one iteration ahead: the loads that
  // start the body (DMAs into its private buffers, from buffers the loop does not write) move to the
  // end of the iteration before, so the scalar unit never waits for the loads it has just issued.
  // The loads of the iteration after the last repeat the last one's (no condition in the loop);
  // the first iteration's are loaded before the loop. Null when the body does not start with loads.
  StmtPtr rotate(const loop::Stmt& l, const std::set<int>& privates, const std::vector<std::map<int, int>>& maps) {
    std::vector<StmtPtr> body = flattenBlocks(l.body);
    BufferAccess all;
    for (const auto& b : body) {
      BufferAccess a = bufferAccess(*b);
      all.writes.insert(a.writes.begin(), a.writes.end());
    }
    size_t loads = 0;
    for (; loads < body.size(); ++loads) {
      const loop::Stmt& d = *body[loads];
      if (d.kind != loop::StmtKind::Dma || !privates.count(d.dst.buffer) || all.writes.count(d.srcs[0].buffer)) break;
    }
    if (loads == 0 || loads == body.size()) return nullptr;
    Expr last = sub(add(l.min, l.extent), intConst(1));
    auto part = [&](size_t from, size_t to, int set, Expr t) {
      std::vector<StmtPtr> out;
      for (size_t i = from; i < to; ++i) out.push_back(cloneFresh(k_, body[i], {{l.var, t}}, "", maps[static_cast<size_t>(set)]));
      return out;
    };
    auto append = [](std::vector<StmtPtr>& to, std::vector<StmtPtr> from) { to.insert(to.end(), from.begin(), from.end()); };
    std::vector<StmtPtr> out;
    std::vector<StmtPtr> first = part(0, loads, 0, l.min);
    std::optional<int64_t> n = constValue(l.extent);
    if (n && *n >= 1) {
      append(out, first);
    } else {
      out.push_back(loop::ifThen(lessThan(intConst(0), l.extent), std::move(first)));
    }
    int u = k_.addVar(k_.vars[static_cast<size_t>(l.var)] + ".round");
    Expr t = add(l.min, mul(te::var(u), intConst(2)));
    std::vector<StmtPtr> round = part(0, loads, 1, minOf(add(t, intConst(1)), last));
    append(round, part(loads, body.size(), 0, t));
    append(round, part(0, loads, 0, minOf(add(t, intConst(2)), last)));
    append(round, part(loads, body.size(), 1, add(t, intConst(1))));
    Expr rounds = floorDiv(l.extent, intConst(2));
    out.push_back(loop::forLoop(u, intConst(0), rounds, loop::ForKind::Serial, std::move(round)));
    // an odd count: the last iteration, its loads made by the last round
    std::vector<StmtPtr> odd = part(loads, body.size(), 0, add(l.min, mul(rounds, intConst(2))));
    if (auto left = constValue(floorMod(l.extent, intConst(2))); !left || *left > 0) {
      out.push_back(left ? loop::block(std::move(odd)) : loop::ifThen(lessThan(intConst(0), floorMod(l.extent, intConst(2))), std::move(odd)));
    }
    return loop::block(std::move(out));
  }

  loop::Kernel k_;
  std::map<std::pair<int, int>, int> twins_;  // (buffer, set) → its twin
  bool nested_ = false;                        // a pipelined loop holds another
};

}  // namespace

loop::Kernel doubleBuffer(const loop::Kernel& k) { return Buffering(k).run(); }

}  // namespace pyasc::codegen
