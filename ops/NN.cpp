// pyasc.nn references: statistics along one axis of [outer, axis, inner], then per element.
#include "ops/NN.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pyasc::ops {

namespace {

// Index into an operand of `shape` broadcast (NumPy rules) to `full` at `full`'s flat index k.
int64_t broadcastIndex(const std::vector<int64_t>& full, const std::vector<int64_t>& shape, int64_t k) {
  int64_t index = 0, stride = 1;
  for (size_t d = full.size(); d-- > 0;) {
    const int64_t coord = k % full[d];
    k /= full[d];
    if (d + shape.size() < full.size()) continue;
    const int64_t e = shape[d + shape.size() - full.size()];
    if (e != 1) index += coord * stride;
    stride *= e;
  }
  return index;
}

}  // namespace

std::vector<double> nnReference(const graph::Node& node, const std::vector<std::vector<int64_t>>& shapes,
                                const std::vector<std::vector<double>>& inputs) {
  const std::vector<int64_t>& shape = shapes[0];
  const std::vector<double>& x = inputs[0];
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t axis = node.intAttr("axis", node.op == "BatchNorm" ? 1 : -1);
  axis = axis < 0 ? axis + rank : axis;
  int64_t outer = 1, extent = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) (d < axis ? outer : d == axis ? extent : inner) *= shape[static_cast<size_t>(d)];
  const double eps = node.floatAttr("epsilon", 1e-5);
  std::vector<double> out(x.size());
  auto at = [&](int64_t o, int64_t j, int64_t i) { return static_cast<size_t>((o * extent + j) * inner + i); };
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      if (node.op == "BatchNorm") {
        for (int64_t j = 0; j < extent; ++j) {
          const size_t c = static_cast<size_t>(j);
          out[at(o, j, i)] = (x[at(o, j, i)] - inputs[1][c]) / std::sqrt(inputs[2][c] + eps) * inputs[3][c] + inputs[4][c];
        }
        continue;
      }
      double peak = -std::numeric_limits<double>::infinity(), mean = 0, var = 0, sum = 0;
      for (int64_t j = 0; j < extent; ++j) {
        peak = std::max(peak, x[at(o, j, i)]);
        mean += x[at(o, j, i)] / static_cast<double>(extent);
      }
      for (int64_t j = 0; j < extent; ++j) {
        sum += std::exp(x[at(o, j, i)] - peak);
        var += (x[at(o, j, i)] - mean) * (x[at(o, j, i)] - mean) / static_cast<double>(extent);
      }
      for (int64_t j = 0; j < extent; ++j) {
        const size_t k = at(o, j, i);
        if (node.op == "Softmax") {
          out[k] = std::exp(x[k] - peak) / sum;
        } else if (node.op == "LogSoftmax") {
          out[k] = x[k] - peak - std::log(sum);
        } else {
          const int64_t flat = static_cast<int64_t>(k);
          out[k] = (x[k] - mean) / std::sqrt(var + eps) *
                       inputs[1][static_cast<size_t>(broadcastIndex(shape, shapes[1], flat))] +
                   inputs[2][static_cast<size_t>(broadcastIndex(shape, shapes[2], flat))];
        }
      }
    }
  return out;
}

}  // namespace pyasc::ops
