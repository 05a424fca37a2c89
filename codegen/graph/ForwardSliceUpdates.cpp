// Element reads after element writes (`a[0] = ...; y = a[2]`) read the array before the writes or
// the value written, so the written copies are read once, by the next write, and fuse into one
// pass instead of each being an array of their own.
#include "codegen/graph/ForwardSliceUpdates.h"

#include <algorithm>
#include <map>
#include <utility>

namespace pyasc::codegen {

namespace {

// The indices a static slice takes along one axis, as a closed interval; empty when it takes none.
std::pair<int64_t, int64_t> hull(int64_t begin, int64_t end, int64_t step) {
  if (step > 0) return end > begin ? std::make_pair(begin, begin + step * ((end - begin - 1) / step)) : std::make_pair<int64_t, int64_t>(1, 0);
  if (step < 0) return begin > end ? std::make_pair(begin + step * ((begin - end - 1) / -step), begin) : std::make_pair<int64_t, int64_t>(1, 0);
  return {1, 0};
}

bool sameSlice(const graph::Node& slice, const graph::Node& update) {
  for (const char* a : {"axes", "begin", "end", "step", "dynamic_axes"})
    if (slice.intListAttr(a) != update.intListAttr(a)) return false;
  return std::equal(slice.inputs.begin() + 1, slice.inputs.end(), update.inputs.begin() + 2, update.inputs.end());
}

// Disjoint when, along an axis both slice statically, their intervals do not meet.
bool disjoint(const graph::Node& slice, const graph::Node& update) {
  auto statics = [](const graph::Node& n) {
    std::map<int64_t, std::pair<int64_t, int64_t>> byAxis;
    const std::vector<int64_t> axes = n.intListAttr("axes"), begin = n.intListAttr("begin"), end = n.intListAttr("end"),
                               step = n.intListAttr("step"), dynamic = n.intListAttr("dynamic_axes");
    for (size_t k = 0; k < axes.size() && k < begin.size() && k < end.size() && k < step.size(); ++k) {
      if (std::find(dynamic.begin(), dynamic.end(), axes[k]) == dynamic.end()) byAxis[axes[k]] = hull(begin[k], end[k], step[k]);
    }
    return byAxis;
  };
  const auto a = statics(slice), b = statics(update);
  for (const auto& [axis, ha] : a) {
    auto it = b.find(axis);
    if (it == b.end()) continue;
    const auto& hb = it->second;
    if (ha.first > ha.second || hb.first > hb.second) continue;  // an empty slice: leave it
    if (ha.second < hb.first || hb.second < ha.first) return true;
  }
  return false;
}

int rewriteRegion(graph::Graph& g, graph::Region& region, std::map<graph::ValueId, graph::Node>& updates) {
  int rewritten = 0;
  for (graph::Node& n : region.nodes) {
    for (auto& sub : n.regions) rewritten += rewriteRegion(g, sub, updates);
    if (n.op == "Slice" && n.outputs.size() == 1 && !n.inputs.empty()) {
      for (auto it = updates.find(n.inputs[0]); it != updates.end(); it = updates.find(n.inputs[0])) {
        const graph::Node& u = it->second;
        if (sameSlice(n, u) && g.type(u.inputs[1]) == g.type(n.outputs[0])) {
          n.op = "Identity";
          n.inputs = {u.inputs[1]};
          n.attrs.clear();
          ++rewritten;
          break;
        }
        if (!disjoint(n, u)) break;
        n.inputs[0] = u.inputs[0];
        ++rewritten;
      }
    }
    if (n.op == "SliceUpdate" && n.outputs.size() == 1 && n.inputs.size() >= 2) updates[n.outputs[0]] = n;
  }
  return rewritten;
}

}  // namespace

int forwardSliceUpdates(graph::Graph& g) {
  std::map<graph::ValueId, graph::Node> updates;  // SliceUpdate nodes by their output (values are defined once)
  return rewriteRegion(g, g.body, updates);
}

}  // namespace pyasc::codegen
