// Scans: the frontend's chains of shifted slices for cumsum, cumprod and ufunc.accumulate, found and
// lowered as one sequential scan.
#include "cpu/LowerScan.h"

#include <unordered_map>

#include "cpu/LowerSupport.h"
#include "cpu/TeToHalide.h"
#include "ops/Elementwise.h"

namespace pyasc::cpu {

namespace {

// A Slice of one static range [begin, end) along one axis with step 1, or none.
struct Range {
  graph::ValueId of = -1;
  int64_t axis = -1, begin = 0, end = 0;
};

Range rangeOf(const graph::Node& n) {
  if (n.op != "Slice" || n.inputs.size() != 1) return {};
  const std::vector<int64_t> axes = n.intListAttr("axes"), begin = n.intListAttr("begin"), end = n.intListAttr("end"),
                             step = n.intListAttr("step"), dynamic = n.intListAttr("dynamic_axes");
  if (axes.size() != 1 || begin.size() != 1 || end.size() != 1 || step.size() != 1 || step[0] != 1 || !dynamic.empty()) return {};
  return Range{n.inputs[0], axes[0], begin[0], end[0]};
}

}  // namespace

std::map<const graph::Node*, ScanChain> findScans(
    const graph::Graph& graph, const graph::Region& region, size_t begin, size_t end,
    const std::function<bool(graph::ValueId, const std::set<const graph::Node*>&)>& readOnlyBy) {
  std::unordered_map<graph::ValueId, const graph::Node*> producer;
  for (size_t k = begin; k < end; ++k)
    for (graph::ValueId v : region.nodes[k].outputs) producer[v] = &region.nodes[k];
  auto made = [&](graph::ValueId v) -> const graph::Node* {
    auto p = producer.find(v);
    return p == producer.end() ? nullptr : p->second;
  };
  // the chain each pass so far belongs to, by its Concat's output, with that pass's shift
  std::unordered_map<graph::ValueId, std::pair<ScanChain, int64_t>> open;
  std::map<const graph::Node*, ScanChain> found;
  for (size_t k = begin; k < end; ++k) {
    const graph::Node& concat = region.nodes[k];
    if (concat.op != "Concat" || concat.inputs.size() != 2 || concat.outputs.size() != 1) continue;
    const graph::Node* head = made(concat.inputs[0]);
    const graph::Node* combine = made(concat.inputs[1]);
    if (!head || !combine || !ops::isElementwiseOp(combine->op) || combine->inputs.size() != 2) continue;
    const Range h = rangeOf(*head);
    const graph::Node* hiNode = made(combine->inputs[0]);
    const graph::Node* loNode = made(combine->inputs[1]);
    if (!hiNode || !loNode) continue;
    const Range hi = rangeOf(*hiNode), lo = rangeOf(*loNode);
    const graph::ValueId x = h.of;
    if (x < 0 || hi.of != x || lo.of != x) continue;
    const graph::TensorType& xt = graph.type(x);
    const int64_t axis = h.axis < 0 ? h.axis + xt.rank() : h.axis;
    if (axis < 0 || axis >= xt.rank() || hi.axis != h.axis || lo.axis != h.axis) continue;
    int64_t concatAxis = concat.intAttr("axis", 0);
    if (concatAxis < 0) concatAxis += xt.rank();
    const int64_t n = xt.shape[static_cast<size_t>(axis)].extent, s = h.end;
    if (concatAxis != axis || h.begin != 0 || s < 1 || s >= n || hi.begin != s || hi.end != n || lo.begin != 0 || lo.end != n - s) continue;
    if (graph.type(concat.outputs[0]) != xt || graph.type(combine->outputs.at(0)).dtype != xt.dtype) continue;
    const std::set<const graph::Node*> pass = {head, combine, hiNode, loNode, &concat};
    // the pass's slices and combined value are read only by the pass
    if (!readOnlyBy(head->outputs[0], {&concat}) || !readOnlyBy(combine->outputs[0], {&concat}) ||
        !readOnlyBy(hiNode->outputs[0], {combine}) || !readOnlyBy(loNode->outputs[0], {combine})) {
      continue;
    }
    ScanChain chain;
    if (s == 1) {
      chain.start = x;
      chain.axis = axis;
      chain.combine = combine;
    } else {
      auto previous = open.find(x);
      // the previous pass: shift s / 2, the same operator, read only by this pass's slices
      if (previous == open.end() || previous->second.second * 2 != s || previous->second.first.combine->op != combine->op ||
          previous->second.first.axis != axis || !readOnlyBy(x, {head, hiNode, loNode})) {
        continue;
      }
      chain = previous->second.first;
    }
    chain.nodes.insert(pass.begin(), pass.end());
    if (2 * s >= n) found[&concat] = chain;
    open[concat.outputs[0]] = {chain, s};
  }
  return found;
}

Lowered lowerScan(const graph::Graph& graph, const graph::Node& last, const ScanChain& chain, const Lowered& start) {
  const graph::TensorType& type = graph.type(last.outputs.at(0));
  const Combiner combine = elementwiseCombiner(graph, *chain.combine, {start.type, start.type}, {false, false});
  const size_t a = static_cast<size_t>(chain.axis);
  const int32_t n = extent32(last, type.shape[a].extent);
  Halide::Func scan(Halide::Internal::unique_name(graph.value(last.outputs[0]).name + "_scan"));
  std::vector<Halide::Var> vars;
  for (int k = 0; k < type.rank(); ++k) vars.emplace_back("d" + std::to_string(k));
  const Index index(vars.begin(), vars.end());
  scan(std::vector<Halide::Var>(vars.rbegin(), vars.rend())) = at(start, index);
  // x[i] combined with the total before it, in the operand order of the passes (x[i + s], x[i])
  Halide::RDom r(1, n - 1);
  Index here = index, before = index;
  here[a] = r;
  before[a] = r - 1;
  const Lowered total{scan, type};
  scan(std::vector<Halide::Expr>(here.rbegin(), here.rend())) =
      castValue(halideType(type.dtype), combine({at(start, here), at(total, before)}));
  // the scan's loop runs in order. Along the innermost axis: the other axes outside it, the
  // outermost split over the cores. Along another axis: blocks of the innermost axis, vectorised,
  // inside it (a row at a time), the blocks split over the cores.
  const Lowered result = define(graph.value(last.outputs[0]).name, type, [&](const Index& i) { return at(total, i); });
  if (!autoscheduler().empty()) return result;
  scan.compute_root();
  const int rank = type.rank();
  const int h = rank - 1 - static_cast<int>(a);  // the scan axis among Halide's dimensions
  const std::vector<Halide::Var> pure = scan.args();
  Halide::Stage update = scan.update();
  std::vector<Halide::VarOrRVar> order;
  if (h == 0) {
    order.emplace_back(r.x);
    for (int d = 1; d < rank; ++d) order.emplace_back(pure[static_cast<size_t>(d)]);
    update.reorder(order);
    if (rank >= 2) parallelOver(update, pure.back(), type.shape.front().extent, graph::elementCount(type.shape) / std::max<int64_t>(type.shape.front().extent, 1));
  } else {
    const int lanes = std::max(1, hostTarget().natural_vector_size(halideType(type.dtype == DType::Bool ? DType::UInt8 : type.dtype)));
    const int block = static_cast<int>(std::min<int64_t>(type.shape.back().extent, 64 * lanes));
    Halide::Var blocks("blocks"), within("within"), lane("lane");
    splitIntoVectorBlocks(update, pure[0], blocks, within, lane, lanes, block);
    order.emplace_back(lane);
    order.emplace_back(within);
    for (int d = 1; d < rank; ++d) order.emplace_back(d == h ? Halide::VarOrRVar(r.x) : Halide::VarOrRVar(pure[static_cast<size_t>(d)]));
    order.emplace_back(blocks);
    update.reorder(order).vectorize(lane);
    const int64_t count = (type.shape.back().extent + block - 1) / block;
    parallelOver(update, blocks, count, graph::elementCount(type.shape) / count);
  }
  return result;
}

}  // namespace pyasc::cpu
