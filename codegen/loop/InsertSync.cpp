// Stage insert-sync: flags for dependences between pipes in straight-line code, barriers around compound statements.
#include "codegen/loop/InsertSync.h"

#include <array>
#include <set>

#include "codegen/loop/IndexMath.h"

namespace pyasc::codegen {

namespace {

using isa::Pipe;
using loop::StmtPtr;

// Buffers a statement reads and writes (whole buffers: a conservative dependence test).
struct Access {
  std::set<int> reads, writes;
};

void collectReads(const loop::Expr& e, std::set<int>& reads) {
  if (!e) return;
  if (e->op == te::Op::Load) reads.insert(e->tensor);
  for (const auto& a : e->args) collectReads(a, reads);
}

void collect(const loop::Stmt& s, Access& a) {
  switch (s.kind) {
    case loop::StmtKind::Store:
      a.writes.insert(s.buffer);
      collectReads(s.index, a.reads);
      collectReads(s.value, a.reads);
      break;
    case loop::StmtKind::Dma:
    case loop::StmtKind::Vector:
      a.writes.insert(s.dst.buffer);
      for (const auto& r : s.srcs) a.reads.insert(r.buffer);
      collectReads(s.scalar, a.reads);
      break;
    default: break;
  }
  collectReads(s.cond, a.reads);
  for (const auto& b : s.body) collect(*b, a);
  for (const auto& b : s.orelse) collect(*b, a);
}

bool dependent(const Access& a, const Access& b) {
  for (int w : a.writes) {
    if (b.reads.count(w) || b.writes.count(w)) return true;
  }
  for (int w : b.writes) {
    if (a.reads.count(w)) return true;
  }
  return false;
}

bool compound(const loop::Stmt& s) {
  return s.kind == loop::StmtKind::For || s.kind == loop::StmtKind::If || s.kind == loop::StmtKind::Block;
}

StmtPtr syncStmt(loop::Stmt::SyncKind kind, Pipe src, Pipe dst, int event) {
  auto s = std::make_shared<loop::Stmt>();
  s->kind = loop::StmtKind::Sync;
  s->sync = kind;
  s->srcPipe = src;
  s->dstPipe = dst;
  s->event = intConst(event);
  return s;
}

class Syncer {
 public:
  explicit Syncer(const loop::Kernel& k) : k_(k) {}

  std::vector<StmtPtr> list(const std::vector<StmtPtr>& in) {
    std::vector<StmtPtr> out;
    // per statement of `in`: its pipe, its accesses, where it lands in `out`
    std::vector<Pipe> pipes;
    std::vector<Access> accesses;
    std::array<std::array<int, isa::kPipeCount>, isa::kPipeCount> synced{};  // last producer index synced, +1
    std::array<std::array<int, isa::kPipeCount>, isa::kPipeCount> events{};
    std::vector<std::vector<StmtPtr>> after(in.size());  // sets to insert after statement i
    std::vector<std::vector<StmtPtr>> before(in.size());
    for (size_t j = 0; j < in.size(); ++j) {
      const loop::Stmt& s = *in[j];
      Access a;
      collect(s, a);
      accesses.push_back(a);
      pipes.push_back(compound(s) ? Pipe::All : statementPipe(k_, s));
      if (compound(s) || s.kind == loop::StmtKind::Sync) continue;
      int c = static_cast<int>(pipes[j]);
      for (int p = 0; p < isa::kPipeCount; ++p) {
        if (p == c) continue;
        for (size_t i = j; i-- > 0;) {
          if (pipes[i] == Pipe::All) break;  // a drained compound statement orders everything before it
          if (static_cast<int>(pipes[i]) != p || !dependent(accesses[i], a)) continue;
          if (static_cast<int>(i) + 1 > synced[p][c]) {
            int e = events[p][c]++ % isa::kFlagEvents;
            after[i].push_back(syncStmt(loop::Stmt::SyncKind::Set, static_cast<Pipe>(p), static_cast<Pipe>(c), e));
            before[j].push_back(syncStmt(loop::Stmt::SyncKind::Wait, static_cast<Pipe>(p), static_cast<Pipe>(c), e));
            synced[p][c] = static_cast<int>(i) + 1;
          }
          break;
        }
      }
    }
    for (size_t j = 0; j < in.size(); ++j) {
      const loop::Stmt& s = *in[j];
      for (auto& w : before[j]) out.push_back(w);
      if (compound(s)) {
        bool work = usesPipes(s);
        if (work) out.push_back(syncStmt(loop::Stmt::SyncKind::Barrier, Pipe::All, Pipe::All, 0));
        auto copy = std::make_shared<loop::Stmt>(s);
        copy->body = list(s.body);
        copy->orelse = list(s.orelse);
        if (work && s.kind == loop::StmtKind::For) {  // each iteration drains before the next
          copy->body.push_back(syncStmt(loop::Stmt::SyncKind::Barrier, Pipe::All, Pipe::All, 0));
        }
        out.push_back(copy);
        if (work) out.push_back(syncStmt(loop::Stmt::SyncKind::Barrier, Pipe::All, Pipe::All, 0));
      } else {
        out.push_back(in[j]);
      }
      for (auto& set : after[j]) out.push_back(set);
    }
    return out;
  }

 private:
  // Whether `s` holds work of a pipe other than the scalar unit.
  bool usesPipes(const loop::Stmt& s) const {
    if (s.kind == loop::StmtKind::Dma || s.kind == loop::StmtKind::Vector) return true;
    for (const auto& b : s.body) {
      if (usesPipes(*b)) return true;
    }
    for (const auto& b : s.orelse) {
      if (usesPipes(*b)) return true;
    }
    return false;
  }

  const loop::Kernel& k_;
};

}  // namespace

Pipe statementPipe(const loop::Kernel& k, const loop::Stmt& s) {
  if (s.kind == loop::StmtKind::Vector) return Pipe::V;
  if (s.kind == loop::StmtKind::Dma) {
    bool toGm = k.buffers[static_cast<size_t>(s.dst.buffer)].scope == isa::Space::GM;
    return toGm ? Pipe::MTE3 : Pipe::MTE2;
  }
  return Pipe::S;
}

loop::Kernel insertSync(const loop::Kernel& k) {
  loop::Kernel out = k;
  Syncer s(k);
  std::vector<StmtPtr> top = k.body->kind == loop::StmtKind::Block ? k.body->body : std::vector<StmtPtr>{k.body};
  out.body = loop::block(s.list(top));
  return out;
}

}  // namespace pyasc::codegen
