// Stage insert-sync: flags for dependences between pipes in straight-line code and between the iterations of
// straight-line loops, barriers around other compound statements.
#include "codegen/loop/InsertSync.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "codegen/loop/IndexMath.h"

namespace pyasc::codegen {

namespace {

using isa::Pipe;
using loop::StmtPtr;

using Access = BufferAccess;

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

  // `in` with flags for the dependences between its statements; `before`/`after` may hold flags to
  // place around statements already (a loop's flags between iterations).
  std::vector<StmtPtr> list(const std::vector<StmtPtr>& in, std::vector<std::vector<StmtPtr>> before = {},
                            std::vector<std::vector<StmtPtr>> after = {}) {
    std::vector<StmtPtr> out;
    // per statement of `in`: its pipe and its accesses
    std::vector<Pipe> pipes;
    std::vector<Access> accesses;
    before.resize(in.size());
    after.resize(in.size());
    for (const auto& s : in) {
      accesses.push_back(bufferAccess(*s));
      // a compound statement with work of other pipes is drained around; one of the scalar unit's
      // alone (an element loop) is a scalar statement like any other
      bool drained = compound(*s) && holdsPipeWork(*s);
      pipes.push_back(drained ? Pipe::All : compound(*s) ? Pipe::S : statementPipe(k_, *s));
    }
    // a pipe pair with more flags waiting at once than it has events merges some of them
    std::vector<Flag> flags = dependences(in, pipes, accesses);
    const auto turns = events_;
    for (std::optional<std::pair<int, int>> short_; (short_ = assignEvents(flags));) {
      events_ = turns;
      mergeTwo(flags, *short_);
    }
    for (const Flag& f : flags) {
      after[f.producer].push_back(syncStmt(loop::Stmt::SyncKind::Set, static_cast<Pipe>(f.p), static_cast<Pipe>(f.c), f.event));
      before[f.consumer].push_back(syncStmt(loop::Stmt::SyncKind::Wait, static_cast<Pipe>(f.p), static_cast<Pipe>(f.c), f.event));
    }
    for (size_t j = 0; j < in.size(); ++j) {
      const loop::Stmt& s = *in[j];
      for (auto& w : before[j]) out.push_back(w);
      if (compound(s)) {
        bool work = holdsPipeWork(s);
        if (!work) {  // scalar work only: ordered by the flags around it
          out.push_back(in[j]);
          for (auto& set : after[j]) out.push_back(set);
          continue;
        }
        if (work) out.push_back(syncStmt(loop::Stmt::SyncKind::Barrier, Pipe::All, Pipe::All, 0));
        auto copy = std::make_shared<loop::Stmt>(s);
        std::vector<StmtPtr> preset, drain;
        if (s.kind == loop::StmtKind::For && straight(s.body)) {
          // flags between consecutive iterations: set once before the loop, waited once after it
          std::vector<std::vector<StmtPtr>> first(s.body.size()), last(s.body.size());
          std::vector<std::pair<std::pair<int, int>, int>> held;  // (pair, event) of the carried flags
          for (const Carried& c : carried(s.body)) {
            int e = event(static_cast<int>(c.producer), static_cast<int>(c.consumer));
            held.push_back({{static_cast<int>(c.producer), static_cast<int>(c.consumer)}, e});
            reserved_[held.back().first.first][held.back().first.second].insert(e);
            preset.push_back(syncStmt(loop::Stmt::SyncKind::Set, c.producer, c.consumer, e));
            last[c.last].push_back(syncStmt(loop::Stmt::SyncKind::Set, c.producer, c.consumer, e));
            first[c.first].push_back(syncStmt(loop::Stmt::SyncKind::Wait, c.producer, c.consumer, e));
            drain.push_back(syncStmt(loop::Stmt::SyncKind::Wait, c.producer, c.consumer, e));
          }
          copy->body = list(s.body, first, last);
          for (const auto& [pair, e] : held) reserved_[pair.first][pair.second].erase(e);
        } else {
          copy->body = list(s.body);
          if (s.kind == loop::StmtKind::For) {  // each iteration drains before the next
            copy->body.push_back(syncStmt(loop::Stmt::SyncKind::Barrier, Pipe::All, Pipe::All, 0));
          }
        }
        copy->orelse = list(s.orelse);
        for (auto& p : preset) out.push_back(p);
        out.push_back(copy);
        for (auto& d : drain) out.push_back(d);
        if (work) out.push_back(syncStmt(loop::Stmt::SyncKind::Barrier, Pipe::All, Pipe::All, 0));
      } else {
        out.push_back(in[j]);
      }
      for (auto& set : after[j]) out.push_back(set);
    }
    return out;
  }

