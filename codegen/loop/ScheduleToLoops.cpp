// Stage schedule-to-loops: axes become loops, loop primitives transform them, the body stores the element.
#include "codegen/loop/ScheduleToLoops.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "codegen/loop/DefaultSchedule.h"
#include "codegen/loop/IndexMath.h"

namespace pyasc::codegen {

namespace {

using loop::Expr;
using loop::ForKind;
using te::Op;

struct Leaf {
  Leaf(int v, int64_t e, bool r, ForKind k = ForKind::Serial) : var(v), extent(e), reduce(r), kind(k) {}
  int var;  // kernel variable of the loop
  int64_t extent;
  bool reduce;  // derived from a reduce axis only
  ForKind kind = ForKind::Serial;
  int copies = 1;    // pipelined: buffer sets
  int64_t tail = 0;  // the inner loop of a split with a remainder: the last tile's extent
  Expr fullTile;     // ... and the condition under which the tile is a full one
};

// The region of an attached compute a consumer keeps: its local buffer, first element per dimension
// (in the consumer's loop variables), and the stored shape.
struct Attached {
  int buffer = -1;
  std::vector<Expr> origin;
  std::vector<int64_t> shape;
};

class Builder {
 public:
  // The consumer: a kernel of its own, its inputs and output in GM.
  Builder(const te::ComputeDef& def, const Target& target, const SourceLocation& where)
      : def_(def), target_(target), where_(where), k_(own_) {
    k_.name = def.name;
    for (size_t i = 0; i < def.inputs.size(); ++i) {
      loop::Buffer b;
      b.name = "in" + std::to_string(i);
      b.scope = isa::Space::GM;
      b.dtype = def.inputs[i].dtype;
      b.elements = count(def.inputs[i].shape);
      b.role = loop::Buffer::Role::Input;
      k_.buffers.push_back(b);
    }
    loop::Buffer out;
    out.name = "out";
    out.scope = isa::Space::GM;
    out.dtype = def.dtype();
    out.elements = count(def.shape());
    out.role = loop::Buffer::Role::Output;
    k_.buffers.push_back(out);
    out_ = static_cast<int>(k_.buffers.size()) - 1;
    addAxes("", {});
    for (int a = 0; a < def.rank(); ++a) {
      storeAxis_.push_back(axisValue_[static_cast<size_t>(a)]);
      storeShape_.push_back(def.vars[static_cast<size_t>(a)].extent);
    }
  }

  // An attached compute (compute_at), built into its consumer's kernel `k`: it reads the consumer's
  // inputs (the kernel's first buffers) and stores the region of `shape` elements (rows padded to a
  // 32-byte block) from `origin` of its result into local buffer `out`.
  Builder(const te::ComputeDef& def, const Target& target, const SourceLocation& where, loop::Kernel& k, int out,
          const std::vector<Expr>& origin, const std::vector<int64_t>& shape)
      : def_(def), target_(target), where_(where), k_(k), out_(out) {
    prefix_ = def.name + ".";
    addAxes(prefix_, shape);
    for (int a = 0; a < def.rank(); ++a) {
      storeAxis_.push_back(axisValue_[static_cast<size_t>(a)]);
      axisValue_[static_cast<size_t>(a)] = add(origin[static_cast<size_t>(a)], axisValue_[static_cast<size_t>(a)]);
    }
    storeShape_ = paddedRows(shape, def.dtype());
  }

  // Its own schedule: the default one of its region for `target` (codegen/loop/DefaultSchedule),
  // without binding cores or buffer sets (its consumer's loops have them), on its prefixed names.
  void scheduleAttached(const Target& target) {
    te::ComputeDef region = def_;
    for (int a = 0; a < def_.rank(); ++a) region.vars[static_cast<size_t>(a)].extent = leaves_[static_cast<size_t>(a)].extent;
    for (te::ScheduleStep step : defaultComputeSchedule(region, target).steps) {
      if (step.primitive == te::Primitive::Bind || step.primitive == te::Primitive::DoubleBuffer) continue;
      for (auto& n : step.names) n = prefix_ + n;
      for (auto& r : step.results) r = prefix_ + r;
      apply(step);
    }
  }

  // The shape of a local buffer holding `shape`: its last extent rounded up to a 32-byte block, so
  // that every row starts where vector operands may.
  static std::vector<int64_t> paddedRows(std::vector<int64_t> shape, DType t) {
    const int64_t block = std::max<int64_t>(32 / dtypeSize(t), 1);
    shape.back() = (shape.back() + block - 1) / block * block;
    return shape;
  }

  // One loop per axis (the output's, then the reduce axes), named `prefix` + the axis's name; `extents`
  // replaces the output axes' extents when given.
  void addAxes(const std::string& prefix, const std::vector<int64_t>& extents) {
    for (size_t a = 0; a < def_.vars.size(); ++a) {
      const te::IterVar& v = def_.vars[a];
      int var = k_.addVar(prefix + v.name);
      int64_t extent = !v.reduce && a < extents.size() ? extents[a] : v.extent;
      leaves_.push_back(Leaf{var, extent, v.reduce});
      axisValue_.push_back(v.lo == 0 ? te::var(var) : add(te::var(var), intConst(v.lo)));
      aliases_[v.reduce ? "r" + std::to_string(a - static_cast<size_t>(def_.rank())) : "i" + std::to_string(a)] = var;
    }
  }

