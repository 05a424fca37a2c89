// Scans: the chains of shifted slices the frontend writes for cumsum, cumprod and ufunc.accumulate
// (log2(n) passes of a Hillis-Steele scan, which the vector unit runs well) found in a graph and
// lowered as one sequential scan (one pass, NumPy's order of accumulation).
#pragma once

#include <functional>
#include <map>
#include <set>

#include "cpu/LowerNode.h"

namespace pyasc::cpu {

struct ScanChain {
  graph::ValueId start;          // the scanned value
  int64_t axis = 0;              // along this axis
  const graph::Node* combine = nullptr;  // the elementwise step of the first pass (its operator)
  std::set<const graph::Node*> nodes;    // every node of the chain (the last Concat among them)
};

// The complete chains among nodes [begin, end) of `region`, by their last Concat: pass k reads the
// previous pass x (the start for k = 0) through exactly Slice(x)[s:], Slice(x)[:n-s] (combined by
// one elementwise operator) and Slice(x)[:s], and joins them as Concat(head, combined) along one
// axis, with shifts s = 1, 2, 4, ... up to the last below n; every value inside the chain is read
// only by the chain (`readOnlyBy` says whether a value's readers are all among the given nodes).
std::map<const graph::Node*, ScanChain> findScans(
    const graph::Graph& graph, const graph::Region& region, size_t begin, size_t end,
    const std::function<bool(graph::ValueId, const std::set<const graph::Node*>&)>& readOnlyBy);

// The chain's result: start scanned along its axis with the chain's operator.
Lowered lowerScan(const graph::Graph& graph, const graph::Node& last, const ScanChain& chain, const Lowered& start);

}  // namespace pyasc::cpu
