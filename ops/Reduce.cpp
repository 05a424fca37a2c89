// Reduction references: each output element folds its reduced coordinates in row-major order.
#include "ops/Reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pyasc::ops {

std::vector<double> reduceReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                    const std::vector<double>& x) {
  const size_t rank = shape.size();
  const bool arg = node.op == "ArgMax" || node.op == "ArgMin";
  std::vector<bool> reduced(rank, true);
  const char* axisName = arg ? "axis" : "axes";
  if (node.hasAttr(axisName)) {
    reduced.assign(rank, false);
    std::vector<int64_t> axes = arg ? std::vector<int64_t>{node.intAttr("axis")} : node.intListAttr("axes");
    for (int64_t a : axes) reduced[static_cast<size_t>(a < 0 ? a + static_cast<int64_t>(rank) : a)] = true;
  }
  int64_t outCount = 1, reduceCount = 1;
  for (size_t d = 0; d < rank; ++d) (reduced[d] ? reduceCount : outCount) *= shape[d];
  std::vector<double> acc(static_cast<size_t>(outCount));
  std::vector<int64_t> index(static_cast<size_t>(outCount), -1);
  const bool product = node.op == "ReduceProd";
  const bool maximum = node.op == "ReduceMax" || node.op == "ArgMax", minimum = node.op == "ReduceMin" || node.op == "ArgMin";
  const double inf = std::numeric_limits<double>::infinity();
  std::fill(acc.begin(), acc.end(), product || node.op == "ReduceAll" ? 1.0 : maximum ? -inf : minimum ? inf : 0.0);
  // the output index and the position along the reduced axes of input element k
  auto locate = [&](int64_t k, int64_t& o, int64_t& r) {
    int64_t outStride = 1, redStride = 1;
    o = r = 0;
    for (size_t d = rank; d-- > 0;) {
      const int64_t coord = k % shape[d];
      k /= shape[d];
      if (reduced[d]) {
        r += coord * redStride;
        redStride *= shape[d];
      } else {
        o += coord * outStride;
        outStride *= shape[d];
      }
    }
  };
  const bool variance = node.op == "ReduceVar" || node.op == "ReduceStd";
  for (size_t k = 0; k < x.size(); ++k) {
    int64_t o, r;
    locate(static_cast<int64_t>(k), o, r);
    double& a = acc[static_cast<size_t>(o)];
    const double v = x[k];
    if (product) {
      a *= v;
    } else if (node.op == "ReduceAll") {
      a = a != 0 && v != 0 ? 1 : 0;
    } else if (node.op == "ReduceAny") {
      a = a != 0 || v != 0 ? 1 : 0;
    } else if (maximum || minimum) {
      // the first NaN wins, else the first extreme
      const bool better = !std::isnan(a) && (std::isnan(v) || (maximum ? v > a : v < a));
      if (index[static_cast<size_t>(o)] < 0 || better) {
        a = v;
        index[static_cast<size_t>(o)] = r;
      }
    } else {
      a += v;
    }
  }
  if (arg) {
    for (size_t o = 0; o < acc.size(); ++o) acc[o] = static_cast<double>(index[o]);
  } else if (node.op == "ReduceMean") {
    for (double& a : acc) a /= static_cast<double>(reduceCount);
  } else if (variance) {
    // the squared deviations from each output's mean, over n - ddof
    std::vector<double> squares(acc.size());
    for (size_t k = 0; k < x.size(); ++k) {
      int64_t o, r;
      locate(static_cast<int64_t>(k), o, r);
      const double d = x[k] - acc[static_cast<size_t>(o)] / static_cast<double>(reduceCount);
      squares[static_cast<size_t>(o)] += d * d;
    }
    for (size_t o = 0; o < acc.size(); ++o) {
      acc[o] = squares[o] / static_cast<double>(reduceCount - node.intAttr("ddof"));
      if (node.op == "ReduceStd") acc[o] = std::sqrt(acc[o]);
    }
  }
  return acc;
}

}  // namespace pyasc::ops
