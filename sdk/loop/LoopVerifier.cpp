// The loop-nest IR's invariants.
#include "sdk/loop/LoopVerifier.h"

#include <map>
#include <set>

namespace pyasc::loop {

namespace {

class Verifier {
 public:
  explicit Verifier(const Kernel& k) : k_(k) {}

  std::string run() {
    for (const auto& b : k_.buffers) {
      if (b.elements < 1) return "buffer '" + b.name + "' has no elements";
      if (b.role != Buffer::Role::Local && b.scope != isa::Space::GM) return "parameter '" + b.name + "' must be in gm";
      if (b.align < 1 || (b.align & (b.align - 1)) != 0) return "buffer '" + b.name + "': alignment must be a power of two";
    }
    if (k_.body) stmt(*k_.body, false, false);
    return error_;
  }

 private:
  void fail(const std::string& what) {
    if (error_.empty()) error_ = what;
  }

  std::string bufferName(int b) const {
    return b >= 0 && static_cast<size_t>(b) < k_.buffers.size() ? k_.buffers[static_cast<size_t>(b)].name : "?";
  }

  bool validBuffer(int b, const char* where) {
    if (b < 0 || static_cast<size_t>(b) >= k_.buffers.size()) {
      fail(std::string(where) + ": buffer index out of range");
      return false;
    }
    return true;
  }

  void expr(const Expr& e, const char* where) {
    if (!e) {
      fail(std::string(where) + ": missing expression");
      return;
    }
    if (e->op == te::Op::Var) {
      if (!open_.count(e->var)) fail(std::string(where) + ": variable '" + varName(e->var) + "' is used outside its loop");
      return;
    }
    if (e->op == te::Op::Reduce) fail(std::string(where) + ": a reduction must be lowered to loops first");
    if (std::string error = te::operationError(*e); !error.empty()) fail(std::string(where) + ": " + error);
    if (e->op == te::Op::Load) {
      if (!validBuffer(e->tensor, where)) return;
      const Buffer& b = k_.buffers[static_cast<size_t>(e->tensor)];
      if (e->dtype != b.dtype) fail(std::string(where) + ": load of " + b.name + " as " + dtypeName(e->dtype));
      if (e->args.size() != 1) fail(std::string(where) + ": a load of " + b.name + " takes one flat index");
    }
    for (const auto& a : e->args) expr(a, where);
  }

  std::string varName(int v) const {
    return v >= 0 && static_cast<size_t>(v) < k_.vars.size() ? k_.vars[static_cast<size_t>(v)] : "#" + std::to_string(v);
  }

  void integer(const Expr& e, const char* where) {
    expr(e, where);
    // indices, extents and counts are int32, the type every stage computes them in
    if (e && e->dtype != DType::Int32) fail(std::string(where) + ": expected an int32, got " + dtypeName(e->dtype));
  }

  void ref(const Ref& r, const char* where) {
    if (!validBuffer(r.buffer, where)) return;
    integer(r.offset, where);
  }

  void written(int b, const char* where) {
    if (validBuffer(b, where) && k_.buffers[static_cast<size_t>(b)].role == Buffer::Role::Input) {
      fail(std::string(where) + ": input '" + bufferName(b) + "' is written");
    }
  }

  void stmts(const std::vector<StmtPtr>& list, bool inVector, bool inCores) {
    for (const auto& s : list) stmt(*s, inVector, inCores);
  }