  void apply(const te::ScheduleStep& step) {
    step_ = &step;
    using te::Primitive;
    switch (step.primitive) {
      case Primitive::Split: split(step.names[0], step.numbers[0], step.results); break;
      case Primitive::Tile: {
        std::string a = step.names[0], b = step.names[1];
        split(a, step.numbers[0], {step.results[0], step.results[2]});
        split(b, step.numbers[1], {step.results[1], step.results[3]});
        reorder({step.results[0], step.results[1], step.results[2], step.results[3]});
        break;
      }
      case Primitive::Fuse: fuse(step.names[0], step.names[1], step.results[0]); break;
      case Primitive::Reorder: reorder(step.names); break;
      case Primitive::Bind: bind(step.names[0], step.numbers[0]); break;
      case Primitive::Unroll: mark(step.names[0], ForKind::Unrolled); break;
      case Primitive::Vectorize:
        mark(step.names[0], ForKind::Vectorized);
        vectorizeStep_ = step;
        break;
      case Primitive::DoubleBuffer: doubleBuffer(step); break;
      case Primitive::CacheRead:
      case Primitive::CacheWrite:
        // stage-operands copies what a vectorized loop reads from GM, and its result, through UB; a
        // tensorized tile goes through L1, L0A, L0B and L0C
        cacheScopes_.push_back(step);
        if (step.scope != "UB" && step.scope != "ub" && step.scope != "L1" && step.scope != "L0A" && step.scope != "L0B" &&
            step.scope != "L0C") {
          fail(std::string(te::primitiveName(step.primitive)) + ": a te.compute tile is kept in UB (or L1, L0A, L0B, L0C "
               "when tensorized), not in '" + step.scope + "'");
        }
        break;
      case Primitive::ComputeInline:
        fail("compute_inline merges a definition's intermediate te.compute into its consumers when the definition "
             "is read; a single te.compute kernel has nothing to inline");
      case Primitive::ComputeAt: {  // placed once the loops are final
        int a = 0;
        while (a < static_cast<int>(def_.attached.size()) && def_.attached[static_cast<size_t>(a)].name != step.names[0]) ++a;
        if (a == static_cast<int>(def_.attached.size())) {
          fail("compute_at: '" + step.names[0] + "' is not a te.compute attached to '" + def_.name + "'");
        }
        attachSteps_[a] = step;
        attachVar_[a] = leaves_[leafIndex(step.names[1])].var;  // followed through later splits, binds, fuses
        break;
      }
      case Primitive::Tensorize:  // the loops inside it become one tile of the cube, once they are final
        if (step.scope != "mmad") fail("tensorize: the only intrinsic is mmad");
        if (!te::contractionOf(def_)) {
          fail("tensorize: mmad takes a te.compute of the form te.sum(a[i, k] * b[k, j], axis=k) (or b[j, k]) over "
               "float16 or float32 matrices");
        }
        tensorizeStep_ = step;
        tensorizeVar_ = leaves_[leafIndex(step.names[0])].var;
        break;
      default:
        fail(std::string(te::primitiveName(step.primitive)) + " is not lowered for te.compute kernels yet");
    }
    step_ = nullptr;
  }

  // The consumer's kernel, once every step is applied.
  loop::Kernel finish() {
    loop::StmtPtr body = statements();
    std::vector<loop::StmtPtr> list = attachedIn(-1);  // attached before every loop
    if (list.empty()) {
      k_.body = body;
    } else {
      list.push_back(body);
      k_.body = loop::block(std::move(list));
    }
    return std::move(own_);
  }

  // The loop nest computing the definition (its output, or an attached compute's region).
  loop::StmtPtr statements() {
    const te::ComputeExpr reduction = te::reductionOf(def_.body);
    placeAttached();
    if (reduction && reduceLeavesUnrolled()) expandUnrolledReduction(reduction);
    applyDoubleBuffer();
    for (const auto& st : cacheScopes_) {
      if (tensorizeVar_ < 0 && st.scope != "UB" && st.scope != "ub") {
        step_ = &st;
        fail(std::string(te::primitiveName(st.primitive)) + ": a te.compute kernel stages its tiles in UB; scope '" +
             st.scope + "' holds tensorized tiles only (tensorize a contraction to mmad)");
      }
    }
    if (tensorizeVar_ >= 0) return tensorized();
    for (size_t i = 0; i + 1 < leaves_.size(); ++i) {
      if (leaves_[i].kind == ForKind::Vectorized) {
        step_ = &vectorizeStep_;
        fail("vectorize: '" + k_.vars[static_cast<size_t>(leaves_[i].var)] + "' must be the innermost loop (reorder it first)");
      }
    }
    const int out = out_;
    Expr index = flatIndex();
    if (!reduction || reduced_) return nest(0, {guarded(loop::store(out, index, lower(def_.body)))}, false);
    // acc = init; for the reduce loops: acc = combine(acc, source); then out = epilogue(acc). The
    // reduction alone accumulates in the output itself (stage-operands keeps its tile in UB).
    Expr source = lower(reduction->args[0]);
    Op combine = reduction->fn == "sum" ? Op::Add : reduction->fn == "max" ? Op::Max : Op::Min;
    accumulator_ = out;
    accIndex_ = index;
    if (def_.body != reduction) {
      int64_t elements = 1;
      accIndex_ = intConst(0);
      bool inside = false;
      // rows of the vectorized loop start on a 32-byte block, as vector operands must
      bool vectorInside = false;
      const int64_t block = std::max<int64_t>(32 / dtypeSize(reduction->dtype), 1);
      for (const Leaf& l : leaves_) {
        inside = inside || l.reduce;
        if (!inside || l.reduce) continue;
        if (l.tail) {
          step_ = &madeBy_.at(l.var);
          fail("the reduction's result is kept for the loops inside its reduce loops, and '" +
               k_.vars[static_cast<size_t>(l.var)] + "' has a shorter last tile; split it by a divisor of its extent");
        }
        int64_t extent = l.kind == ForKind::Vectorized ? (l.extent + block - 1) / block * block : l.extent;
        accIndex_ = add(mul(accIndex_, intConst(extent)), te::var(l.var));
        elements *= extent;
        vectorInside = vectorInside || l.kind == ForKind::Vectorized;
      }
      if (!vectorInside) {  // elements one by one (a lane reduction's): each on a block of its own
        accIndex_ = mul(accIndex_, intConst(block));
        elements *= block;
      }
      loop::Buffer acc;
      acc.name = prefix_ + "acc";
      acc.dtype = reduction->dtype;
      acc.elements = elements;
      k_.buffers.push_back(acc);
      accumulator_ = static_cast<int>(k_.buffers.size()) - 1;
      reduced_ = te::load(accumulator_, reduction->dtype, {accIndex_});
      epilogue_ = loop::store(out, index, lower(def_.body));
    }
    Expr update = te::node(combine, reduction->dtype, {te::load(accumulator_, reduction->dtype, {accIndex_}), source});
    reduction_ = reduction;
    return nest(0, {guarded(loop::store(accumulator_, accIndex_, update))}, true);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw CompileError(step_ && !step_->loc.file.empty() ? step_->loc : where_, what);
  }

  static int64_t count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t e : shape) n *= e;
    return n;
  }

  std::string leafNames() const {
    std::string s;
    for (const auto& l : leaves_) s += (s.empty() ? "" : ", ") + k_.vars[static_cast<size_t>(l.var)];
    return s;
  }

