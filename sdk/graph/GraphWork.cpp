// graphWork: bytes read by what consumes each input, bytes of the outputs, algorithmic MACs (of
// matrix products, tensor contractions, convolutions and te.compute matrix products).
#include "sdk/graph/GraphWork.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "sdk/te/Compute.h"

namespace pyasc::graph {

namespace {

int64_t bytesOf(const TensorType& t) {
  int64_t n = elementCount(t.shape);
  return n < 0 ? 0 : n * dtypeSize(t.dtype);
}

int64_t extent(const TensorType& t, int64_t axis) {
  if (axis < 0) axis += t.rank();
  if (axis < 0 || axis >= t.rank() || !t.shape[static_cast<size_t>(axis)].isKnown()) return 0;
  return t.shape[static_cast<size_t>(axis)].extent;
}

// Multiply-accumulates of one contraction node: output elements × contracted extent.
uint64_t nodeMacs(const Graph& g, const Node& n) {
  auto type = [&](ValueId v) -> const TensorType& { return g.values[static_cast<size_t>(v)].type; };
  if (n.inputs.empty() || n.outputs.empty()) return 0;
  int64_t out = elementCount(type(n.outputs[0]).shape);
  if (out <= 0) return 0;
  if (n.op == "MatMul" || n.op == "FusedMatMul") {
    const TensorType& a = type(n.inputs[0]);
    return static_cast<uint64_t>(out) * static_cast<uint64_t>(extent(a, -1));
  }
  if (n.op == "Tensordot") {
    int64_t k = 1;
    for (int64_t axis : n.intListAttr("axes_a")) k *= extent(type(n.inputs[0]), axis);
    return static_cast<uint64_t>(out) * static_cast<uint64_t>(k);
  }
  if (n.op == "Compute") {  // a te.compute matrix product: rows × columns × the contraction
    te::ComputeDef def = te::parseComputeDef(n.stringAttr("compute"));
    if (!te::contractionOf(def)) return 0;
    return static_cast<uint64_t>(def.vars[0].extent) * static_cast<uint64_t>(def.vars[1].extent) *
           static_cast<uint64_t>(def.vars[2].extent);
  }
  if ((n.op == "Conv2D" || n.op == "FusedConv2D") && n.inputs.size() >= 2) {
    const TensorType& w = type(n.inputs[1]);
    int64_t cout = extent(w, n.stringAttr("layout", "NHWC") == "NCHW" ? 0 : -1);
    int64_t weights = elementCount(w.shape);
    return cout > 0 && weights > 0 ? static_cast<uint64_t>(out) * static_cast<uint64_t>(weights / cout) : 0;
  }
  if (n.op == "Einsum") {
    // every distinct subscript once: the product of their extents
    std::string eq = n.stringAttr("equation");
    std::string lhs = eq.substr(0, eq.find("->"));
    std::map<char, int64_t> extents;
    size_t operand = 0, axis = 0;
    for (char c : lhs) {
      if (c == ',') {
        ++operand;
        axis = 0;
      } else if (c != ' ' && operand < n.inputs.size()) {
        extents[c] = extent(type(n.inputs[operand]), static_cast<int64_t>(axis++));
      }
    }
    uint64_t macs = 1;
    for (const auto& [c, e] : extents) macs *= static_cast<uint64_t>(e);
    return n.inputs.size() >= 2 ? macs : 0;
  }
  return 0;
}

// The bytes of `input` a consumer needs: a gather its rows, a slice its result, others all.
int64_t bytesNeeded(const Graph& g, const Node& n, ValueId input) {
  const TensorType& in = g.values[static_cast<size_t>(input)].type;
  if (n.op == "Gather" && !n.inputs.empty() && n.inputs[0] == input) {
    std::vector<int64_t> idx = n.intListAttr("indices");
    std::set<int64_t> unique(idx.begin(), idx.end());
    int64_t axisExtent = extent(in, n.intAttr("axis"));
    return axisExtent > 0 ? bytesOf(in) / axisExtent * static_cast<int64_t>(unique.size()) : bytesOf(in);
  }
  if (n.op == "Slice" && !n.outputs.empty()) return std::min(bytesOf(in), bytesOf(g.values[static_cast<size_t>(n.outputs[0])].type));
  return bytesOf(in);
}

void visit(const Graph& g, const Region& r, GraphWork& work, std::map<ValueId, int64_t>& needed) {
  for (const Node& n : r.nodes) {
    work.macs += nodeMacs(g, n);
    for (ValueId v : n.inputs) {
      auto it = needed.find(v);
      if (it != needed.end()) it->second = std::min(bytesOf(g.values[static_cast<size_t>(v)].type), it->second + bytesNeeded(g, n, v));
    }
    for (const Region& inner : n.regions) visit(g, inner, work, needed);
  }
}

}  // namespace

GraphWork graphWork(const Graph& g) {
  GraphWork work;
  std::map<ValueId, int64_t> needed;  // per graph input: bytes its consumers need so far
  for (const GraphInput& in : g.inputs) needed[in.value] = 0;
  visit(g, g.body, work, needed);
  for (const auto& [v, bytes] : needed) work.readBytes += bytes;
  for (const GraphOutput& out : g.outputs) {
    // an output that is an input unchanged is still written
    work.writeBytes += bytesOf(g.values[static_cast<size_t>(out.value)].type);
  }
  return work;
}

}  // namespace pyasc::graph
