// Short graph loops unrolled into straight-line nodes for the CPU backend.
#include "cpu/UnrollLoops.h"

#include "cpu/GraphRewrite.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace pyasc::cpu {

namespace {

constexpr int64_t kMaxNodes = 64, kMaxCarriedElements = 16384;

int64_t tripsOf(const graph::Node& loop) {
  const int64_t start = loop.intAttr("start"), stop = loop.intAttr("stop"), step = loop.intAttr("step", 1);
  if (step > 0) return stop > start ? (stop - start + step - 1) / step : 0;
  if (step < 0) return start > stop ? (start - stop - step - 1) / -step : 0;
  return -1;  // (a step of 0 is the host loop's error)
}

bool unrollable(const graph::Graph& graph, const graph::Node& loop, int64_t maxTrips) {
  const graph::Region& body = loop.body();
  const int64_t trips = tripsOf(loop);
  if (loop.isWhileLoop() || trips < 0 || trips > maxTrips || trips * static_cast<int64_t>(body.nodes.size()) > kMaxNodes) return false;
  for (const graph::Node& node : body.nodes)
    if (node.isLoop()) return false;
  int64_t carried = 0;
  for (graph::ValueId v : loop.inputs) {
    if (!graph::isStaticShape(graph.type(v).shape)) return false;
    carried += graph::elementCount(graph.type(v).shape);
  }
  return carried <= kMaxCarriedElements;
}

struct Unroller {
  graph::Graph& graph;
  int64_t maxTrips;
  std::unordered_map<graph::ValueId, graph::ValueId> results;  // a loop's result -> the last trip's value
  int unrolled = 0;

  graph::ValueId constant(int64_t i, const graph::Value induction) {  // (a copy: addValue may move the values)
    const graph::ValueId v = graph.addValue(induction.name, induction.type, induction.loc);
    graph.constants.push_back(graph::GraphConstant{v, graph::encodeConstant(induction.type.dtype, {static_cast<double>(i)})});
    return v;
  }

  void region(graph::Region& r) {
    std::vector<graph::Node> nodes;
    for (graph::Node& node : r.nodes) {
      if (!node.isLoop()) {
        nodes.push_back(std::move(node));
        continue;
      }
      region(node.body());
      renameUses(node.body(), results);  // (the body's uses of its unrolled loops' results, before it is copied)
      if (!unrollable(graph, node, maxTrips)) {
        nodes.push_back(std::move(node));
        continue;
      }
      const graph::Region& body = node.body();
      std::vector<graph::ValueId> carried = node.inputs;
      const int64_t start = node.intAttr("start"), step = node.intAttr("step", 1), trips = tripsOf(node);
      for (int64_t t = 0; t < trips; ++t) {
        std::unordered_map<graph::ValueId, graph::ValueId> trip;  // the body's values in this trip
        trip[body.arguments.at(0)] = constant(start + t * step, graph.value(body.arguments[0]));
        for (size_t c = 0; c < carried.size(); ++c) trip[body.arguments.at(c + 1)] = carried[c];
        auto in = [&](graph::ValueId v) {
          auto m = trip.find(v);
          return m == trip.end() ? v : m->second;
        };
        for (const graph::Node& inner : body.nodes) {
          graph::Node copy = inner;
          for (graph::ValueId& v : copy.inputs) v = in(v);
          for (graph::ValueId& o : copy.outputs) {
            const graph::Value value = graph.value(o);  // (a copy: addValue may move the values)
            const graph::ValueId fresh = graph.addValue(value.name, value.type, value.loc);
            trip[o] = fresh;
            o = fresh;
          }
          nodes.push_back(std::move(copy));
        }
        for (size_t c = 0; c < carried.size(); ++c) carried[c] = in(body.yields.at(c));
      }
      for (size_t c = 0; c < node.outputs.size(); ++c) results[node.outputs[c]] = carried[c];
      ++unrolled;
    }
    r.nodes = std::move(nodes);
  }

};

}  // namespace

int unrollShortLoops(graph::Graph& graph, int64_t maxTrips) {
  Unroller u{graph, maxTrips, {}, 0};
  u.region(graph.body);
  if (u.unrolled == 0) return 0;
  renameUses(graph, u.results);
  return u.unrolled;
}

}  // namespace pyasc::cpu