  size_t leafIndex(const std::string& name) const {
    auto alias = aliases_.find(name);
    for (size_t i = 0; i < leaves_.size(); ++i) {
      const std::string& var = k_.vars[static_cast<size_t>(leaves_[i].var)];
      if (var == name || (alias != aliases_.end() && alias->second == leaves_[i].var)) return i;
    }
    fail(std::string(step_ ? te::primitiveName(step_->primitive) : "schedule") + ": no loop '" + name + "' (loops: " +
         leafNames() + ")");
  }
  Leaf& leaf(const std::string& name) { return leaves_[leafIndex(name)]; }

  void replaceVar(int var, const Expr& value) {
    std::map<int, Expr> m{{var, value}};
    for (auto& v : axisValue_) v = substitute(v, m);
    for (auto& v : storeAxis_) v = substitute(v, m);
    for (auto& g : guards_) g = substitute(g, m);
    for (auto& l : leaves_) {
      if (l.fullTile) l.fullTile = substitute(l.fullTile, m);
    }
  }

  void split(const std::string& name, int64_t factor, const std::vector<std::string>& results) {
    size_t at = leafIndex(name);
    Leaf old = leaves_[at];
    if (factor < 1) fail("split: the factor must be positive");
    if (factor > old.extent) {
      fail("split: factor " + std::to_string(factor) + " exceeds the extent " + std::to_string(old.extent) + " of '" +
           k_.vars[static_cast<size_t>(old.var)] + "'");
    }
    int outer = k_.addVar(results.size() > 0 ? results[0] : name + ".o");
    int inner = k_.addVar(results.size() > 1 ? results[1] : name + ".i");
    if (old.tail) fail("split: '" + name + "' has a shorter last tile; split it by a divisor of its extent");
    int64_t tiles = (old.extent + factor - 1) / factor;
    Expr start = mul(te::var(outer), intConst(factor));
    replaceVar(old.var, add(start, te::var(inner)));
    Leaf innerLeaf{inner, factor, old.reduce, old.kind};
    if (old.extent % factor != 0) {  // the last tile runs the remainder: a loop of its own
      innerLeaf.tail = old.extent % factor;
      innerLeaf.fullTile = lessThan(te::var(outer), intConst(tiles - 1));
    }
    leaves_[at] = innerLeaf;
    leaves_.insert(leaves_.begin() + static_cast<long>(at), Leaf{outer, tiles, old.reduce});
    follow(old.var, inner);
    madeBy_[inner] = madeBy_[outer] = *step_;
  }

  // unroll, vectorize: a loop that runs one iteration after another becomes one of `kind`
  void mark(const std::string& name, ForKind kind) {
    Leaf& l = leaf(name);
    if (l.kind != ForKind::Serial) {
      fail(std::string(kind == ForKind::Unrolled ? "unroll" : "vectorize") + ": '" + name + "' is " +
           (l.kind == ForKind::Cores ? "bound to the cores" : std::string(loop::forKindName(l.kind)) + " already"));
    }
    l.kind = kind;
    madeBy_[l.var] = *step_;
  }

  // double_buffer N: the loop directly outside the vectorized one runs its iterations through N
  // buffer sets (stage double-buffer), once the schedule's loops are final.
  void doubleBuffer(const te::ScheduleStep& step) {
    if (step.numbers.empty() || step.numbers[0] < 2 || step.numbers[0] > loop::kMaxBufferSets) {
      fail("double_buffer: 2 to " + std::to_string(loop::kMaxBufferSets) + " buffer sets" +
           (step.numbers.empty() ? std::string() : ", not " + std::to_string(step.numbers[0])));
    }
    bufferSets_ = static_cast<int>(step.numbers[0]);
    bufferStep_ = step;
  }

  void applyDoubleBuffer() {
    if (bufferSets_ < 2) return;
    step_ = &bufferStep_;
    if (tensorizeVar_ >= 0) {  // the contraction's loop outside the tile loads the next chunk while one computes
      size_t t = tensorizedLeaf();
      if (t == 0 || !leaves_[t - 1].reduce || leaves_[t - 1].kind != ForKind::Serial) {
        fail("double_buffer: a tensorized tile pipelines the contraction's loop directly outside it; split the reduce "
             "axis and order its outer loop there");
      }
      leaves_[t - 1].kind = ForKind::Pipelined;
      leaves_[t - 1].copies = bufferSets_;
      step_ = nullptr;
      return;
    }
    if (leaves_.back().kind != ForKind::Vectorized) fail("double_buffer: vectorize a loop first");
    if (leaves_.size() < 2) {
      fail("double_buffer: no loop outside the vectorized '" + k_.vars[static_cast<size_t>(leaves_.back().var)] +
           "' runs tiles one after another; split it first");
    }
    Leaf& outer = leaves_[leaves_.size() - 2];
    if (outer.kind != ForKind::Serial) {
      fail("double_buffer: the loop outside the vectorized one ('" + k_.vars[static_cast<size_t>(outer.var)] +
           "') must run its iterations one after another on a core, not " + loop::forKindName(outer.kind));
    }
    outer.kind = ForKind::Pipelined;
    outer.copies = bufferSets_;
    step_ = nullptr;
  }

  void fuse(const std::string& a, const std::string& b, const std::string& result) {
    size_t ia = leafIndex(a), ib = leafIndex(b);
    if (ib != ia + 1) fail("fuse: '" + a + "' must be the loop directly outside '" + b + "'");
    Leaf outer = leaves_[ia], inner = leaves_[ib];
    if (outer.reduce != inner.reduce) fail("fuse: a reduce axis cannot be fused with an output axis");
    if (outer.tail || inner.tail) fail("fuse: a loop with a shorter last tile cannot be fused; split by a divisor first");
    int fused = k_.addVar(result);
    replaceVar(outer.var, floorDiv(te::var(fused), intConst(inner.extent)));
    replaceVar(inner.var, floorMod(te::var(fused), intConst(inner.extent)));
    leaves_[ia] = Leaf{fused, outer.extent * inner.extent, outer.reduce};
    leaves_.erase(leaves_.begin() + static_cast<long>(ib));
    follow(outer.var, fused);
    follow(inner.var, fused);
  }

  void reorder(const std::vector<std::string>& names) {
    std::vector<size_t> places;
    for (const auto& n : names) places.push_back(leafIndex(n));
    std::vector<Leaf> picked;
    for (size_t p : places) picked.push_back(leaves_[p]);
    std::sort(places.begin(), places.end());
    if (std::adjacent_find(places.begin(), places.end()) != places.end()) fail("reorder: a loop is named twice");
    for (size_t i = 0; i < places.size(); ++i) leaves_[places[i]] = picked[i];
  }

