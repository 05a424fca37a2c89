// What the CPU backend's operator lowerings share: defining functions by index expressions,
// reductions, broadcasting.
#include "cpu/LowerSupport.h"

#include <algorithm>
#include <cstdlib>

#include "cpu/TeToHalide.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::cpu {

using Halide::Expr;

[[noreturn]] void fail(const graph::Node& node, const std::string& message) {
  throw CompileError(node.loc, message);
}

std::vector<int64_t> extents(const graph::TensorType& t) { return graph::extents(t.shape); }

int32_t extent32(const graph::Node& node, int64_t e) {
  if (e < 0 || e > INT32_MAX) fail(node, "the CPU backend takes extents up to 2^31 - 1, found " + std::to_string(e));
  return static_cast<int32_t>(e);
}

// A function of `type` whose element at index i (NumPy order) is body(i).
Lowered define(const std::string& name, const graph::TensorType& type, const std::function<Expr(const Index&)>& body) {
  Halide::Func f(Halide::Internal::unique_name(name));
  std::vector<Halide::Var> vars;
  for (int k = 0; k < type.rank(); ++k) vars.emplace_back("d" + std::to_string(k));
  Index index(vars.begin(), vars.end());
  std::vector<Halide::Var> halideOrder(vars.rbegin(), vars.rend());
  Expr value = body(index);
  const Halide::Type want = halideType(type.dtype);
  f(halideOrder) = value.type() == want ? value : castValue(want, value);
  return Lowered{f, type};
}

namespace {
thread_local int handSchedules = 0;
}  // namespace

HandSchedules::HandSchedules() { ++handSchedules; }
HandSchedules::~HandSchedules() { --handSchedules; }

std::string autoscheduler() {
  const char* name = std::getenv("PYASC_CPU_SCHEDULER");
  return name && handSchedules == 0 ? name : "";
}

void splitIntoVectorBlocks(Halide::Stage stage, const Halide::Var& v, const Halide::Var& blocks, const Halide::Var& within,
                           const Halide::Var& lane, int lanes, int block) {
  Halide::Var vectors("vectors");
  stage.split(v, vectors, lane, lanes, Halide::TailStrategy::GuardWithIf)
      .split(vectors, blocks, within, std::max(1, block / lanes), Halide::TailStrategy::GuardWithIf);
}

void computeOnce(const Lowered& value) {
  if (!autoscheduler().empty()) return;
  Halide::Func f = value.func;
  f.compute_root();
  const int lanes = hostTarget().natural_vector_size(halideType(value.type.dtype));
  if (!value.type.shape.empty() && value.type.shape.back().extent >= lanes) {
    f.vectorize(f.args()[0], lanes, Halide::TailStrategy::GuardWithIf);
  }
}

void parallelOver(Halide::Stage stage, const Halide::VarOrRVar& v, int64_t extent, int64_t work) {
  constexpr int64_t kTask = int64_t{1} << 14;
  const int64_t perTask = std::max<int64_t>(1, (kTask + std::max<int64_t>(work, 1) - 1) / std::max<int64_t>(work, 1));
  if (extent < 2 * perTask) return;
  if (perTask == 1) stage.parallel(v);
  else stage.parallel(v, static_cast<int>(perTask), Halide::TailStrategy::GuardWithIf);
}

