// Element reads after element writes (`a[0] = ...; y = a[2]`) read the array before the writes or
// the value written, so the written copies are read once, by the next write, and fuse into one
// pass instead of each being an array of their own.
#include "codegen/graph/ForwardSliceUpdates.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace pyasc::codegen {

namespace {

// The indices a static slice takes along one axis, as a closed interval; empty when it takes none.
std::pair<int64_t, int64_t> hull(int64_t begin, int64_t end, int64_t step) {
  if (step > 0) return end > begin ? std::make_pair(begin, begin + step * ((end - begin - 1) / step)) : std::make_pair<int64_t, int64_t>(1, 0);
  if (step < 0) return begin > end ? std::make_pair(begin + step * ((begin - end - 1) / -step), begin) : std::make_pair<int64_t, int64_t>(1, 0);
  return {1, 0};
}

// A slice's or slice update's window, its attributes read once.
struct Window {
  std::vector<int64_t> axes, begin, end, step, dynamic;
  std::vector<graph::ValueId> offsets;  // the dynamic offsets
  std::map<int64_t, std::pair<int64_t, int64_t>> statics;  // per statically sliced axis, its hull

  Window(const graph::Node& n, size_t firstOffset)
      : axes(n.intListAttr("axes")), begin(n.intListAttr("begin")), end(n.intListAttr("end")),
        step(n.intListAttr("step")), dynamic(n.intListAttr("dynamic_axes")),
        offsets(n.inputs.begin() + static_cast<std::ptrdiff_t>(std::min(firstOffset, n.inputs.size())), n.inputs.end()) {
    for (size_t k = 0; k < axes.size() && k < begin.size() && k < end.size() && k < step.size(); ++k) {
      if (std::find(dynamic.begin(), dynamic.end(), axes[k]) == dynamic.end()) statics[axes[k]] = hull(begin[k], end[k], step[k]);
    }
  }
  bool same(const Window& o) const {
    return axes == o.axes && begin == o.begin && end == o.end && step == o.step && dynamic == o.dynamic && offsets == o.offsets;
  }
  // Disjoint when, along an axis both slice statically, their intervals do not meet.
  bool disjoint(const Window& o) const {
    for (const auto& [axis, ha] : statics) {
      auto it = o.statics.find(axis);
      if (it == o.statics.end()) continue;
      const auto& hb = it->second;
      if (ha.first > ha.second || hb.first > hb.second) continue;  // an empty slice: leave it
      if (ha.second < hb.first || hb.second < ha.first) return true;
    }
    return false;
  }
};

struct Update {
  graph::ValueId base, value;
  Window window;
};

int rewriteRegion(graph::Graph& g, graph::Region& region, std::map<graph::ValueId, Update>& updates) {
  int rewritten = 0;
  for (graph::Node& n : region.nodes) {
    for (auto& sub : n.regions) rewritten += rewriteRegion(g, sub, updates);
    if (n.op == "Slice" && n.outputs.size() == 1 && !n.inputs.empty() && updates.count(n.inputs[0])) {
      const Window slice(n, 1);
      for (auto it = updates.find(n.inputs[0]); it != updates.end(); it = updates.find(n.inputs[0])) {
        const Update& u = it->second;
        if (slice.same(u.window) && g.type(u.value) == g.type(n.outputs[0])) {
          n.op = "Identity";
          n.inputs = {u.value};
          n.attrs.clear();
          ++rewritten;
          break;
        }
        if (!slice.disjoint(u.window)) break;
        n.inputs[0] = u.base;
        ++rewritten;
      }
    }
    if (n.op == "SliceUpdate" && n.outputs.size() == 1 && n.inputs.size() >= 2)
      updates.emplace(n.outputs[0], Update{n.inputs[0], n.inputs[1], Window(n, 2)});
  }
  return rewritten;
}

}  // namespace

int forwardSliceUpdates(graph::Graph& g) {
  std::map<graph::ValueId, Update> updates;  // by their output (values are defined once)
  return rewriteRegion(g, g.body, updates);
}

}  // namespace pyasc::codegen