  void bind(const std::string& name, int64_t cores) {
    size_t at = leafIndex(name);
    Leaf old = leaves_[at];
    if (old.reduce) fail("bind: a reduce axis cannot be spread over cores");
    if (old.kind != ForKind::Serial) fail("bind: '" + name + "' is " + loop::forKindName(old.kind) + " already");
    if (old.tail) fail("bind: '" + name + "' has a shorter last tile; bind the loop that counts the tiles");
    if (cores < 1) fail("bind: the core count must be positive");
    for (const auto& l : leaves_) {
      if (l.kind == ForKind::Cores) fail("bind: one loop is bound to the cores already");
    }
    if (cores >= old.extent) {
      leaves_[at].kind = ForKind::Cores;
      std::rotate(leaves_.begin(), leaves_.begin() + static_cast<long>(at), leaves_.begin() + static_cast<long>(at) + 1);
      return;
    }
    int core = k_.addVar(k_.vars[static_cast<size_t>(old.var)] + ".c");
    int step = k_.addVar(k_.vars[static_cast<size_t>(old.var)] + ".s");
    Expr value = add(mul(te::var(step), intConst(cores)), te::var(core));
    if (old.extent % cores != 0) guards_.push_back(lessThan(value, intConst(old.extent)));
    replaceVar(old.var, value);
    follow(old.var, step);
    leaves_[at] = Leaf{step, (old.extent + cores - 1) / cores, false, old.kind};
    leaves_.insert(leaves_.begin(), Leaf{core, cores, false, ForKind::Cores});
  }

  // Each attached compute: at the loop its compute_at step names (without one: the loop directly
  // outside the vectorized one; never inside a reduction's loops nor at a vectorized loop), its
  // region of what the loops inside read, a local buffer for it, and its own loops at the start of
  // that loop's body.
  void placeAttached() {
    for (size_t a = 0; a < def_.attached.size(); ++a) {
      const te::ComputeDef& p = def_.attached[a];
      int at = static_cast<int>(leaves_.size()) - 1;  // the leaf whose body starts with it; -1: before all
      if (auto st = attachSteps_.find(static_cast<int>(a)); st != attachSteps_.end()) {
        step_ = &st->second;
        at = -1;
        for (size_t i = 0; i < leaves_.size(); ++i) {
          if (leaves_[i].var == attachVar_.at(static_cast<int>(a))) at = static_cast<int>(i);
        }
      }
      // with a reduction, outside its loops: what the loops inside it and the epilogue after them
      // read is then one region
      for (size_t i = 0; i < leaves_.size(); ++i) {
        if (leaves_[i].reduce) {
          at = std::min(at, static_cast<int>(i) - 1);
          break;
        }
      }
      // a vectorized loop computes its lanes at once, an unrolled reduction is one expression: the
      // loop outside them
      while (at >= 0 && (leaves_[static_cast<size_t>(at)].kind == ForKind::Vectorized ||
                         (leaves_[static_cast<size_t>(at)].kind == ForKind::Unrolled && leaves_[static_cast<size_t>(at)].reduce &&
                          reduceLeavesUnrolled()))) {
        --at;
      }
      Attached region;
      regionOf(static_cast<int>(def_.inputs.size() + a), at, region);
      loop::Buffer b;
      b.name = k_.freshBufferName(p.name);
      b.dtype = p.dtype();
      std::vector<int64_t> padded = paddedRows(region.shape, p.dtype());
      b.elements = count(padded);
      k_.buffers.push_back(b);
      region.buffer = static_cast<int>(k_.buffers.size()) - 1;
      Builder producer(p, target_, where_, k_, region.buffer, region.origin, region.shape);
      producer.scheduleAttached(target_);
      loop::StmtPtr body = producer.statements();
      region.shape = padded;
      attached_.push_back(region);
      int var = at < 0 ? -1 : leaves_[static_cast<size_t>(at)].var;
      attachedIn_[var].push_back(body);
      step_ = nullptr;
    }
  }

  // The region of tensor `t` that the loads inside leaf `at` (-1: all leaves) read: per dimension its
  // first element, in the variables of the loops outside, and its extent. An index linear in the
  // inner loops' variables gives its span; one that is not, or loads at places that differ by more
  // than a constant, take the whole dimension. The region is moved inside the tensor where it would
  // cross a border (what is read lies inside).
  void regionOf(int t, int at, Attached& out) {
    const std::vector<int64_t> dims = def_.tensor(t).shape;
    std::vector<std::vector<Expr>> reads;
    std::function<void(const te::ComputeExpr&)> collect = [&](const te::ComputeExpr& e) {
      if (e->op == Op::Load && e->tensor == t) {
        std::vector<Expr> idx;
        for (const auto& arg : e->args) idx.push_back(lower(arg));
        reads.push_back(idx);
      }
      for (const auto& arg : e->args) collect(arg);
    };
    collect(def_.body);
    for (size_t d = 0; d < dims.size(); ++d) {
      std::vector<Expr> lows;
      std::vector<int64_t> spans;
      bool known = !reads.empty();
      for (const auto& idx : reads) {
        Expr lo = idx[d];
        int64_t span = 0;
        for (size_t i = static_cast<size_t>(at + 1); known && i < leaves_.size(); ++i) {
          const Leaf& l = leaves_[i];
          std::optional<Linear> lin = linearIn(idx[d], l.var);
          if (!lin) {
            known = false;
            break;
          }
          lo = substitute(lo, {{l.var, intConst(lin->stride >= 0 ? 0 : l.extent - 1)}});
          span += (lin->stride >= 0 ? lin->stride : -lin->stride) * (l.extent - 1);
        }
        lows.push_back(lo);
        spans.push_back(span);
      }
      int64_t first = 0, end = 0;
      for (size_t k = 0; known && k < lows.size(); ++k) {
        std::optional<int64_t> off = constantDifference(lows[k], lows[0]);
        if (!off) {
          known = false;
          break;
        }
        first = k == 0 ? *off : std::min(first, *off);
        end = k == 0 ? *off + spans[k] + 1 : std::max(end, *off + spans[k] + 1);
      }
      int64_t extent = known ? std::min(end - first, dims[d]) : dims[d];
      Expr origin = known ? add(lows[0], intConst(first)) : intConst(0);
      std::map<int, Interval> outer;  // the values of the loops outside
      for (int i = 0; i <= at; ++i) outer[leaves_[static_cast<size_t>(i)].var] = Interval{0, leaves_[static_cast<size_t>(i)].extent - 1};
      std::optional<Interval> range = intervalOf(origin, outer);
      bool inside = range && range->lo >= 0 && range->hi <= dims[d] - extent;
      out.origin.push_back(inside ? origin : minOf(maxOf(origin, intConst(0)), intConst(dims[d] - extent)));
      out.shape.push_back(extent);
    }
  }