namespace {

int64_t constant(const Expr& e) {
  const Expr simple = Halide::Internal::simplify(e);
  const int64_t* n = Halide::Internal::as_const_int(simple);
  return n ? *n : 1;
}

// The totals once over their extent (not once per element of their reader):
// * along the innermost axis of the input, the innermost reduction is split into one partial
//   total per vector lane (rfactor), vectorised, and the lanes combined;
// * otherwise an innermost output axis of a vector or more is vectorised in blocks, the
//   reduction's loops inside each block (a block of totals accumulates a row of input at a time);
// the outermost output axis (or the blocks) is split over the cores when the work is large. Both
// change the order of accumulation, never its precision (floats accumulate in float64 or exactly,
// but for the float32 totals of matmul-like contractions: accumulatorType's callers).
void scheduleReduction(Halide::Func total, const graph::TensorType& type, Walk walk) {
  if (!autoscheduler().empty()) return;
  total.compute_root();
  const std::vector<Halide::Var> pure = total.args();  // innermost first
  const std::vector<Halide::RVar> rvars = total.rvars(0);
  const std::vector<Halide::Internal::ReductionVariable>& domain = total.function().update(0).schedule().rvars();
  const int lanes = std::max(2, hostTarget().natural_vector_size(total.output_types().at(0)));
  const std::vector<int64_t> shape = extents(type);
  int64_t work = graph::elementCount(type.shape);
  for (const auto& r : domain) work *= std::max<int64_t>(constant(r.extent), 1);
  Halide::Stage update = total.update();
  const int64_t elements = graph::elementCount(type.shape), rows = shape.empty() ? 1 : shape.front();
  // the outermost output axis over the cores (the totals' initialisation too)
  auto rowsOverCores = [&]() {
    if (pure.empty()) return;
    parallelOver(update, pure.back(), rows, work / std::max<int64_t>(rows, 1));
    parallelOver(total, pure.back(), rows, elements / std::max<int64_t>(rows, 1));
  };
  if (walk == Walk::AlongInner && !domain.empty() && constant(domain[0].extent) >= 4 * lanes) {
    Halide::RVar outer("r_outer"), lane("r_lane");
    Halide::Var u("lane");
    // four vectors of partial totals when the reduction is long enough and a multiple of four
    // vectors: four independent chains of additions hide their latency (Halide 14 drops the whole
    // update when the lanes split into chains leave a tail: 130 totals of 0)
    const int64_t extent = constant(domain[0].extent);
    const int chains = extent >= 16 * lanes && extent % (4 * lanes) == 0 ? 4 : 1;
    Halide::Func partial = update.split(rvars[0], outer, lane, lanes * chains, Halide::TailStrategy::GuardWithIf).rfactor(lane, u);
    std::vector<Halide::VarOrRVar> order = {u, outer};
    for (size_t k = 1; k < rvars.size(); ++k) order.emplace_back(rvars[k]);
    for (const Halide::Var& v : pure) order.emplace_back(v);
    Halide::Var chain("chain"), within("within");
    partial.update().reorder(order).split(u, chain, within, lanes).vectorize(within).unroll(chain);
    partial.vectorize(u, lanes);
    if (pure.empty()) partial.compute_root();
    else partial.compute_at(total, pure.back());  // per task of rows
    rowsOverCores();
    return;
  }
  if (!pure.empty() && shape.back() >= lanes) {
    const int block = static_cast<int>(std::min<int64_t>(shape.back(), 16 * lanes));
    Halide::Var blocks("blocks"), within("within"), lane("lane");
    splitIntoVectorBlocks(update, pure[0], blocks, within, lane, lanes, block);
    std::vector<Halide::VarOrRVar> order = {lane, within};
    for (const Halide::RVar& r : rvars) order.emplace_back(r);
    order.emplace_back(blocks);
    for (size_t k = 1; k < pure.size(); ++k) order.emplace_back(pure[k]);
    update.reorder(order).vectorize(lane);
    total.vectorize(pure[0], lanes, Halide::TailStrategy::GuardWithIf);
    if (pure.size() >= 2 && rows >= 2) {
      rowsOverCores();
    } else {
      const int64_t count = (shape.back() + block - 1) / block;
      parallelOver(update, blocks, count, work / count);
    }
    return;
  }
  rowsOverCores();
}

// The shape of a tile of totals (Walk::Tiles): `rows` rows of `vectors` vectors, held in registers.
struct Tile {
  int lanes, vectors, rows;
  int columns() const { return lanes * vectors; }
};

Tile tileFor(const Halide::Type& type) {
  const int lanes = std::max(2, hostTarget().natural_vector_size(type));
  // 16 accumulators leave room for the operands' vectors in 32 registers (AVX-512); 12 in 16
  return lanes >= 16 ? Tile{lanes, 2, 8} : Tile{lanes, 2, 6};
}

// total(j, i, ...) = tile(j, i, ...): the output in tiles of `rows` x `columns`, each tile's totals
// computed in registers (the reduction innermost but for the tile's own loops, unrolled); tiles in
// groups of columns whose operand panel fits the cache, the rows of tiles over the cores. Tiles
// shift inwards at the edges (the caller checks that both axes hold a whole tile).
void scheduleTiles(Halide::Func total, Halide::Func tile, const Tile& t, const graph::TensorType& type, int64_t reduced) {
  const std::vector<Halide::Var> pure = total.args();  // innermost first: j, i, batch axes
  const std::vector<int64_t> shape = extents(type);
  const int64_t rows = shape[shape.size() - 2], columns = shape.back();
  Halide::Var jo("jo"), ji("ji"), io("io"), ii("ii"), panel("panel");
  // a panel of the second operand: `reduced` x (columns of the group), within 256 KiB
  const int64_t panelBytes = tile.output_types().at(0).bytes() * std::max<int64_t>(reduced, 1);
  const int64_t groupColumns = std::max<int64_t>(t.columns(), (int64_t{1} << 18) / panelBytes);
  const int tilesPerGroup = static_cast<int>(std::max<int64_t>(1, groupColumns / t.columns()));
  total.compute_root();
  // over the whole extent, also when a reader needs less (a slice of the product): a shifted
  // tile must stay inside its operands
  for (size_t k = 0; k < pure.size(); ++k) total.bound(pure[k], 0, static_cast<int>(shape[shape.size() - 1 - k]));
  total.split(pure[0], jo, ji, t.columns(), Halide::TailStrategy::ShiftInwards)
      .split(pure[1], io, ii, t.rows, Halide::TailStrategy::ShiftInwards)
      .split(jo, panel, jo, tilesPerGroup, Halide::TailStrategy::GuardWithIf);
  std::vector<Halide::VarOrRVar> order = {ji, ii, jo, io, panel};
  for (size_t k = 2; k < pure.size(); ++k) order.emplace_back(pure[k]);
  total.reorder(order).vectorize(ji, t.lanes).unroll(ji).unroll(ii);
  const int64_t tileRows = (rows + t.rows - 1) / t.rows;
  parallelOver(total, io, tileRows, t.rows * columns * std::max<int64_t>(reduced, 1));
  const std::vector<Halide::Var> tv = tile.args();
  tile.compute_at(total, jo).vectorize(tv[0], t.lanes).unroll(tv[0]).unroll(tv[1]);
  std::vector<Halide::VarOrRVar> inner = {tv[0], tv[1]};
  for (const Halide::RVar& r : tile.rvars(0)) inner.emplace_back(r);
  for (size_t k = 2; k < tv.size(); ++k) inner.emplace_back(tv[k]);
  tile.update().reorder(inner).vectorize(tv[0], t.lanes).unroll(tv[0]).unroll(tv[1]);
}

}  // namespace