 private:
  // A flag from the statement at `producer` (on pipe p) to the one at `consumer` (on pipe c).
  struct Flag {
    size_t producer, consumer;
    int p, c;
    int event = 0;
  };

  // The flags a list needs: each statement waits for the last statement of every other pipe it
  // depends on (writes what it reads or writes, or reads what it writes), unless a drained compound
  // statement comes after that one or an earlier flag of the pair already orders it. The last
  // reader and writer of each buffer per pipe are kept as the list is swept, so each statement
  // costs the buffers it touches, not the statements before it.
  std::vector<Flag> dependences(const std::vector<StmtPtr>& in, const std::vector<Pipe>& pipes,
                                const std::vector<Access>& accesses) const {
    std::vector<Flag> flags;
    std::array<std::array<int, isa::kPipeCount>, isa::kPipeCount> synced{};  // last producer index synced, +1
    // per pipe and buffer: the index of its last reader and writer, +1 (0: none)
    std::array<std::map<int, size_t>, isa::kPipeCount> lastRead, lastWrite;
    size_t drained = 0;  // the index of the last drained compound statement, +1
    auto latest = [](const std::map<int, size_t>& last, const std::set<int>& buffers, size_t& found) {
      for (int b : buffers) {
        auto it = last.find(b);
        if (it != last.end()) found = std::max(found, it->second);
      }
    };
    for (size_t j = 0; j < in.size(); ++j) {
      if (pipes[j] == Pipe::All) {
        drained = j + 1;
        continue;
      }
      if (in[j]->kind != loop::StmtKind::Sync) {
        const int c = static_cast<int>(pipes[j]);
        for (int p = 0; p < isa::kPipeCount; ++p) {
          if (p == c) continue;
          size_t found = 0;  // the last dependent statement on pipe p, +1
          latest(lastWrite[p], accesses[j].reads, found);
          latest(lastWrite[p], accesses[j].writes, found);
          latest(lastRead[p], accesses[j].writes, found);
          if (found == 0 || found <= drained) continue;
          if (static_cast<int>(found) > synced[p][c]) {
            flags.push_back(Flag{found - 1, j, p, c});
            synced[p][c] = static_cast<int>(found);
          }
        }
      }
      const int p = static_cast<int>(pipes[j]);
      for (int b : accesses[j].reads) lastRead[p][b] = j + 1;
      for (int b : accesses[j].writes) lastWrite[p][b] = j + 1;
    }
    return flags;
  }

  // Events for `flags`, distinct among the flags of a pair waiting at the same time and from those a
  // loop's carried flags hold, each pair's turn continued; the pair that ran out of events, if one did.
  // A pair's flags come in the order of their consumers with increasing producers, so an earlier
  // flag of the pair waits at the same time as this one until its consumer is at or before this
  // one's producer, and then never again: each pair keeps the flags still waiting.
  std::optional<std::pair<int, int>> assignEvents(std::vector<Flag>& flags) {
    std::array<std::array<std::deque<const Flag*>, isa::kPipeCount>, isa::kPipeCount> waiting;
    std::vector<int> busy;
    for (Flag& flag : flags) {
      std::deque<const Flag*>& pair = waiting[flag.p][flag.c];
      while (!pair.empty() && pair.front()->consumer <= flag.producer) pair.pop_front();
      busy.clear();
      for (const Flag* o : pair) busy.push_back(o->event);
      const std::set<int>& held = reserved_[flag.p][flag.c];
      bool found = false;
      for (int tries = 0; tries < isa::kFlagEvents && !found; ++tries) {
        int e = events_[flag.p][flag.c]++ % isa::kFlagEvents;
        if (held.count(e) || std::find(busy.begin(), busy.end(), e) != busy.end()) continue;
        flag.event = e;
        found = true;
      }
      if (!found) return std::make_pair(flag.p, flag.c);
      pair.push_back(&flag);
    }
    return std::nullopt;
  }