  // a - b when they differ by a constant addend, else nullopt.
  static std::optional<int64_t> constantDifference(const Expr& a, const Expr& b) {
    auto split = [](const Expr& e) -> std::pair<Expr, int64_t> {
      if (e->op == Op::Add) {
        if (auto c = constValue(e->args[1])) return {e->args[0], *c};
      }
      if (auto c = constValue(e)) return {intConst(0), *c};
      return {e, 0};
    };
    auto [xa, ca] = split(a);
    auto [xb, cb] = split(b);
    if (!sameExpr(xa, xb)) return std::nullopt;
    return ca - cb;
  }

  // compute_at follows a loop the later steps transform: to a split's inner loop, a bound loop's
  // serial part, a fused loop.
  void follow(int from, int to) {
    for (auto& [a, var] : attachVar_) {
      if (var == from) var = to;
    }
    if (tensorizeVar_ == from) tensorizeVar_ = to;
  }

  // ---- tensorize: the loops inside the tensorized loop are one tile of the cube

  size_t tensorizedLeaf() {
    for (size_t i = 0; i < leaves_.size(); ++i) {
      if (leaves_[i].var == tensorizeVar_) return i;
    }
    step_ = &tensorizeStep_;
    fail("tensorize: no loop '" + tensorizeStep_.names[0] + "' (loops: " + leafNames() + ")");
  }

  // The axis (0: rows, 1: columns, 2: contraction) a leaf's variable advances by one, or -1.
  int axisOfLeaf(const Leaf& l) const {
    int found = -1;
    for (int a = 0; a < 3; ++a) {
      std::optional<Linear> lin = linearIn(axisValue_[static_cast<size_t>(a)], l.var);
      if (!lin) return -1;
      if (lin->stride == 1 && found < 0) found = a;
      else if (lin->stride != 0) return -1;
    }
    return found;
  }

  // The nest with the tile inside the tensorized loop: per tile of the output, the contraction's
  // chunks loaded into L1 (A and B), L0A and L0B, multiplied into L0C (the first chunk initialising
  // it), and L0C written to GM once the chunks are done.
  loop::StmtPtr tensorized() {
    step_ = &tensorizeStep_;
    const size_t t = tensorizedLeaf();
    if (leaves_.size() - t != 3) {
      fail("tensorize: the loops inside '" + tensorizeStep_.names[0] + "' must be one each of rows, columns and the "
           "contraction (loops: " + leafNames() + ")");
    }
    int found[3] = {-1, -1, -1};
    for (size_t i = t; i < leaves_.size(); ++i) {
      int a = axisOfLeaf(leaves_[i]);
      if (a < 0 || found[a] >= 0 || leaves_[i].kind != ForKind::Serial) {
        fail("tensorize: '" + k_.vars[static_cast<size_t>(leaves_[i].var)] + "' is not a plain part of one axis "
             "(the tile's loops are one of rows, columns and the contraction each, serial)");
      }
      found[a] = static_cast<int>(i);
    }
    for (size_t i = 0; i < t; ++i) {
      if (leaves_[i].reduce && i + 1 != t) {
        fail("tensorize: the contraction's loop outside the tile must be directly outside '" + tensorizeStep_.names[0] + "'");
      }
    }
    for (int a = 0; a < 3; ++a) tileLeaf_[a] = found[a];
    const te::Contraction c = *te::contractionOf(def_);
    const DType in = def_.tensor(c.a).dtype;
    auto local = [&](const std::string& name, isa::Space scope, DType type) {
      loop::Buffer b;
      b.name = name;
      b.scope = scope;
      b.dtype = type;
      k_.buffers.push_back(b);
      return static_cast<int>(k_.buffers.size()) - 1;
    };
    cube_ = CubeBuffers{local("a.l1", isa::Space::L1, in), local("b.l1", isa::Space::L1, in), local("a.l0a", isa::Space::L0A, in),
                        local("b.l0b", isa::Space::L0B, in), local("c.l0c", isa::Space::L0C, DType::Float32), c};
    tensorizedAt_ = static_cast<int>(t);
    return nest(0, {}, false);
  }

  struct CubeBuffers {
    int aL1 = -1, bL1 = -1, aL0 = -1, bL0 = -1, cL0 = -1;
    te::Contraction c;
  };

  // The value of axis `a` at the first element of the tile.
  Expr tileOrigin(int a) const {
    std::map<int, Expr> zero;
    for (int i = 0; i < 3; ++i) zero[leaves_[static_cast<size_t>(tileLeaf_[i])].var] = intConst(0);
    return substitute(axisValue_[static_cast<size_t>(a)], zero);
  }