// A function of `type` computed by a reduction: init(i) at every index i (NumPy order), then
// current = update(current, i) once per point of the reduction domain the update reads; the
// element is finish(current). Halide's update definitions cannot be pure, hence the wrapper.
Lowered accumulate(const std::string& name, const graph::TensorType& type, Walk walk, const std::function<Expr(const Index&)>& init,
                   const std::function<Expr(Expr, const Index&)>& update, const std::function<Expr(Expr)>& finish) {
  Halide::Func total(Halide::Internal::unique_name(name + "_total"));
  std::vector<Halide::Var> vars;
  for (int k = 0; k < type.rank(); ++k) vars.emplace_back("d" + std::to_string(k));
  const Index index(vars.begin(), vars.end());
  const std::vector<Expr> halideOrder(index.rbegin(), index.rend());
  const std::vector<int64_t> shape = extents(type);
  const Tile tile = tileFor(init(index).type());
  if (walk == Walk::Tiles && autoscheduler().empty() && type.rank() >= 2 && shape.back() >= tile.columns() &&
      shape[shape.size() - 2] >= tile.rows) {
    Halide::Func totals(Halide::Internal::unique_name(name + "_tile"));  // one tile's, in registers
    totals(std::vector<Halide::Var>(vars.rbegin(), vars.rend())) = init(index);
    totals(halideOrder) = update(totals(halideOrder), index);
    total(std::vector<Halide::Var>(vars.rbegin(), vars.rend())) = totals(halideOrder);
    int64_t reduced = 1;
    for (const auto& r : totals.function().update(0).schedule().rvars()) reduced *= std::max<int64_t>(constant(r.extent), 1);
    scheduleTiles(total, totals, tile, type, reduced);
  } else {
    total(std::vector<Halide::Var>(vars.rbegin(), vars.rend())) = init(index);
    total(halideOrder) = update(total(halideOrder), index);
    scheduleReduction(total, type, walk == Walk::Tiles ? Walk::Across : walk);
  }
  const Lowered t{total, type};
  return define(name, type, [&](const Index& i) { return finish(at(t, i)); });
}

