// The default schedule of a te.compute definition, as primitives.
#include "codegen/loop/DefaultSchedule.h"

#include <algorithm>
#include <vector>

#include "codegen/loop/IndexMath.h"

namespace pyasc::codegen {

namespace {

// Distinct loads and value-computing nodes of `e` (index arithmetic inside loads is not a value).
void countValues(const te::ComputeExpr& e, std::vector<te::ComputeExpr>& loads, int& values) {
  if (e->op == te::Op::Load) {
    for (const auto& l : loads) {
      if (sameExpr(l, e)) return;
    }
    loads.push_back(e);
    return;
  }
  if (e->op == te::Op::Var || e->op == te::Op::Int || e->op == te::Op::Float) return;
  ++values;
  for (const auto& a : e->args) countValues(a, loads, values);
}

te::ScheduleStep step(te::Primitive p, std::vector<std::string> names, std::vector<int64_t> numbers = {},
                      std::vector<std::string> results = {}) {
  te::ScheduleStep s;
  s.primitive = p;
  s.names = std::move(names);
  s.numbers = std::move(numbers);
  s.results = std::move(results);
  return s;
}

// Reductions of at most this many points whose reduce axes the default schedule unrolls (into one
// expression: a window's taps).
constexpr int64_t kUnrolledPoints = 32;

int64_t reductionPoints(const te::ComputeDef& def) {
  int64_t points = 1;
  for (const auto& v : def.vars) points *= v.reduce ? v.extent : 1;
  return points;
}

// `e` with reduce axis `axis` fixed at `value`.
te::ComputeExpr fixAxis(const te::ComputeExpr& e, int axis, int64_t value) {
  if (e->op == te::Op::Var) return e->var == axis ? te::intImm(value, DType::Int32) : e;
  if (e->args.empty()) return e;
  te::ComputeNode n = *e;
  for (auto& a : n.args) a = fixAxis(a, axis, value);
  return std::make_shared<const te::ComputeNode>(std::move(n));
}

// The body with its reduction written out over every point of the reduce axes (as
// schedule-to-loops unrolls it), for counting the tiles it reads.
te::ComputeExpr unrolledBody(const te::ComputeDef& def) {
  std::vector<te::ComputeExpr> terms{te::reductionOf(def.body)->args[0]};
  for (size_t a = static_cast<size_t>(def.rank()); a < def.vars.size(); ++a) {
    std::vector<te::ComputeExpr> next;
    for (const auto& t : terms) {
      for (int64_t v = def.vars[a].lo; v < def.vars[a].lo + def.vars[a].extent; ++v) next.push_back(fixAxis(t, static_cast<int>(a), v));
    }
    terms = next;
  }
  te::ComputeExpr sum = terms[0];
  for (size_t i = 1; i < terms.size(); ++i) sum = te::node(te::Op::Add, sum->dtype, {sum, terms[i]});
  return sum;
}

// UB tiles a vectorized tile of `def` needs: one per distinct input read, one for the result, one per
// intermediate value, and the accumulator of a reduction that is not unrolled.
int computeTileBuffers(const te::ComputeDef& def, bool unrolled) {
  std::vector<te::ComputeExpr> loads;
  int values = 0;
  countValues(unrolled ? unrolledBody(def) : def.body, loads, values);
  if (unrolled && def.body != te::reductionOf(def.body)) countValues(def.body, loads, values);  // the epilogue
  int accumulator = te::reductionOf(def.body) && !unrolled ? 1 : 0;
  return static_cast<int>(loads.size()) + std::max(values, 1) + accumulator;
}

// Whether every load of `e` reads an input of the output's shape at the output's own element.
bool readsOwnElement(const te::ComputeExpr& e, const te::ComputeDef& def) {
  if (e->op == te::Op::Load) {
    if (def.tensor(e->tensor).shape != def.shape()) return false;
    for (size_t d = 0; d < e->args.size(); ++d) {
      if (e->args[d]->op != te::Op::Var || e->args[d]->var != static_cast<int>(d)) return false;
    }
    return true;
  }
  for (const auto& a : e->args) {
    if (!readsOwnElement(a, def)) return false;
  }
  return true;
}

// A reduce axis that indexes the last dimension of a load directly (x[..., k]): reducing it across
// vector lanes reads contiguous elements.
int contiguousReduceAxis(const te::ComputeExpr& e, const te::ComputeDef& def) {
  if (e->op == te::Op::Load && !e->args.empty()) {
    const te::ComputeExpr& last = e->args.back();
    if (last->op == te::Op::Var && def.vars[static_cast<size_t>(last->var)].reduce) return last->var;
  }
  for (const auto& a : e->args) {
    int r = contiguousReduceAxis(a, def);
    if (r >= 0) return r;
  }
  return -1;
}

// Every output axis fused into one loop bound to the cores, the reduce axis `r` split to fit UB
// and vectorized innermost: each lane reduces a contiguous run, the lanes fold into one element.
te::Schedule laneReductionSchedule(const te::ComputeDef& def, const Target& target, int r, int64_t cap) {
  te::Schedule s;
  const te::IterVar& axis = def.vars[static_cast<size_t>(r)];
  std::string vector = axis.name;
  std::vector<std::string> order;
  for (const auto& v : def.vars) {
    if (v.reduce && v.name != axis.name) order.push_back(v.name);
  }
  if (axis.extent > cap) {
    vector = axis.name + ".i";
    s.steps.push_back(step(te::Primitive::Split, {axis.name}, {cap}, {axis.name + ".o", vector}));
    order.insert(order.begin(), axis.name + ".o");
  }
  if (!order.empty()) {
    order.push_back(vector);
    s.steps.push_back(step(te::Primitive::Reorder, order));
  }
  std::string outer = def.vars[0].name;
  int64_t extent = def.vars[0].extent;
  for (int a = 1; a < def.rank(); ++a) {
    std::string fused = outer + "." + def.vars[static_cast<size_t>(a)].name;
    s.steps.push_back(step(te::Primitive::Fuse, {outer, def.vars[static_cast<size_t>(a)].name}, {}, {fused}));
    outer = fused;
    extent *= def.vars[static_cast<size_t>(a)].extent;
  }
  s.steps.push_back(step(te::Primitive::Bind, {outer}, {std::min<int64_t>(std::max(target.vectorCores, 1), extent)}));
  s.steps.push_back(step(te::Primitive::Vectorize, {vector}));
  return s;
}

}  // namespace

te::Schedule defaultComputeSchedule(const te::ComputeDef& def, const Target& target) {
  te::Schedule s;
  int rank = def.rank();
  if (rank == 0) return s;
  int elemBytes = dtypeSize(def.dtype());
  for (const auto& in : def.inputs) elemBytes = std::max(elemBytes, dtypeSize(in.dtype));
  const int64_t lanes = 256 / elemBytes;  // one vector repeat
  const int copies = 2;                   // a tile loads while the one before computes
  int64_t ub = target.buffer(isa::Space::UB).size;
  const int contiguous = contiguousReduceAxis(def.body, def);
  const bool reduces = te::reductionOf(def.body) != nullptr;
  const bool unrolled = reduces && contiguous < 0 && reductionPoints(def) <= kUnrolledPoints;
  int64_t cap = ub / (static_cast<int64_t>(computeTileBuffers(def, unrolled)) * elemBytes * copies) / lanes * lanes;
  if (contiguous >= 0) return laneReductionSchedule(def, target, contiguous, cap);
  // the output's axes, outermost first; one, fused, when every input is read at the output's own
  // element (the tiles then run over the flattened array, as a short row would not fill them)
  std::vector<std::pair<std::string, int64_t>> axes;
  for (int a = 0; a < rank; ++a) axes.emplace_back(def.vars[static_cast<size_t>(a)].name, def.vars[static_cast<size_t>(a)].extent);
  if (!reduces && rank > 1 && readsOwnElement(def.body, def)) {
    while (axes.size() > 1) {
      std::string fused = axes[0].first + "." + axes[1].first;
      s.steps.push_back(step(te::Primitive::Fuse, {axes[0].first, axes[1].first}, {}, {fused}));
      axes[1] = {fused, axes[0].second * axes[1].second};
      axes.erase(axes.begin());
    }
  }
  const std::string last = axes.back().first;
  const int64_t extent = axes.back().second;
  // enough tiles for every core when the output has them: rows first, then tiles of a row
  int64_t cores = std::max(target.vectorCores, 1);
  int64_t rows = 1;
  for (size_t a = 0; a + 1 < axes.size(); ++a) rows *= axes[a].second;
  int64_t perRow = (cores + rows - 1) / rows;
  int64_t share = ((extent + perRow - 1) / perRow + lanes - 1) / lanes * lanes;
  int64_t tile = std::min({std::max(cap, lanes), std::max(share, lanes), extent});
  // a divisor of the row down to half the size: no shorter last tile, so the tiles can pipeline
  for (int64_t t = tile / lanes * lanes; axes.size() > 1 && extent % tile != 0 && t >= tile / 2 && t > 0; t -= lanes) {
    if (extent % t == 0) tile = t;
  }
  std::vector<std::string> outer;
  for (size_t a = 0; a + 1 < axes.size(); ++a) outer.push_back(axes[a].first);
  std::string vector = last;
  if (tile < extent) {
    vector = last + ".i";
    s.steps.push_back(step(te::Primitive::Split, {last}, {tile}, {last + ".o", vector}));
    outer.push_back(last + ".o");
  }
  std::vector<std::string> reduceAxes;
  for (const auto& v : def.vars) {
    if (v.reduce && unrolled) s.steps.push_back(step(te::Primitive::Unroll, {v.name}));  // written out
    if (v.reduce && !unrolled) reduceAxes.push_back(v.name);
  }
  if (!reduceAxes.empty()) {  // the reductions run around the vectorized tile
    std::vector<std::string> order = reduceAxes;
    order.push_back(vector);
    s.steps.push_back(step(te::Primitive::Reorder, order));
  }
  while (outer.size() > 1) {
    std::string fused = outer[0] + "." + outer[1];
    s.steps.push_back(step(te::Primitive::Fuse, {outer[0], outer[1]}, {}, {fused}));
    outer.erase(outer.begin());
    outer[0] = fused;
  }
  const int64_t tiles = rows * ((extent + tile - 1) / tile);
  if (!outer.empty()) s.steps.push_back(step(te::Primitive::Bind, {outer[0]}, {std::min(cores, tiles)}));
  s.steps.push_back(step(te::Primitive::Vectorize, {vector}));
  // a core with several tiles loads the next while it computes one (not across reduce loops, whose
  // bodies hold loops)
  // (nor when a row's shorter last tile is fused with the rows: which tiles are short is then not a
  // range of the loop, and the loop's body is not straight-line code)
  bool shortTilesInRows = axes.size() > 1 && extent % tile != 0;
  if (reduceAxes.empty() && tiles > cores && !shortTilesInRows) {
    s.steps.push_back(step(te::Primitive::DoubleBuffer, {}, {copies}));
  }
  return s;
}

}  // namespace pyasc::codegen