  // One chunk of the contraction: A and B into L1 (rows padded to 32 bytes), into L0A and L0B, mmad.
  std::vector<loop::StmtPtr> cubeChunk(bool init) {
    const int64_t tm = leaves_[static_cast<size_t>(tileLeaf_[0])].extent, tn = leaves_[static_cast<size_t>(tileLeaf_[1])].extent,
                  tk = leaves_[static_cast<size_t>(tileLeaf_[2])].extent;
    const DType in = k_.buffers[static_cast<size_t>(cube_.aL1)].dtype;
    const int64_t es = dtypeSize(in), block = 32 / es, c0 = block;  // a fractal row is one 32-byte block
    auto padded = [&](int64_t elems) { return (elems + block - 1) / block * block; };
    const int64_t mPad = (tm + 15) / 16 * 16, nPad = (tn + 15) / 16 * 16, kPad = (tk + c0 - 1) / c0 * c0;
    const int64_t n = def_.vars[1].extent, k = def_.vars[2].extent;
    Expr row = tileOrigin(0), col = tileOrigin(1), chunk = tileOrigin(2);
    auto grow = [&](int b, int64_t elements) {
      loop::Buffer& buf = k_.buffers[static_cast<size_t>(b)];
      buf.elements = std::max(buf.elements, elements);
    };
    auto dma = [&](int dst, int src, Expr at, int64_t rows, int64_t len, int64_t srcStride) {
      auto d = std::make_shared<loop::Stmt>();
      d->kind = loop::StmtKind::Dma;
      d->dst = loop::Ref{dst, intConst(0)};
      d->srcs = {loop::Ref{src, at}};
      d->rows = intConst(rows);
      d->len = intConst(len);
      d->dstStride = intConst(padded(len));
      d->srcStride = intConst(srcStride);
      grow(dst, rows * padded(len));
      return d;
    };
    auto cube = [&](const std::string& op, int dst, std::vector<int> srcs, int64_t cm, int64_t ck, int64_t cn, int64_t stride,
                    int64_t rows, int64_t cols) {
      auto c = std::make_shared<loop::Stmt>();
      c->kind = loop::StmtKind::Cube;
      c->op = op;
      c->dst = loop::Ref{dst, intConst(0)};
      for (int b : srcs) c->srcs.push_back(loop::Ref{b, intConst(0)});
      c->m = cm, c->k = ck, c->n = cn;
      c->srcStride = intConst(stride);
      c->validRows = intConst(rows);
      c->validCols = intConst(cols);
      return c;
    };
    const bool tb = cube_.c.transposedB;
    std::vector<loop::StmtPtr> list;
    list.push_back(dma(cube_.aL1, cube_.c.a, add(mul(row, intConst(k)), chunk), tm, tk, k));
    list.push_back(tb ? dma(cube_.bL1, cube_.c.b, add(mul(col, intConst(k)), chunk), tn, tk, k)
                      : dma(cube_.bL1, cube_.c.b, add(mul(chunk, intConst(n)), col), tk, tn, n));
    list.push_back(cube("load_l0a", cube_.aL0, {cube_.aL1}, mPad, kPad, 0, padded(tk), tm, tk));
    grow(cube_.aL0, mPad * kPad);
    auto lb = cube("load_l0b", cube_.bL0, {cube_.bL1}, 0, kPad, nPad, tb ? padded(tk) : padded(tn), tk, tn);
    lb->transposed = tb;
    list.push_back(lb);
    grow(cube_.bL0, kPad * nPad);
    auto mm = cube("mmad", cube_.cL0, {cube_.aL0, cube_.bL0}, mPad, kPad, nPad, 0, mPad, nPad);
    mm->init = init;
    list.push_back(mm);
    grow(cube_.cL0, mPad * nPad);
    return list;
  }

  // L0C's tile written to the output.
  loop::StmtPtr cubeFix() {
    const int64_t tm = leaves_[static_cast<size_t>(tileLeaf_[0])].extent, tn = leaves_[static_cast<size_t>(tileLeaf_[1])].extent;
    const int64_t n = def_.vars[1].extent;
    auto c = std::make_shared<loop::Stmt>();
    c->kind = loop::StmtKind::Cube;
    c->op = "fix";
    c->dst = loop::Ref{out_, add(mul(tileOrigin(0), intConst(n)), tileOrigin(1))};
    c->srcs = {loop::Ref{cube_.cL0, intConst(0)}};
    c->m = (tm + 15) / 16 * 16;
    c->n = (tn + 15) / 16 * 16;
    c->dstStride = intConst(n);
    c->validRows = intConst(tm);
    c->validCols = intConst(tn);
    return c;
  }

  // The statements at the tensorized loop `from` - 1 (the contraction's outer loop) or at the tile.
  loop::StmtPtr cubeNest(size_t from) {
    Expr guards = allOf(guards_);  // a core's iterations past the output (bind with a remainder)
    loop::StmtPtr block = cubeTile(from);
    return guards ? loop::ifThen(guards, {block}) : block;
  }

  loop::StmtPtr cubeTile(size_t from) {
    const Leaf& outer = leaves_[from];
    if (static_cast<int>(from) == tensorizedAt_) {  // no contraction loop outside: one chunk
      std::vector<loop::StmtPtr> list = cubeChunk(true);
      list.push_back(cubeFix());
      return loop::block(std::move(list));
    }
    // the contraction's loop: its first chunk initialises L0C, the rest accumulate (a shorter last
    // chunk apart), then the fixpipe
    Leaf& chunkLeaf = leaves_[static_cast<size_t>(tileLeaf_[2])];
    const int64_t full = chunkLeaf.extent, last = outer.extent - 1;
    auto chunkAt = [&](int64_t index, bool init) {  // the chunk of iteration `index`, as its own statements
      chunkLeaf.extent = chunkLeaf.tail && index == last ? chunkLeaf.tail : full;
      loop::StmtPtr chunk = loop::block(cubeChunk(init));
      chunkLeaf.extent = full;
      return cloneFresh(k_, chunk, {{outer.var, intConst(index)}}, index == 0 ? ".first" : ".last");
    };
    std::vector<loop::StmtPtr> list;
    list.push_back(chunkAt(0, true));
    const int64_t between = outer.extent - 1 - (chunkLeaf.tail && last > 0 ? 1 : 0);
    if (between > 0) {
      loop::StmtPtr rest = loop::forLoop(outer.var, intConst(1), intConst(between), outer.kind, cubeChunk(false));
      rest->copies = outer.copies;
      list.push_back(rest);
    }
    if (chunkLeaf.tail && last > 0) list.push_back(chunkAt(last, false));
    list.push_back(cubeFix());
    return loop::block(std::move(list));
  }

  bool reduceLeavesUnrolled() const {
    bool any = false;
    for (const Leaf& l : leaves_) {
      if (l.reduce && l.kind != ForKind::Unrolled) return false;
      any = any || l.reduce;
    }
    return any;
  }

  // Reduce loops all unrolled: the reduction becomes one expression, its operand at each point of
  // the loops in their order (points past a split's shorter last tile skipped), and the loops go.
  void expandUnrolledReduction(const te::ComputeExpr& reduction) {
    const int64_t kMaxTerms = 256;
    std::vector<Leaf> loops;
    for (const Leaf& l : leaves_) {
      if (l.reduce) loops.push_back(l);
    }
    int64_t points = 1;
    for (const Leaf& l : loops) points *= l.extent;
    if (points > kMaxTerms) {
      step_ = &madeBy_.at(loops.back().var);
      fail("unroll: the unrolled reduce loops run the reduction's operand " + std::to_string(points) +
           " times; unroll at most " + std::to_string(kMaxTerms));
    }
    Expr source = lower(reduction->args[0]);
    Op combine = reduction->fn == "sum" ? Op::Add : reduction->fn == "max" ? Op::Max : Op::Min;
    Expr value;
    std::vector<int64_t> at(loops.size(), 0);
    for (int64_t p = 0; p < points; ++p) {
      std::map<int, Expr> fixed;
      for (size_t i = 0; i < loops.size(); ++i) fixed[loops[i].var] = intConst(at[i]);
      bool inside = true;
      for (size_t a = static_cast<size_t>(def_.rank()); a < def_.vars.size(); ++a) {
        std::optional<int64_t> v = constValue(substitute(axisValue_[a], fixed));
        inside = inside && v && *v >= def_.vars[a].lo && *v < def_.vars[a].lo + def_.vars[a].extent;
      }
      if (inside) {
        Expr term = substitute(source, fixed);
        value = value ? te::node(combine, reduction->dtype, {value, term}) : term;
      }
      for (size_t i = loops.size(); i-- > 0;) {  // the innermost loop advances first
        if (++at[i] < loops[i].extent) break;
        at[i] = 0;
      }
    }
    reduced_ = value;
    leaves_.erase(std::remove_if(leaves_.begin(), leaves_.end(), [](const Leaf& l) { return l.reduce; }), leaves_.end());
  }

