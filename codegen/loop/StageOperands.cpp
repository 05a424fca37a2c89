// Stage stage-operands: GM reads and writes of vectorized loops go through UB tiles.
#include "codegen/loop/StageOperands.h"

#include "codegen/loop/IndexMath.h"

namespace pyasc::codegen {

namespace {

using loop::Expr;
using loop::StmtPtr;
using te::Op;

class Stager {
 public:
  Stager(const loop::Kernel& k, const SourceLocation& where) : k_(k), where_(where) {}

  loop::Kernel run() {
    k_.body = rewrite(k_.body);
    return std::move(k_);
  }

 private:
  bool isGm(int buffer) const { return k_.buffers[static_cast<size_t>(buffer)].scope == isa::Space::GM; }

  StmtPtr rewrite(const StmtPtr& s) {
    if (s->kind == loop::StmtKind::For && s->forKind == loop::ForKind::Vectorized) return stage(*s);
    auto copy = std::make_shared<loop::Stmt>(*s);
    for (auto& b : copy->body) b = rewrite(b);
    for (auto& b : copy->orelse) b = rewrite(b);
    return copy;
  }

  int addBuffer(const std::string& base, DType t, int64_t elements) {
    loop::Buffer b;
    b.name = base;
    for (int n = 1; k_.findBuffer(b.name) >= 0; ++n) b.name = base + "." + std::to_string(n);
    b.scope = isa::Space::UB;
    b.dtype = t;
    b.elements = elements;
    k_.buffers.push_back(b);
    return static_cast<int>(k_.buffers.size()) - 1;
  }

  // Replaces GM loads in `e` by loads of their tiles at `v`, creating the tiles and their copies.
  Expr replaceLoads(const Expr& e, int v, int lane, int64_t extent, std::vector<Expr>& staged, std::vector<int>& tiles,
                    std::vector<StmtPtr>& copies) {
    if (e->op == Op::Load && isGm(e->tensor)) {
      for (size_t i = 0; i < staged.size(); ++i) {
        if (sameExpr(staged[i], e)) return te::load(tiles[i], e->dtype, {te::var(lane)});
      }
      int tile = addBuffer(k_.buffers[static_cast<size_t>(e->tensor)].name + ".ub", e->dtype, extent);
      int var = k_.addVar(k_.vars[static_cast<size_t>(v)] + ".ld");
      Expr source = substitute(e, {{v, te::var(var)}});
      copies.push_back(loop::forLoop(var, intConst(0), intConst(extent), loop::ForKind::Vectorized,
                                     {loop::store(tile, te::var(var), source)}));
      staged.push_back(e);
      tiles.push_back(tile);
      return te::load(tile, e->dtype, {te::var(lane)});
    }
    if (e->args.empty()) return e;
    te::ComputeNode n = *e;
    for (auto& a : n.args) a = replaceLoads(a, v, lane, extent, staged, tiles, copies);
    return std::make_shared<const te::ComputeNode>(std::move(n));
  }

  StmtPtr stage(const loop::Stmt& loopStmt) {
    std::optional<int64_t> extent = constValue(loopStmt.extent);
    if (!extent || loopStmt.body.size() != 1 || loopStmt.body[0]->kind != loop::StmtKind::Store) {
      throw CompileError(where_, "a vectorized loop must hold one store and have a constant extent");
    }
    const loop::Stmt& st = *loopStmt.body[0];
    int v = loopStmt.var;
    if (usesBuffer(st.value, st.buffer)) {
      throw CompileError(where_, "te.compute: reductions are not lowered to the NPU yet");
    }
    std::vector<Expr> staged;
    std::vector<int> tiles;
    std::vector<StmtPtr> list;
    int lane = k_.addVar(k_.vars[static_cast<size_t>(v)] + ".v");
    Expr value = replaceLoads(st.value, v, lane, *extent, staged, tiles, list);
    value = substitute(value, {{v, te::var(lane)}});
    if (!isGm(st.buffer)) {  // already a local result
      list.push_back(loop::forLoop(lane, intConst(0), intConst(*extent), loop::ForKind::Vectorized,
                                   {loop::store(st.buffer, substitute(st.index, {{v, te::var(lane)}}), value)}));
      return loop::block(std::move(list));
    }
    int result = addBuffer(k_.buffers[static_cast<size_t>(st.buffer)].name + ".ub", k_.buffers[static_cast<size_t>(st.buffer)].dtype, *extent);
    list.push_back(loop::forLoop(lane, intConst(0), intConst(*extent), loop::ForKind::Vectorized,
                                 {loop::store(result, te::var(lane), value)}));
    int out = k_.addVar(k_.vars[static_cast<size_t>(v)] + ".st");
    list.push_back(loop::forLoop(out, intConst(0), intConst(*extent), loop::ForKind::Vectorized,
                                 {loop::store(st.buffer, substitute(st.index, {{v, te::var(out)}}),
                                              te::load(result, k_.buffers[static_cast<size_t>(result)].dtype, {te::var(out)}))}));
    return loop::block(std::move(list));
  }

  static bool usesBuffer(const Expr& e, int buffer) {
    if (e->op == Op::Load && e->tensor == buffer) return true;
    for (const auto& a : e->args) {
      if (usesBuffer(a, buffer)) return true;
    }
    return false;
  }

  loop::Kernel k_;
  SourceLocation where_;
};

}  // namespace

loop::Kernel stageOperands(const loop::Kernel& k, const SourceLocation& where) { return Stager(k, where).run(); }

}  // namespace pyasc::codegen
