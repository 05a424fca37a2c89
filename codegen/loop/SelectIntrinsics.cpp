// Stage select-intrinsics: DMA, broadcasts, vector instructions and scalar element loops.
#include "codegen/loop/SelectIntrinsics.h"

#include <optional>

#include "codegen/loop/IndexMath.h"

namespace pyasc::codegen {

namespace {

using loop::Expr;
using loop::Ref;
using loop::StmtPtr;
using te::Op;

class Selector {
 public:
  Selector(const loop::Kernel& k, const SourceLocation& where) : k_(k), where_(where) {}

  loop::Kernel run() {
    k_.body = rewrite(k_.body);
    return std::move(k_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw CompileError(where_, "te.compute: " + what); }

  const loop::Buffer& buffer(int b) const { return k_.buffers[static_cast<size_t>(b)]; }
  bool isGm(int b) const { return buffer(b).scope == isa::Space::GM; }

  StmtPtr rewrite(const StmtPtr& s) {
    if (s->kind == loop::StmtKind::For && s->forKind == loop::ForKind::Vectorized) return select(*s);
    auto copy = std::make_shared<loop::Stmt>(*s);
    for (auto& b : copy->body) b = rewrite(b);
    for (auto& b : copy->orelse) b = rewrite(b);
    copy->body = flattenBlocks(copy->body);
    copy->orelse = flattenBlocks(copy->orelse);
    return copy;
  }

  static StmtPtr dma(Ref dst, Ref src, int64_t len) {
    auto s = std::make_shared<loop::Stmt>();
    s->kind = loop::StmtKind::Dma;
    s->dst = std::move(dst);
    s->srcs = {std::move(src)};
    s->rows = intConst(1);
    s->len = intConst(len);
    s->dstStride = intConst(0);
    s->srcStride = intConst(0);
    return s;
  }

  static StmtPtr vector(const std::string& op, Ref dst, std::vector<Ref> srcs, int64_t count, Expr scalar = nullptr) {
    auto s = std::make_shared<loop::Stmt>();
    s->kind = loop::StmtKind::Vector;
    s->op = op;
    s->dst = std::move(dst);
    s->srcs = std::move(srcs);
    s->count = intConst(count);
    s->scalar = std::move(scalar);
    return s;
  }

  StmtPtr select(const loop::Stmt& l) {
    int64_t n = *constValue(l.extent);
    const loop::Stmt& st = *l.body.at(0);
    int v = l.var;
    auto target = linearIn(st.index, v);
    // a copy: dst[...] = src[...]
    if (st.value->op == Op::Load && (isGm(st.buffer) || isGm(st.value->tensor)) && target) {
      auto source = linearIn(st.value->args[0], v);
      if (source && target->stride == 1 && source->stride == 1) {
        return dma(Ref{st.buffer, target->base}, Ref{st.value->tensor, source->base}, n);
      }
      if (source && target->stride == 1 && source->stride == 0 && !isGm(st.buffer)) {
        return vector("vdup", Ref{st.buffer, target->base}, {}, n, st.value);
      }
      if (target->stride == 1 && !isGm(st.buffer) && isGm(st.value->tensor)) {
        if (auto c = clampedLinear(st.value->args[0], v)) return clampedCopy(l, *target, *c, n);
      }
      return elementLoop(l);
    }
    if (!isGm(st.buffer) && target && target->stride == 0) return laneReduction(l, target->base);
    if (isGm(st.buffer) || !target || target->stride != 1) return elementLoop(l);
    // a computation into a UB tile over UB tiles read at the lane
    Ref dst{st.buffer, target->base};
    lane_ = v;
    count_ = n;
    Ref result = compute(st.value, &dst);
    std::vector<StmtPtr> list = std::move(emitted_);
    emitted_.clear();
    if (result.buffer != dst.buffer || !sameExpr(result.offset, dst.offset)) {
      list.push_back(vector(buffer(dst.buffer).dtype == buffer(result.buffer).dtype ? "vmov" : "vconv", dst, {result}, n));
    }
    return loop::block(std::move(list));
  }

  // acc[i] = combine(acc[i], f(lane)) over the lanes: f into a tile, folded across the lanes into one
  // element (vcadd/vcmax/vcmin after pairwise folding), then combined with the accumulator.
  StmtPtr laneReduction(const loop::Stmt& l, const Expr& at) {
    const loop::Stmt& st = *l.body.at(0);
    static const std::map<Op, std::string> combines = {{Op::Add, "add"}, {Op::Max, "max"}, {Op::Min, "min"}};
    auto it = combines.find(st.value->op);
    auto isAcc = [&](const Expr& e) { return e->op == Op::Load && e->tensor == st.buffer && sameExpr(e->args[0], at); };
    if (it == combines.end() || (!isAcc(st.value->args[0]) && !isAcc(st.value->args[1]))) {
      fail("every lane of '" + k_.vars[static_cast<size_t>(l.var)] + "' stores one element: only sum, max and min "
           "reduce across lanes");
    }
    const Expr& source = isAcc(st.value->args[0]) ? st.value->args[1] : st.value->args[0];
    lane_ = l.var;
    count_ = *constValue(l.extent);
    Ref part = compute(source, nullptr);
    Ref folded = temporary(st.value->dtype);
    emitted_.push_back(vector("vc" + it->second, folded, {part}, count_));
    Ref acc{st.buffer, at};
    emitted_.push_back(vector("v" + it->second, acc, {acc, folded}, 1));
    std::vector<StmtPtr> list = std::move(emitted_);
    emitted_.clear();
    return loop::block(std::move(list));
  }

  // idx = base + clamp(lane + offset) with lane-free bounds (either may be absent): a window that
  // reads the same element for every lane past a border.
  struct Clamped {
    Expr base, offset, lo, hi;
  };
  std::optional<Clamped> clampedLinear(const Expr& idx, int lane) const {
    Clamped c{intConst(0), nullptr, nullptr, nullptr};
    Expr e = idx;
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
        Expr& bound = e->op == Op::Max ? c.lo : c.hi;
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

  // A clamped window: where the whole unclamped window lies in the tensor, one DMA of it and the
  // lanes past a border set on the scalar unit from the lane at the border; elsewhere (a window
  // crossing the tensor's first or last element) element by element.
  StmtPtr clampedCopy(const loop::Stmt& l, const Linear& target, const Clamped& c, int64_t n) {
    const loop::Stmt& st = *l.body.at(0);
    int staging = st.buffer, source = st.value->tensor;
    Expr start = add(c.base, c.offset);  // the unclamped window's first element
    int64_t elements = buffer(source).elements;
    std::vector<Expr> fits = {te::node(Op::Ge, DType::Bool, {start, intConst(0)}),
                              te::node(Op::Le, DType::Bool, {add(start, intConst(n)), intConst(elements)})};
    std::vector<StmtPtr> fast;
    fast.push_back(dma(Ref{staging, target.base}, Ref{source, start}, n));
    auto patch = [&](Expr from, Expr to, Expr lane) {  // staging[p] = staging[lane] for p in [from, to)
      int p = k_.addVar(k_.vars[static_cast<size_t>(l.var)] + ".edge");
      Expr value = te::load(staging, buffer(staging).dtype, {add(target.base, lane)});
      fast.push_back(loop::forLoop(p, from, sub(to, from), loop::ForKind::Serial,
                                   {loop::store(staging, add(target.base, te::var(p)), value)}));
    };
    auto clampTo = [&](Expr x, int64_t lo, int64_t hi) {
      return minOf(te::node(Op::Max, DType::Int32, {x, intConst(lo)}), intConst(hi));
    };
    if (c.lo) {  // lanes before lo - offset read the element at lo
      Expr edge = sub(c.lo, c.offset);
      fits.push_back(te::node(Op::Lt, DType::Bool, {edge, intConst(n)}));
      patch(intConst(0), clampTo(edge, 0, n), edge);
    }
    if (c.hi) {  // lanes after hi - offset read the element at hi
      Expr edge = sub(c.hi, c.offset);
      fits.push_back(te::node(Op::Ge, DType::Bool, {edge, intConst(0)}));
      patch(clampTo(add(edge, intConst(1)), 0, n), intConst(n), edge);
    }
    return loop::ifThen(allOf(fits), std::move(fast), {elementLoop(l)});
  }

  // The loop as it is, run element by element on the scalar unit.
  static StmtPtr elementLoop(const loop::Stmt& l) {
    auto s = std::make_shared<loop::Stmt>(l);
    s->forKind = loop::ForKind::Serial;
    return s;
  }

  Ref temporary(DType t) {
    loop::Buffer b;
    b.name = "tmp" + std::to_string(temps_++);
    b.dtype = t;
    b.elements = count_;
    k_.buffers.push_back(b);
    return Ref{static_cast<int>(k_.buffers.size()) - 1, intConst(0)};
  }

  // A float or int immediate, or null.
  static const te::ComputeNode* immediate(const Expr& e) {
    return e->op == Op::Float || e->op == Op::Int ? e.get() : nullptr;
  }
  static double immediateValue(const te::ComputeNode* c) { return c->op == Op::Float ? c->fval : static_cast<double>(c->ival); }
  static Expr immediateOf(double v, DType t) { return isFloat(t) ? te::floatImm(v, t) : te::intImm(static_cast<int64_t>(v), t); }

  // Emits the vector instructions computing `e` over the tile; the result's place (`into` when given
  // and the last instruction can write there).
  Ref compute(const Expr& e, const Ref* into) {
    auto out = [&](DType t) { return into && buffer(into->buffer).dtype == t ? *into : temporary(t); };
    auto emit = [&](const std::string& op, DType t, std::vector<Ref> srcs, Expr scalar = nullptr) {
      Ref d = out(t);
      emitted_.push_back(vector(op, d, std::move(srcs), count_, std::move(scalar)));
      return d;
    };
    switch (e->op) {
      case Op::Load: {
        if (isGm(e->tensor)) fail("a GM read inside a vector computation (stage-operands must stage it)");
        auto at = linearIn(e->args[0], lane_);
        if (!at || at->stride != 1) fail("a UB tile read at an index other than the lane");
        return Ref{e->tensor, at->base};
      }
      case Op::Float:
      case Op::Int: return emit("vdup", e->dtype, {}, e);
      case Op::Add:
      case Op::Mul:
      case Op::Min:
      case Op::Max: {
        static const std::map<Op, std::string> names = {{Op::Add, "add"}, {Op::Mul, "mul"}, {Op::Min, "min"}, {Op::Max, "max"}};
        const te::ComputeNode* c0 = immediate(e->args[0]);
        const te::ComputeNode* c1 = immediate(e->args[1]);
        if (c0 || c1) {  // commutative: the tensor first, the immediate as the scalar
          const Expr& x = c0 ? e->args[1] : e->args[0];
          Ref a = compute(x, nullptr);
          return emit("v" + names.at(e->op) + "s", e->dtype, {a}, c0 ? e->args[0] : e->args[1]);
        }
        Ref a = compute(e->args[0], nullptr), b = compute(e->args[1], nullptr);
        return emit("v" + names.at(e->op), e->dtype, {a, b});
      }
      case Op::Sub: {
        if (const te::ComputeNode* c = immediate(e->args[1])) {
          Ref a = compute(e->args[0], nullptr);
          return emit("vadds", e->dtype, {a}, immediateOf(-immediateValue(c), e->dtype));
        }
        Ref a = compute(e->args[0], nullptr), b = compute(e->args[1], nullptr);
        return emit("vsub", e->dtype, {a, b});
      }
      case Op::Div: {
        Ref a = compute(e->args[0], nullptr), b = compute(e->args[1], nullptr);
        return emit("vdiv", e->dtype, {a, b});
      }
      case Op::Neg: {
        Ref a = compute(e->args[0], nullptr);
        return emit("vmuls", e->dtype, {a}, immediateOf(-1, e->dtype));
      }
      case Op::Call: {
        static const std::map<std::string, std::string> names = {{"exp", "vexp"}, {"log", "vln"}, {"sqrt", "vsqrt"},
                                                                 {"rsqrt", "vrsqrt"}, {"abs", "vabs"}, {"relu", "vrelu"}};
        Ref a = compute(e->args[0], nullptr);
        return emit(names.at(e->fn), e->dtype, {a});
      }
      case Op::Cast: {
        Ref a = compute(e->args[0], nullptr);
        return emit(e->args[0]->dtype == e->dtype ? "vmov" : "vconv", e->dtype, {a});
      }
      default: break;
    }
    fail(std::string("'") + te::opName(e->op) + "' of " + dtypeName(e->dtype) + " values has no vector lowering yet");
  }

  loop::Kernel k_;
  SourceLocation where_;
  int lane_ = -1;
  int64_t count_ = 0;
  int temps_ = 0;
  std::vector<StmtPtr> emitted_;
};

}  // namespace

loop::Kernel selectIntrinsics(const loop::Kernel& k, const SourceLocation& where) { return Selector(k, where).run(); }

}  // namespace pyasc::codegen