  // The flat index of the element stored, in row-major order of the stored shape.
  Expr flatIndex() const {
    Expr index = intConst(0);
    for (size_t d = 0; d < storeShape_.size(); ++d) index = add(mul(index, intConst(storeShape_[d])), storeAxis_[d]);
    return index;
  }

  // The definition's expression with axes replaced by their values in loop variables, loads of
  // inputs read by flat index, and the reduction by its value once reduced.
  Expr lower(const Expr& e) const {
    if (e->op == Op::Var) return axisValue_[static_cast<size_t>(e->var)];
    if (e->op == Op::Reduce && reduced_) return reduced_;
    te::ComputeNode n = *e;
    for (auto& a : n.args) a = lower(a);
    if (e->op == Op::Load && e->tensor >= static_cast<int>(def_.inputs.size())) {  // an attached compute's region
      const Attached& a = attached_.at(static_cast<size_t>(e->tensor) - def_.inputs.size());
      Expr flat = intConst(0);
      for (size_t d = 0; d < a.shape.size(); ++d) flat = add(mul(flat, intConst(a.shape[d])), sub(n.args[d], a.origin[d]));
      n.tensor = a.buffer;
      n.args = {flat};
    } else if (e->op == Op::Load) {
      const std::vector<int64_t>& shape = def_.inputs[static_cast<size_t>(e->tensor)].shape;
      Expr flat = intConst(0);
      for (size_t d = 0; d < shape.size(); ++d) flat = add(mul(flat, intConst(shape[d])), n.args[d]);
      n.args = {flat};
    }
    return simplify(std::make_shared<const te::ComputeNode>(std::move(n)));
  }

  // The innermost loop when it is vectorized, else -1: guards go around it, never inside.
  int vectorVar() const {
    return !leaves_.empty() && leaves_.back().kind == ForKind::Vectorized ? leaves_.back().var : -1;
  }

  // `s` under the guards, unless they wait for the vectorized loop (nest puts them around it).
  loop::StmtPtr guarded(loop::StmtPtr s) const {
    Expr all = allOf(guards_);
    if (!all || vectorVar() >= 0) return s;
    return loop::ifThen(all, {std::move(s)});
  }

  // The vectorized loop `s` under the guards, which must not depend on its variable.
  loop::StmtPtr guardedVector(loop::StmtPtr s, const std::vector<Expr>& guards) const {
    Expr all = allOf(guards);
    if (!all) return s;
    if (usesVar(all, s->var)) {
      fail("vectorize: '" + k_.vars[static_cast<size_t>(s->var)] +
           "' covers elements past the end of a split reduce axis; split it by a divisor of its extent");
    }
    return loop::ifThen(all, {std::move(s)});
  }

  // Loops leaves_[from..] around `inner`. With `reduction`, the first loop derived from a reduce axis
  // is preceded by the initialisation of the output elements of the loops inside it.
  loop::StmtPtr nest(size_t from, std::vector<loop::StmtPtr> inner, bool reduction) {
    if (from == leaves_.size()) return loop::block(std::move(inner));
    // a split's shorter last tile: once the loops counting tiles are open, the rest of the nest
    // twice, for the full tiles and (on fresh loop variables) for the last one
    for (size_t t = from; t < leaves_.size(); ++t) {
      if (!leaves_[t].tail) continue;
      bool ready = true;
      for (size_t i = from; i < leaves_.size(); ++i) ready = ready && !usesVar(leaves_[t].fullTile, leaves_[i].var);
      if (!ready) continue;
      const int64_t full = leaves_[t].extent, tail = leaves_[t].tail;
      const Expr fullTile = leaves_[t].fullTile;
      leaves_[t].tail = 0;
      loop::StmtPtr fullNest = nest(from, inner, reduction);
      leaves_[t].extent = tail;
      loop::StmtPtr tailNest = cloneFresh(k_, nest(from, inner, reduction), {}, ".tail");
      leaves_[t].extent = full;
      leaves_[t].tail = tail;
      auto list = [](const loop::StmtPtr& b) {
        return b->kind == loop::StmtKind::Block ? b->body : std::vector<loop::StmtPtr>{b};
      };
      return loop::ifThen(fullTile, list(fullNest), list(tailNest));
    }
    const Leaf& l = leaves_[from];
    if (tensorizedAt_ >= 0 && (static_cast<int>(from) == tensorizedAt_ || (l.reduce && static_cast<int>(from) + 1 == tensorizedAt_))) {
      return cubeNest(from);
    }
    if (reduction && l.reduce) {
      std::vector<loop::StmtPtr> list;
      list.push_back(overOutputLeaves(from + 1, initialisation()));
      list.push_back(nest(from, std::move(inner), false));
      if (epilogue_) list.push_back(overOutputLeaves(from + 1, epilogue_));
      return loop::block(std::move(list));
    }
    loop::StmtPtr body = nest(from + 1, std::move(inner), reduction);
    std::vector<loop::StmtPtr> list = attachedIn(l.var);
    for (const auto& b : body->kind == loop::StmtKind::Block ? body->body : std::vector<loop::StmtPtr>{body}) list.push_back(b);
    if (l.tail) {
      fail("the loop '" + k_.vars[static_cast<size_t>(l.var)] + "' has a shorter last tile but runs outside the loop "
           "that counts its tiles; reorder them or split by a divisor");
    }
    loop::StmtPtr loop = loop::forLoop(l.var, intConst(0), intConst(l.extent), l.kind, std::move(list));
    loop->copies = l.copies;
    return l.kind == ForKind::Vectorized ? guardedVector(loop, guards_) : loop;
  }