  void stmt(const Stmt& s, bool inVector, bool inCores) {
    if (!error_.empty()) return;
    if (inVector && s.kind != StmtKind::Store && s.kind != StmtKind::Block) fail("a vectorized loop may only hold stores");
    switch (s.kind) {
      case StmtKind::Block: stmts(s.body, inVector, inCores); return;
      case StmtKind::For: {
        if (s.var < 0 || static_cast<size_t>(s.var) >= k_.vars.size()) return fail("for: variable index out of range");
        if (!defined_.insert(s.var).second) return fail("loop variable '" + varName(s.var) + "' is defined twice");
        integer(s.min, "for");
        integer(s.extent, "for");
        if (s.forKind == ForKind::Cores && inCores) fail("a cores loop inside another");
        if (s.forKind == ForKind::Pipelined && (s.copies < 2 || s.copies > kMaxBufferSets)) {
          fail("a pipelined loop needs 2 to " + std::to_string(kMaxBufferSets) + " buffer sets, not " + std::to_string(s.copies));
        }
        open_.insert(s.var);
        stmts(s.body, inVector || s.forKind == ForKind::Vectorized, inCores || s.forKind == ForKind::Cores);
        open_.erase(s.var);
        return;
      }
      case StmtKind::Store:
        written(s.buffer, "store");
        if (!validBuffer(s.buffer, "store")) return;
        integer(s.index, "store");
        expr(s.value, "store");
        if (s.value && s.value->dtype != k_.buffers[static_cast<size_t>(s.buffer)].dtype) {
          fail("store: " + std::string(dtypeName(s.value->dtype)) + " value into " + bufferName(s.buffer));
        }
        return;
      case StmtKind::If:
        expr(s.cond, "if");
        if (s.cond && s.cond->dtype != DType::Bool) fail("if: the condition must be bool");
        stmts(s.body, inVector, inCores);
        stmts(s.orelse, inVector, inCores);
        return;
      case StmtKind::Dma:
        if (s.srcs.size() != 1) return fail("dma: one source");
        ref(s.dst, "dma");
        ref(s.srcs[0], "dma");
        written(s.dst.buffer, "dma");
        for (const Expr* e : {&s.rows, &s.len, &s.dstStride, &s.srcStride}) integer(*e, "dma");
        if (error_.empty() && k_.buffers[static_cast<size_t>(s.dst.buffer)].dtype != k_.buffers[static_cast<size_t>(s.srcs[0].buffer)].dtype) {
          fail("dma: " + bufferName(s.dst.buffer) + " and " + bufferName(s.srcs[0].buffer) + " differ in dtype");
        }
        return;
      case StmtKind::Vector:
        if (s.op.empty() || (s.srcs.empty() && s.op != "vdup")) return fail("vector: an operation and its sources");
        ref(s.dst, "vector");
        written(s.dst.buffer, "vector");
        for (const auto& r : s.srcs) ref(r, "vector");
        integer(s.count, "vector");
        if (s.scalar) expr(s.scalar, "vector");
        return;
      case StmtKind::Cube: {
        static const std::map<std::string, std::pair<std::vector<isa::Space>, isa::Space>> forms = {
            {"load_l0a", {{isa::Space::L1}, isa::Space::L0A}},
            {"load_l0b", {{isa::Space::L1}, isa::Space::L0B}},
            {"mmad", {{isa::Space::L0A, isa::Space::L0B}, isa::Space::L0C}},
            {"fix", {{isa::Space::L0C}, isa::Space::GM}}};
        auto form = forms.find(s.op);
        if (form == forms.end()) return fail("cube: unknown operation '" + s.op + "'");
        if (s.srcs.size() != form->second.first.size()) return fail("cube " + s.op + ": wrong number of sources");
        ref(s.dst, "cube");
        written(s.dst.buffer, "cube");
        for (const auto& r : s.srcs) ref(r, "cube");
        if (!error_.empty()) return;
        for (size_t i = 0; i < s.srcs.size(); ++i) {
          if (k_.buffers[static_cast<size_t>(s.srcs[i].buffer)].scope != form->second.first[i]) {
            return fail("cube " + s.op + ": " + bufferName(s.srcs[i].buffer) + " is not in " + isa::spaceName(form->second.first[i]));
          }
        }
        if (k_.buffers[static_cast<size_t>(s.dst.buffer)].scope != form->second.second) {
          return fail("cube " + s.op + ": " + bufferName(s.dst.buffer) + " is not in " + isa::spaceName(form->second.second));
        }
        if (s.m < 0 || s.k < 0 || s.n < 0) return fail("cube " + s.op + ": negative tile extents");
        if (s.m > 4095 || s.k > 4095 || s.n > 4095) return fail("cube " + s.op + ": a tile extent above 4095");
        if (s.op == "load_l0a" && s.n != 0) return fail("cube load_l0a: loads m x k (n must be 0)");
        if (s.op == "load_l0b" && s.m != 0) return fail("cube load_l0b: loads k x n (m must be 0)");
        integer(s.validRows, "cube");
        integer(s.validCols, "cube");
        integer(s.op == "fix" ? s.dstStride : s.srcStride, "cube");
        return;
      }
      case StmtKind::Sync:
        if (s.sync != Stmt::SyncKind::Barrier) {
          integer(s.event, "sync");
          if (s.event && s.event->op == te::Op::Int && (s.event->ival < 0 || s.event->ival >= isa::kFlagEvents))
            fail("sync: event " + std::to_string(s.event->ival) + " is not one of 0.." + std::to_string(isa::kFlagEvents - 1));
        }
        return;
    }
  }

  const Kernel& k_;
  std::set<int> open_, defined_;
  std::string error_;
};

}  // namespace

std::string verifyKernel(const Kernel& k) { return Verifier(k).run(); }

}  // namespace pyasc::loop
