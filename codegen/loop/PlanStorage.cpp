// Stage plan-storage: offsets of local buffers, first fit in declaration order, sharing space between
// buffers of phases the pipes drain between.
#include "codegen/loop/PlanStorage.h"

#include <algorithm>
#include <map>

#include "codegen/loop/IndexMath.h"

namespace pyasc::codegen {

namespace {

// The statements of a core, in order: the body of the loop bound to the cores (or the kernel's).
std::vector<loop::StmtPtr> coreStatements(const loop::StmtPtr& body) {
  std::vector<loop::StmtPtr> list = flattenBlocks({body});
  if (list.size() == 1 && list[0]->kind == loop::StmtKind::For && list[0]->forKind == loop::ForKind::Cores) {
    return flattenBlocks(list[0]->body);
  }
  return list;
}

// Per buffer, the first and last phase of the core's statements that use it: a statement holding
// loops or conditions with pipe work is drained before and after (stage insert-sync), a phase of its
// own; consecutive other statements share one. Buffers used only in different phases never live at
// once.
std::map<int, std::pair<int, int>> lifetimes(const loop::Kernel& k) {
  std::map<int, std::pair<int, int>> out;
  int phase = 0;
  bool open = false;  // the current phase holds plain statements
  for (const auto& s : coreStatements(k.body)) {
    bool drained = (s->kind == loop::StmtKind::For || s->kind == loop::StmtKind::If) && holdsPipeWork(*s);
    if (drained || !open) ++phase;
    open = !drained;
    BufferAccess a = bufferAccess(*s);
    std::vector<int> used(a.reads.begin(), a.reads.end());
    used.insert(used.end(), a.writes.begin(), a.writes.end());
    for (int b : used) {
      auto [it, fresh] = out.emplace(b, std::make_pair(phase, phase));
      if (!fresh) it->second.second = std::max(it->second.second, phase);
    }
  }
  return out;
}

}  // namespace

loop::Kernel planStorage(const loop::Kernel& k, const Target& target, const SourceLocation& where) {
  loop::Kernel out = k;
  const std::map<int, std::pair<int, int>> life = lifetimes(k);
  struct Placed {
    int64_t begin, end;
    std::pair<int, int> phases;
  };
  std::map<isa::Space, std::vector<Placed>> placed;
  std::map<isa::Space, int64_t> used;
  std::map<isa::Space, std::string> listed;
  for (size_t i = 0; i < out.buffers.size(); ++i) {
    loop::Buffer& b = out.buffers[i];
    if (b.role != loop::Buffer::Role::Local) continue;
    int64_t align = std::max<int64_t>(b.align, target.buffer(b.scope).align);
    int64_t bytes = (b.elements * dtypeSize(b.dtype) + align - 1) / align * align;
    auto it = life.find(static_cast<int>(i));
    std::pair<int, int> phases = it == life.end() ? std::make_pair(0, 0) : it->second;
    // the lowest aligned offset clear of every placed buffer whose phases overlap this one's
    std::vector<Placed>& others = placed[b.scope];
    int64_t at = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (const Placed& p : others) {
        bool together = p.phases.first <= phases.second && phases.first <= p.phases.second;
        if (together && p.begin < at + bytes && at < p.end) {
          at = (p.end + align - 1) / align * align;
          moved = true;
        }
      }
    }
    b.offset = at;
    others.push_back(Placed{at, at + bytes, phases});
    used[b.scope] = std::max(used[b.scope], at + bytes);
    listed[b.scope] += (listed[b.scope].empty() ? "" : ", ") + b.name + " " + std::to_string(bytes);
  }
  for (const auto& [scope, bytes] : used) {
    int64_t capacity = target.buffer(scope).size;
    if (bytes > capacity) {
      throw CompileError(where, "te.compute '" + k.name + "': its " + isa::spaceName(scope) + " buffers need " +
                                    std::to_string(bytes) + " bytes (" + listed[scope] + "), but " +
                                    isa::spaceName(scope) + " holds " + std::to_string(capacity) +
                                    " bytes; split the vectorized axis by a smaller factor");
    }
  }
  return out;
}

}  // namespace pyasc::codegen