  // acc[index] = the reduction's identity
  loop::StmtPtr initialisation() const {
    const std::string& fn = reduction_->fn;
    double identity = fn == "sum" ? 0.0 : fn == "max" ? -std::numeric_limits<double>::infinity()
                                                     : std::numeric_limits<double>::infinity();
    DType t = reduction_->dtype;
    if (!isFloat(t) && fn != "sum") {
      identity = fn == "max" ? static_cast<double>(std::numeric_limits<int32_t>::min())
                             : static_cast<double>(std::numeric_limits<int32_t>::max());
    }
    Expr value = isFloat(t) ? te::floatImm(identity, t) : te::intImm(static_cast<int64_t>(identity), t);
    return loop::store(accumulator_, accIndex_, value);
  }

  // Store `s` (before the reduce loops or after them) in loops over the output leaves from `from` on,
  // on fresh variables, the reduce leaves fixed at 0.
  loop::StmtPtr overOutputLeaves(size_t from, const loop::StmtPtr& store) {
    std::map<int, Expr> zeroReduce;
    for (const auto& l : leaves_) {
      if (l.reduce) zeroReduce[l.var] = intConst(0);
    }
    std::vector<Expr> guards;
    for (const auto& g : guards_) guards.push_back(substitute(g, zeroReduce));
    loop::StmtPtr s = loop::store(store->buffer, substitute(store->index, zeroReduce), substitute(store->value, zeroReduce));
    bool guardsPlaced = false;
    auto placeGuards = [&](loop::StmtPtr inner) {
      Expr all = allOf(guards);
      guardsPlaced = true;
      return all ? loop::ifThen(all, {std::move(inner)}) : inner;
    };
    bool vectorInside = false;
    for (size_t i = from; i < leaves_.size(); ++i) vectorInside = vectorInside || (!leaves_[i].reduce && leaves_[i].kind == ForKind::Vectorized);
    if (store == epilogue_ && !vectorInside) {  // the epilogue computes: one lane of the vector unit
      s = loop::forLoop(k_.addVar(k_.vars[static_cast<size_t>(leaves_[from - 1].var)] + ".out"), intConst(0), intConst(1),
                        ForKind::Vectorized, {s});
    }
    if (vectorVar() < 0 || leaves_.back().reduce) s = placeGuards(s);
    for (size_t i = leaves_.size(); i-- > from;) {
      const Leaf& l = leaves_[i];
      if (l.reduce) continue;
      int var = k_.addVar(k_.vars[static_cast<size_t>(l.var)] + (store == epilogue_ ? ".out" : ".init"));
      bool vector = l.kind == ForKind::Vectorized;
      s = loop::forLoop(var, intConst(0), intConst(l.extent), vector ? ForKind::Vectorized : ForKind::Serial, {s});
      std::map<int, Expr> rename{{l.var, te::var(var)}};
      renameInStores(s, rename);
      for (auto& g : guards) g = substitute(g, rename);
      if (vector) s = guardedVector(s, guards), guardsPlaced = true;
    }
    return guardsPlaced ? s : placeGuards(s);
  }

  static void renameInStores(const loop::StmtPtr& s, const std::map<int, Expr>& rename) {
    if (s->kind == loop::StmtKind::Store) s->index = substitute(s->index, rename), s->value = substitute(s->value, rename);
    if (s->kind == loop::StmtKind::If) s->cond = substitute(s->cond, rename);
    for (const auto& b : s->body) renameInStores(b, rename);
  }

  // The statements computing the attached computes placed in leaf `var`'s body (-1: before all),
  // on fresh variables for each place they appear.
  std::vector<loop::StmtPtr> attachedIn(int var) {
    std::vector<loop::StmtPtr> out;
    auto it = attachedIn_.find(var);
    if (it == attachedIn_.end()) return out;
    for (const auto& s : it->second) out.push_back(placed_.insert(s.get()).second ? s : cloneFresh(k_, s, {}, ".again"));
    return out;
  }

  const te::ComputeDef& def_;
  const Target& target_;
  SourceLocation where_;
  loop::Kernel own_;
  loop::Kernel& k_;
  int out_ = -1;                        // the buffer the definition's elements are stored in
  std::string prefix_;                  // of its loops' and local buffers' names
  std::vector<Expr> storeAxis_;         // per output axis: the place stored, in loop variables
  std::vector<int64_t> storeShape_;     // the shape of the stored buffer
  std::map<int, te::ScheduleStep> attachSteps_;  // attached compute → its compute_at step
  std::map<int, int> attachVar_;                 // ... and the loop it names
  std::map<int, te::ScheduleStep> madeBy_;       // a loop → the step that split or unrolled it (for errors)
  te::ScheduleStep tensorizeStep_;
  int tensorizeVar_ = -1;                        // the tensorized loop (followed through later steps)
  int tensorizedAt_ = -1;                        // ... its leaf, once the loops are final
  int tileLeaf_[3] = {-1, -1, -1};               // the tile's loop of rows, columns, contraction
  CubeBuffers cube_;
  std::vector<te::ScheduleStep> cacheScopes_;
  std::vector<Attached> attached_;
  std::map<int, std::vector<loop::StmtPtr>> attachedIn_;  // leaf variable → attached computes' loops
  std::set<const loop::Stmt*> placed_;
  std::vector<Leaf> leaves_;
  std::vector<Expr> axisValue_;  // per definition axis: its value in loop variables
  std::vector<Expr> guards_;     // conditions every stored element must meet
  te::ComputeExpr reduction_;    // the body's reduction, once its loops are built
  Expr reduced_;                 // the reduction's value: unrolled into an expression, or read from acc
  int accumulator_ = -1;         // the buffer the reduction accumulates in (the output, or acc)
  Expr accIndex_;
  loop::StmtPtr epilogue_;       // out = epilogue(acc), after the reduce loops
  std::map<std::string, int> aliases_;  // i<k>, r<k> → variable
  const te::ScheduleStep* step_ = nullptr;
  int bufferSets_ = 1;
  te::ScheduleStep bufferStep_, vectorizeStep_;
};

}  // namespace

loop::Kernel scheduleToLoops(const te::ComputeDef& def, const te::Schedule& schedule, const Target& target,
                             const SourceLocation& where) {
  Builder b(def, target, where);
  for (const auto& step : schedule.steps) b.apply(step);
  return b.finish();
}

}  // namespace pyasc::codegen
