// References for Pad and Gather: every output element looked up from its input coordinate.
#include "ops/DataMovement.h"

#include <algorithm>
#include <functional>

namespace pyasc::ops {

namespace {

// Calls `source` with each output coordinate (row-major order) and collects x at the coordinate it
// returns, or `fill` when it returns false.
std::vector<double> lookUp(const std::vector<int64_t>& inShape, const std::vector<int64_t>& outShape,
                           const std::vector<double>& x, double fill,
                           const std::function<bool(std::vector<int64_t>&)>& source) {
  int64_t count = 1;
  for (int64_t d : outShape) count *= d;
  std::vector<double> out(static_cast<size_t>(std::max<int64_t>(count, 0)));
  std::vector<int64_t> coord(outShape.size());
  for (int64_t k = 0; k < count; ++k) {
    for (size_t d = outShape.size(), rem = static_cast<size_t>(k); d-- > 0;) {
      coord[d] = static_cast<int64_t>(rem % static_cast<size_t>(outShape[d]));
      rem /= static_cast<size_t>(outShape[d]);
    }
    std::vector<int64_t> at = coord;
    if (!source(at)) {
      out[static_cast<size_t>(k)] = fill;
      continue;
    }
    int64_t index = 0;
    for (size_t d = 0; d < inShape.size(); ++d) index = index * inShape[d] + at[d];
    out[static_cast<size_t>(k)] = x[static_cast<size_t>(index)];
  }
  return out;
}

}  // namespace

std::vector<double> padReference(const graph::Node& node, const std::vector<int64_t>& shape, const std::vector<double>& x) {
  const std::vector<int64_t> pads = node.intListAttr("pads");
  const bool edge = node.stringAttr("mode", "constant") == "edge";
  std::vector<int64_t> outShape = shape;
  for (size_t d = 0; d < shape.size(); ++d) outShape[d] += pads[2 * d] + pads[2 * d + 1];
  return lookUp(shape, outShape, x, node.floatAttr("value"), [&](std::vector<int64_t>& at) {
    for (size_t d = 0; d < shape.size(); ++d) {
      at[d] -= pads[2 * d];
      if (at[d] >= 0 && at[d] < shape[d]) continue;
      if (!edge) return false;
      at[d] = std::clamp<int64_t>(at[d], 0, shape[d] - 1);
    }
    return true;
  });
}

std::vector<double> gatherReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                    const std::vector<double>& x) {
  const std::vector<int64_t> indices = node.intListAttr("indices");
  const size_t axis = static_cast<size_t>(node.intAttr("axis"));
  std::vector<int64_t> outShape = shape;
  outShape[axis] = static_cast<int64_t>(indices.size());
  return lookUp(shape, outShape, x, 0, [&](std::vector<int64_t>& at) {
    at[axis] = indices[static_cast<size_t>(at[axis])];
    return true;
  });
}

}  // namespace pyasc::ops
