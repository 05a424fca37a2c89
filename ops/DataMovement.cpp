// Data-movement references: every output element looked up from its input coordinate.
#include "ops/DataMovement.h"

#include <algorithm>
#include <cstdlib>
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

std::vector<double> transposeReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                       const std::vector<double>& x) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> perm = node.intListAttr("perm");
  if (!node.hasAttr("perm"))
    for (int64_t d = rank - 1; d >= 0; --d) perm.push_back(d);
  for (auto& p : perm) p = p < 0 ? p + rank : p;
  std::vector<int64_t> outShape;
  for (int64_t p : perm) outShape.push_back(shape[static_cast<size_t>(p)]);
  return lookUp(shape, outShape, x, 0, [&](std::vector<int64_t>& at) {
    std::vector<int64_t> in(shape.size());
    for (size_t d = 0; d < perm.size(); ++d) in[static_cast<size_t>(perm[d])] = at[d];
    at = in;
    return true;
  });
}

std::vector<double> sliceReference(const graph::Node& node, const std::vector<int64_t>& shape, const std::vector<double>& x) {
  const std::vector<int64_t> axes = node.intListAttr("axes"), begin = node.intListAttr("begin"),
                             end = node.intListAttr("end"), step = node.intListAttr("step");
  std::vector<int64_t> outShape = shape;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t s = step[i], span = s > 0 ? end[i] - begin[i] : begin[i] - end[i];
    outShape[static_cast<size_t>(axes[i])] = std::max<int64_t>(0, (span + std::abs(s) - 1) / std::abs(s));
  }
  return lookUp(shape, outShape, x, 0, [&](std::vector<int64_t>& at) {
    for (size_t i = 0; i < axes.size(); ++i) {
      int64_t& a = at[static_cast<size_t>(axes[i])];
      a = begin[i] + a * step[i];
    }
    return true;
  });
}

std::vector<double> slidingWindowReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                           const std::vector<double>& x) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  const std::vector<int64_t> window = node.intListAttr("window_shape");
  std::vector<int64_t> axes = node.intListAttr("axes");
  if (!node.hasAttr("axes"))
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  for (auto& a : axes) a = a < 0 ? a + rank : a;
  std::vector<int64_t> outShape = shape;
  for (size_t k = 0; k < axes.size(); ++k) outShape[static_cast<size_t>(axes[k])] -= window[k] - 1;
  outShape.insert(outShape.end(), window.begin(), window.end());
  return lookUp(shape, outShape, x, 0, [&](std::vector<int64_t>& at) {
    std::vector<int64_t> in(at.begin(), at.begin() + rank);
    for (size_t k = 0; k < axes.size(); ++k) in[static_cast<size_t>(axes[k])] += at[static_cast<size_t>(rank) + k];
    at = in;
    return true;
  });
}

std::vector<double> broadcastToReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                         const std::vector<double>& x) {
  const std::vector<int64_t> outShape = node.intListAttr("shape");
  return lookUp(shape, outShape, x, 0, [&](std::vector<int64_t>& at) {
    std::vector<int64_t> in(at.end() - static_cast<std::ptrdiff_t>(shape.size()), at.end());
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] == 1) in[d] = 0;
    at = in;
    return true;
  });
}

std::vector<double> concatReference(const graph::Node& node, const std::vector<std::vector<int64_t>>& shapes,
                                    const std::vector<std::vector<double>>& inputs) {
  const bool stack = node.op == "Stack";
  std::vector<std::vector<int64_t>> parts = shapes;
  int64_t rank = static_cast<int64_t>(shapes[0].size()) + (stack ? 1 : 0), axis = node.intAttr("axis");
  axis = axis < 0 ? axis + rank : axis;
  if (stack)
    for (auto& s : parts) s.insert(s.begin() + axis, 1);
  // each input's block of the result: outer rows of `run` elements, laid side by side
  int64_t outer = 1, total = 0;
  for (int64_t d = 0; d < axis; ++d) outer *= parts[0][static_cast<size_t>(d)];
  std::vector<int64_t> runs;
  for (const auto& s : parts) {
    int64_t run = 1;
    for (size_t d = static_cast<size_t>(axis); d < s.size(); ++d) run *= s[d];
    runs.push_back(run);
    total += run;
  }
  std::vector<double> out;
  out.reserve(static_cast<size_t>(outer * total));
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inputs.size(); ++i)
      out.insert(out.end(), inputs[i].begin() + o * runs[i], inputs[i].begin() + (o + 1) * runs[i]);
  return out;
}

}  // namespace pyasc::ops
