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
    {
      LoopRangeScope inside(*s, ranges_);
      for (auto& b : copy->body) b = rewrite(b);
    }
    for (auto& b : copy->orelse) b = rewrite(b);
    copy->body = loadsFirst(k_, flattenBlocks(copy->body));
    copy->orelse = loadsFirst(k_, flattenBlocks(copy->orelse));
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
    if (n == 1 && target) target->stride = 1;  // one lane: the element it stores is the lane's
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
        if (auto c = clampedWindow(st.value->args[0], v)) return clampedCopy(l, *target, *c, n);
      }
      return elementLoop(l);
    }
    if (!isGm(st.buffer) && target && target->stride == 0) return laneReduction(l, target->base);
    if (st.value->op == Op::Load && target && target->stride == 1 && !isGm(st.buffer)) {  // a local copy
      auto source = linearIn(st.value->args[0], v);
      const int64_t block = std::max<int64_t>(32 / dtypeSize(st.value->dtype), 1);
      if (!source || source->stride != 1 || !multipleOf(source->base, block)) return elementLoop(l);
    }
    if (isGm(st.buffer) || !target || target->stride != 1) return elementLoop(l);
    // a computation into a UB tile over UB tiles read at the lane (into a temporary when the tile
    // does not start on a block, copied there on the scalar unit)
    const DType t = buffer(st.buffer).dtype;
    const bool aligned = multipleOf(target->base, std::max<int64_t>(32 / dtypeSize(t), 1));
    lane_ = v;
    count_ = n;
    Ref dst = aligned ? Ref{st.buffer, target->base} : temporary(t);
    Ref result = compute(st.value, &dst);
    std::vector<StmtPtr> list = std::move(emitted_);
    emitted_.clear();
    if (result.buffer != dst.buffer || !sameExpr(result.offset, dst.offset)) {
      list.push_back(vector(t == buffer(result.buffer).dtype ? "vmov" : "vconv", dst, {result}, n));
    }
    if (!aligned) {
      int p = k_.addVar(k_.vars[static_cast<size_t>(v)] + ".el");
      list.push_back(loop::forLoop(p, intConst(0), intConst(n), loop::ForKind::Serial,
                                   {loop::store(st.buffer, add(target->base, te::var(p)), te::load(dst.buffer, t, {te::var(p)}))}));
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
    const int64_t block = std::max<int64_t>(32 / dtypeSize(st.value->dtype), 1);
    if (multipleOf(at, block)) {
      emitted_.push_back(vector("v" + it->second, acc, {acc, folded}, 1));
    } else {  // an element off a block: combined in a temporary, copied in and out on the scalar unit
      Ref held = temporary(st.value->dtype);
      emitted_.push_back(loop::store(held.buffer, intConst(0), te::load(st.buffer, st.value->dtype, {at})));
      emitted_.push_back(vector("v" + it->second, held, {held, folded}, 1));
      emitted_.push_back(loop::store(st.buffer, at, te::load(held.buffer, st.value->dtype, {intConst(0)})));
    }
    std::vector<StmtPtr> list = std::move(emitted_);
    emitted_.clear();
    return loop::block(std::move(list));
  }

  // A clamped window: one DMA of the unclamped window and the lanes past a border set on the
  // scalar unit from the lane at the border (loops of no iteration where no lane is past it). Where
  // the enclosing loops' ranges do not prove the window inside the tensor, that runs under a
  // condition; a window crossing the tensor's first or last element by less than one 32-byte block
  // loads the rest by DMA and that block element by element; any other, element by element.
  StmtPtr clampedCopy(const loop::Stmt& l, const Linear& target, const ClampedWindow& c, int64_t n) {
    const loop::Stmt& st = *l.body.at(0);
    int staging = st.buffer, source = st.value->tensor;
    const int64_t elements = buffer(source).elements;
    const int64_t block = std::max<int64_t>(32 / dtypeSize(buffer(staging).dtype), 1);
    auto compare = [](Op op, Expr a, Expr b) { return te::node(op, DType::Bool, {std::move(a), std::move(b)}); };
    auto clampTo = [&](Expr x, int64_t lo, int64_t hi) {
      return minOf(maxOf(x, intConst(lo)), intConst(hi));
    };
    Expr start = add(c.base, c.offset);  // the unclamped window's first element
    Expr loEdge = c.lo ? sub(c.lo, c.offset) : nullptr, hiEdge = c.hi ? sub(c.hi, c.offset) : nullptr;
    std::vector<Expr> edgesInside;  // the lanes at the borders lie in the window
    std::optional<Interval> lo = loEdge ? intervalOf(loEdge, ranges_) : std::nullopt;
    std::optional<Interval> hi = hiEdge ? intervalOf(hiEdge, ranges_) : std::nullopt;
    if (loEdge && !(lo && lo->hi < n)) edgesInside.push_back(compare(Op::Lt, loEdge, intConst(n)));
    if (hiEdge && !(hi && hi->lo >= 0)) edgesInside.push_back(compare(Op::Ge, hiEdge, intConst(0)));
    auto patches = [&](std::vector<StmtPtr>& list) {
      auto patch = [&](Expr from, Expr to, Expr lane) {  // staging[p] = staging[lane] for p in [from, to)
        int p = k_.addVar(k_.vars[static_cast<size_t>(l.var)] + ".edge");
        Expr value = te::load(staging, buffer(staging).dtype, {add(target.base, lane)});
        list.push_back(loop::forLoop(p, from, sub(to, from), loop::ForKind::Serial,
                                     {loop::store(staging, add(target.base, te::var(p)), value)}));
      };
      // lanes before lo's read the element at lo, those after hi's the one at hi (where the loops' ranges
      // leave any such lane)
      if (loEdge && !(lo && lo->hi <= 0)) patch(intConst(0), clampTo(loEdge, 0, n), loEdge);
      if (hiEdge && !(hi && hi->lo >= n - 1)) patch(clampTo(add(hiEdge, intConst(1)), 0, n), intConst(n), hiEdge);
    };
    auto lanes = [&](int64_t from, int64_t to) {  // lanes [from, to) element by element
      int p = k_.addVar(k_.vars[static_cast<size_t>(l.var)] + ".el");
      return loop::forLoop(p, intConst(from), intConst(to - from), loop::ForKind::Serial,
                           {loop::store(staging, add(target.base, te::var(p)), substitute(st.value, {{l.var, te::var(p)}}))});
    };
    std::vector<StmtPtr> fast{dma(Ref{staging, target.base}, Ref{source, start}, n)};
    patches(fast);
    if (windowInside(c, n, elements, ranges_)) return choose(edgesInside, std::move(fast), {elementLoop(l)});
    std::vector<Expr> fits = edgesInside;
    fits.push_back(compare(Op::Ge, start, intConst(0)));
    fits.push_back(compare(Op::Le, add(start, intConst(n)), intConst(elements)));
    StmtPtr slow = elementLoop(l);
    if (n > block && n <= elements) {
      std::vector<Expr> tail = edgesInside, head = edgesInside;  // crossing the last, the first element
      tail.push_back(compare(Op::Gt, add(start, intConst(n)), intConst(elements)));
      tail.push_back(compare(Op::Le, add(start, intConst(n - block)), intConst(elements)));
      std::vector<StmtPtr> tailList{dma(Ref{staging, target.base}, Ref{source, start}, n - block), lanes(n - block, n)};
      patches(tailList);
      slow = choose(tail, std::move(tailList), {slow});
      head.push_back(compare(Op::Lt, start, intConst(0)));
      head.push_back(compare(Op::Ge, add(start, intConst(block)), intConst(0)));
      std::vector<StmtPtr> headList{dma(Ref{staging, add(target.base, intConst(block))}, Ref{source, add(start, intConst(block))}, n - block),
                                    lanes(0, block)};
      patches(headList);
      slow = choose(head, std::move(headList), {slow});
    }
    return choose(fits, std::move(fast), {slow});
  }

  // `then` where every condition holds, `otherwise` where one does not: the code of the branch the
  // enclosing loops' ranges decide, or a condition on those they leave open.
  StmtPtr choose(const std::vector<Expr>& conditions, std::vector<StmtPtr> then, std::vector<StmtPtr> otherwise) const {
    std::vector<Expr> open;
    for (const Expr& c : conditions) {
      std::optional<bool> known = truthOf(c, ranges_);
      if (known && !*known) return loop::block(std::move(otherwise));
      if (!known) open.push_back(c);
    }
    if (open.empty()) return loop::block(std::move(then));
    return loop::ifThen(allOf(open), std::move(then), std::move(otherwise));
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
        if (!at || (at->stride != 1 && count_ != 1)) fail("a UB tile read at an index other than the lane");
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
  std::map<int, Interval> ranges_;  // the values of the enclosing loops' variables
};

}  // namespace

loop::Kernel selectIntrinsics(const loop::Kernel& k, const SourceLocation& where) { return Selector(k, where).run(); }

}  // namespace pyasc::codegen