  // Two flags of `pair` become one: set after the later producer, waited for by the earlier consumer
  // (the later one runs after it on the same pipe). The two whose producers are closest, of those
  // the merge keeps correct (the later producer comes before the earlier consumer): in a pair's
  // order (consumers and producers increasing) the next flag is the closest, and if it does not
  // qualify no later one does.
  static void mergeTwo(std::vector<Flag>& flags, std::pair<int, int> pair) {
    std::optional<std::pair<size_t, size_t>> best;
    size_t distance = SIZE_MAX;
    std::optional<size_t> previous;
    for (size_t g = 0; g < flags.size(); ++g) {
      if (flags[g].p != pair.first || flags[g].c != pair.second) continue;
      if (previous) {
        const Flag &a = flags[*previous], &b = flags[g];
        if (b.producer < a.consumer && b.producer - a.producer < distance) distance = b.producer - a.producer, best = std::make_pair(*previous, g);
      }
      previous = g;
    }
    if (!best) throw std::logic_error("insert-sync: a pipe pair has more flags waiting at once than events");
    flags[best->first].producer = flags[best->second].producer;
    flags.erase(flags.begin() + static_cast<long>(best->second));
  }

  // The next event of the pair in turn, skipping those a loop's carried flags hold across its body.
  int event(int producer, int consumer) {
    const std::set<int>& held = reserved_[producer][consumer];
    for (int tries = 0; tries < isa::kFlagEvents; ++tries) {
      int e = events_[producer][consumer]++ % isa::kFlagEvents;
      if (!held.count(e)) return e;
    }
    throw std::logic_error("insert-sync: every event of a pipe pair is held by carried flags");
  }

  // A loop body without nested work of other pipes: its iterations can be synchronised by flags.
  bool straight(const std::vector<StmtPtr>& body) const {
    for (const auto& b : body) {
      if (compound(*b) && holdsPipeWork(*b)) return false;
    }
    return true;
  }

  // A dependence from one iteration to the next through a local buffer: the statement at `first`
  // (on `consumer`) of iteration t + 1 waits for the one at `last` (on `producer`) of iteration t.
  struct Carried {
    Pipe producer, consumer;
    size_t last, first;
    bool operator<(const Carried& o) const {
      return std::tie(producer, consumer, last, first) < std::tie(o.producer, o.consumer, o.last, o.first);
    }
  };

  std::set<Carried> carried(const std::vector<StmtPtr>& body) const {
    std::vector<Pipe> pipes;
    std::vector<Access> accesses;
    std::map<int, std::vector<size_t>> touching;  // per local buffer, the statements reading or writing it
    for (size_t i = 0; i < body.size(); ++i) {
      accesses.push_back(bufferAccess(*body[i]));
      pipes.push_back(compound(*body[i]) ? Pipe::S : statementPipe(k_, *body[i]));
      std::set<int> touched = accesses[i].reads;
      touched.insert(accesses[i].writes.begin(), accesses[i].writes.end());
      for (int b : touched) {
        if (b >= 0 && static_cast<size_t>(b) < k_.buffers.size() && k_.buffers[static_cast<size_t>(b)].role == loop::Buffer::Role::Local) {
          touching[b].push_back(i);
        }
      }
    }
    std::set<Carried> out;
    for (const auto& [buffer, statements] : touching) {
      for (int p = 0; p < isa::kPipeCount; ++p) {
        for (int c = 0; c < isa::kPipeCount; ++c) {
          if (p == c) continue;
          // a conflict needs a write on one side
          bool pWrites = false, cWrites = false;
          for (size_t i : statements) {
            if (static_cast<int>(pipes[i]) == p && accesses[i].writes.count(buffer)) pWrites = true;
            if (static_cast<int>(pipes[i]) == c && accesses[i].writes.count(buffer)) cWrites = true;
          }
          std::optional<size_t> last, first;
          for (size_t i : statements) {
            bool reads = accesses[i].reads.count(buffer) > 0, writes = accesses[i].writes.count(buffer) > 0;
            if (static_cast<int>(pipes[i]) == p && (writes || (reads && cWrites))) last = i;
            if (static_cast<int>(pipes[i]) == c && !first && (writes || (reads && pWrites))) first = i;
          }
          // with last < first the flag inside an iteration orders them, and so the iterations too
          if (last && first && *last >= *first) out.insert(Carried{static_cast<Pipe>(p), static_cast<Pipe>(c), *last, *first});
        }
      }
    }
    return merged(out);
  }

