// Stage stage-operands: GM reads and writes of vectorized loops go through UB tiles.
#include "codegen/loop/StageOperands.h"

#include <optional>

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
    k_.body = accumulate(k_.body);
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

  // ---- reductions: the output tile accumulates in UB across the reduce loops (cache_write)

  // Stores into GM under `s`: vectorized loops of one store, and stores outside any loop; with the If
  // guarding each (or null). Cores loops are not entered.
  struct GmStore {
    StmtPtr stmt;   // the vectorized loop, or the store itself
    StmtPtr guard;
    bool vector() const { return stmt->kind == loop::StmtKind::For; }
    const loop::Stmt& store() const { return vector() ? *stmt->body[0] : *stmt; }
    loop::Stmt& store() { return vector() ? *stmt->body[0] : *stmt; }
    int lane() const { return vector() ? stmt->var : -1; }
  };
  void gmStores(const StmtPtr& s, const StmtPtr& guard, std::vector<GmStore>& out) const {
    if (s->kind == loop::StmtKind::For && s->forKind == loop::ForKind::Vectorized) {
      if (s->body.size() == 1 && s->body[0]->kind == loop::StmtKind::Store && isGm(s->body[0]->buffer)) out.push_back({s, guard});
      return;
    }
    if (s->kind == loop::StmtKind::Store) {
      if (isGm(s->buffer)) out.push_back({s, guard});
      return;
    }
    if (s->kind == loop::StmtKind::For && s->forKind == loop::ForKind::Cores) return;
    for (const auto& b : s->body) gmStores(b, s->kind == loop::StmtKind::If ? s : guard, out);
    for (const auto& b : s->orelse) gmStores(b, guard, out);
  }

  // A statement list (a block's, a loop's or a branch's) whose stores all write one GM tile (or one
  // element) that some of them read back (an initialisation and its updates) keeps it in UB and
  // writes it back once at the list's end: a tile when the updates advance one element per lane, one
  // element when every lane of a vectorized update reduces into it.
  StmtPtr accumulate(const StmtPtr& s) {
    auto copy = std::make_shared<loop::Stmt>(*s);
    for (auto& b : copy->body) b = accumulate(b);
    for (auto& b : copy->orelse) b = accumulate(b);
    if (copy->kind == loop::StmtKind::For && copy->forKind == loop::ForKind::Vectorized) return copy;
    accumulateList(copy->body);
    accumulateList(copy->orelse);
    return copy;
  }

  void accumulateList(std::vector<StmtPtr>& list) {
    std::vector<GmStore> stores;
    for (const auto& b : list) gmStores(b, nullptr, stores);
    if (stores.size() < 2) return;
    int out = stores[0].store().buffer;
    bool readsBack = false, initialises = false;
    std::optional<Linear> first;
    int64_t extent = 0;
    for (const GmStore& g : stores) {
      const loop::Stmt& st = g.store();
      std::optional<Linear> at = g.vector() ? linearIn(st.index, g.lane()) : Linear{st.index, 0};
      int64_t n = g.vector() && at && at->stride == 1 ? constValue(g.stmt->extent).value_or(0) : 1;
      if (st.buffer != out || !at || (at->stride != 0 && at->stride != 1) || n < 1) return;
      if (!first) {
        first = at;
        extent = n;
      } else if (!sameExpr(first->base, at->base) || at->stride != first->stride || n != extent) {
        return;
      }
      bool reads = usesBuffer(st.value, out);
      readsBack = readsBack || reads;
      initialises = initialises || !reads;
    }
    // the list must hold the initialisation too: updates alone (a part of the reduce loops) are left
    // to the list that holds them all
    if (!readsBack || !initialises) return;
    const loop::Buffer gm = k_.buffers[static_cast<size_t>(out)];  // a copy: addBuffer may move the buffers
    int acc = addBuffer(gm.name + ".acc", gm.dtype, extent);
    for (GmStore& g : stores) {
      loop::Stmt& st = g.store();
      st.value = redirect(st.value, out, *first, acc, g.lane());
      st.buffer = acc;
      st.index = first->stride == 1 ? te::var(g.lane()) : intConst(0);
    }
    int w = k_.addVar(gm.name + ".wb");
    StmtPtr back = loop::forLoop(w, intConst(0), intConst(extent), loop::ForKind::Vectorized,
                                 {loop::store(out, add(first->base, te::var(w)), te::load(acc, gm.dtype, {te::var(w)}))});
    const StmtPtr& guard = stores[0].guard;
    list.push_back(guard ? loop::ifThen(guard->cond, {back}) : back);
  }

  // `e` with loads of buffer `from` at the accumulated place replaced by loads of `to`.
  Expr redirect(const Expr& e, int from, const Linear& place, int to, int lane) const {
    if (e->op == Op::Load && e->tensor == from) {
      std::optional<Linear> at = lane >= 0 ? linearIn(e->args[0], lane) : Linear{e->args[0], 0};
      if (!at || at->stride != place.stride || !sameExpr(at->base, place.base)) {
        throw CompileError(where_, "te.compute: a reduction reads its output elsewhere than the element it updates");
      }
      return te::load(to, e->dtype, {place.stride == 1 ? te::var(lane) : intConst(0)});
    }
    if (e->args.empty()) return e;
    te::ComputeNode n = *e;
    for (auto& a : n.args) a = redirect(a, from, place, to, lane);
    return std::make_shared<const te::ComputeNode>(std::move(n));
  }

  int addBuffer(const std::string& base, DType t, int64_t elements) {
    loop::Buffer b;
    b.name = k_.freshBufferName(base);
    b.scope = isa::Space::UB;
    b.dtype = t;
    b.elements = elements;
    k_.buffers.push_back(b);
    return static_cast<int>(k_.buffers.size()) - 1;
  }

  // Whether a load of a local buffer reads consecutive elements from the start of a 32-byte block at
  // the first lane of `v` (a vector operand as it is); others (but the element a reduction updates)
  // are copied into a tile first.
  bool alignedRead(const Expr& load, int v, int64_t lanes) const {
    std::optional<Linear> at = linearIn(load->args[0], v);
    const int64_t block = std::max<int64_t>(32 / dtypeSize(load->dtype), 1);
    return at && (at->stride == 1 || lanes == 1) && multipleOf(at->base, block);
  }

  // Replaces GM loads in `e` (and local reads a vector operand cannot take as they are) by loads of
  // their tiles at `v`, creating the tiles and their copies.
  Expr replaceLoads(const Expr& e, int v, int lane, int64_t extent, int self, std::vector<Expr>& staged, std::vector<int>& tiles,
                    std::vector<StmtPtr>& copies) {
    if (e->op == Op::Load && (isGm(e->tensor) || (e->tensor != self && !alignedRead(e, v, extent)))) {
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
    for (auto& a : n.args) a = replaceLoads(a, v, lane, extent, self, staged, tiles, copies);
    return std::make_shared<const te::ComputeNode>(std::move(n));
  }

  StmtPtr stage(const loop::Stmt& loopStmt) {
    std::optional<int64_t> extent = constValue(loopStmt.extent);
    if (!extent || loopStmt.body.size() != 1 || loopStmt.body[0]->kind != loop::StmtKind::Store) {
      throw CompileError(where_, "a vectorized loop must hold one store and have a constant extent");
    }
    if (*extent < 1) return loop::block({});  // runs no iteration: nothing to stage
    const loop::Stmt& st = *loopStmt.body[0];
    int v = loopStmt.var;
    if (usesBuffer(st.value, st.buffer) && isGm(st.buffer)) {
      auto at = linearIn(st.index, v);
      std::string lane = "'" + k_.vars[static_cast<size_t>(v)] + "'";
      throw CompileError(where_, at && at->stride > 1
                                     ? "te.compute: the reduction's vectorized loop " + lane + " writes every " +
                                           std::to_string(at->stride) + "th output element; vectorize the output's last axis"
                                     : "te.compute: the reduction over the vectorized loop " + lane +
                                           " is not lowered yet; vectorize the output's last axis or a reduce axis "
                                           "reading a last dimension");
    }
    std::vector<Expr> staged;
    std::vector<int> tiles;
    std::vector<StmtPtr> list;
    int lane = k_.addVar(k_.vars[static_cast<size_t>(v)] + ".v");
    Expr value = replaceLoads(st.value, v, lane, *extent, st.buffer, staged, tiles, list);
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