Expr same(Expr e) { return e; }

// The index of an input broadcast (NumPy rules, trailing axes aligned) to an output index.
Index broadcastIndex(const Index& out, const graph::TensorType& in) {
  Index r;
  const size_t offset = out.size() - static_cast<size_t>(in.rank());
  for (int k = 0; k < in.rank(); ++k) r.push_back(in.shape[static_cast<size_t>(k)].extent == 1 ? Expr(0) : out[offset + static_cast<size_t>(k)]);
  return r;
}

Expr clampIndex(const Expr& i, int64_t extent) { return Halide::clamp(i, 0, static_cast<int32_t>(std::max<int64_t>(extent - 1, 0))); }

std::vector<int64_t> normalizedAxes(const graph::Node& node, const std::string& attr, int rank) {
  std::vector<int64_t> axes;
  if (!node.hasAttr(attr)) {
    for (int k = 0; k < rank; ++k) axes.push_back(k);
    return axes;
  }
  const graph::Attribute* a = node.attr(attr);
  if (std::holds_alternative<int64_t>(*a)) axes.push_back(std::get<int64_t>(*a));
  else axes = node.intListAttr(attr);
  for (auto& x : axes) {
    if (x < 0) x += rank;
    if (x < 0 || x >= rank) fail(node, "axis " + std::to_string(x) + " is out of range for rank " + std::to_string(rank));
  }
  return axes;
}

// Sums and products of floats accumulate in float64 (within NumPy's pairwise float32 error whatever
// their order), of integers and booleans in the result's integer type.
Halide::Type accumulatorType(DType in, DType out) {
  if (isFloat(in) || isFloat(out)) return Halide::Float(64);
  return halideType(out == DType::Bool ? DType::Int64 : out);
}

Expr orderedKey(Expr x, bool nanHigh) {
  const Halide::Type key = Halide::Int(x.type().bits());
  const uint64_t quiet = x.type().bits() == 64 ? 0x7FF8000000000000ull : 0x7FC00000ull;
  const uint64_t sign = x.type().bits() == 64 ? 0x8000000000000000ull : 0x80000000ull;
  Expr nan = Halide::reinterpret(key, Halide::Internal::make_const(Halide::UInt(x.type().bits()), nanHigh ? quiet : quiet | sign));
  Expr bits = Halide::select(isNaN(x), nan, Halide::reinterpret(key, x));
  return Halide::select(bits < 0, bits ^ key.max(), bits);
}

Expr fromOrderedKey(Expr key, const Halide::Type& type) {
  return Halide::reinterpret(type, Halide::select(key < 0, key ^ key.type().max(), key));
}

Expr nanMaxOf(Expr acc, Expr x) { return Halide::select(isNaN(acc) || (!isNaN(x) && x <= acc), acc, x); }
Expr nanMinOf(Expr acc, Expr x) { return Halide::select(isNaN(acc) || (!isNaN(x) && x >= acc), acc, x); }

}  // namespace pyasc::cpu