  // At most kCarriedPerPair flags per pipe pair, so that a body's events stay distinct: two flags
  // merge into one set after the later producer and waited for before the earlier consumer (always
  // correct, less overlap), the pair whose consumers are closest first.
  static constexpr size_t kCarriedPerPair = 2;
  static std::set<Carried> merged(const std::set<Carried>& in) {
    std::map<std::pair<Pipe, Pipe>, std::vector<Carried>> byPair;
    for (const Carried& c : in) byPair[{c.producer, c.consumer}].push_back(c);
    std::set<Carried> out;
    for (auto& [pair, flags] : byPair) {
      std::sort(flags.begin(), flags.end(), [](const Carried& a, const Carried& b) { return a.first < b.first; });
      while (flags.size() > kCarriedPerPair) {
        size_t best = 0;
        for (size_t i = 1; i + 1 < flags.size(); ++i) {
          if (flags[i + 1].first - flags[i].first < flags[best + 1].first - flags[best].first) best = i;
        }
        flags[best].last = std::max(flags[best].last, flags[best + 1].last);
        flags.erase(flags.begin() + static_cast<long>(best) + 1);
      }
      out.insert(flags.begin(), flags.end());
    }
    return out;
  }

  const loop::Kernel& k_;
  std::array<std::array<int, isa::kPipeCount>, isa::kPipeCount> events_{};  // next event per flag pair
  std::array<std::array<std::set<int>, isa::kPipeCount>, isa::kPipeCount> reserved_{};  // held across a loop body
};

}  // namespace

namespace {

bool isBarrier(const StmtPtr& s) { return s->kind == loop::StmtKind::Sync && s->sync == loop::Stmt::SyncKind::Barrier; }

// A barrier right after another one drains nothing (in every nested list too), and neither does one
// that starts the kernel.
std::vector<StmtPtr> withoutRedundantBarriers(const std::vector<StmtPtr>& in, bool kernelStart) {
  std::vector<StmtPtr> out;
  for (const auto& s : in) {
    if (isBarrier(s) && ((out.empty() && kernelStart) || (!out.empty() && isBarrier(out.back())))) continue;
    auto copy = std::make_shared<loop::Stmt>(*s);
    copy->body = withoutRedundantBarriers(s->body, kernelStart && out.empty() && s->kind == loop::StmtKind::For &&
                                                      s->forKind == loop::ForKind::Cores);
    copy->orelse = withoutRedundantBarriers(s->orelse, false);
    out.push_back(copy);
  }
  return out;
}

}  // namespace

Pipe statementPipe(const loop::Kernel& k, const loop::Stmt& s) {
  if (s.kind == loop::StmtKind::Vector) return Pipe::V;
  if (s.kind == loop::StmtKind::Cube) return s.op == "mmad" ? Pipe::M : s.op == "fix" ? Pipe::FIX : Pipe::MTE1;
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
  out.body = loop::block(withoutRedundantBarriers(s.list(top), true));
  return out;
}

}  // namespace pyasc::codegen
