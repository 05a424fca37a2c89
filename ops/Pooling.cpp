// Reference pooling: each output element reduces its window of input pixels in float64.
#include "ops/Pooling.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "registry/PoolWindow.h"

namespace pyasc::ops {

std::vector<double> pool2dReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                    const std::vector<double>& x) {
  registry::PoolWindow win;
  std::string error;
  if (!registry::poolWindow(node, win, error)) return {};
  const bool maximum = node.op == "MaxPool2D";
  // element strides of the four axes: image, channel, row, column
  const int64_t n = shape[0], c = shape[win.nchw ? 1 : 3], h = shape[win.nchw ? 2 : 1], w = shape[win.nchw ? 3 : 2];
  const int64_t oh = (h + win.padTop + win.padBottom - win.kh) / win.strideH + 1;
  const int64_t ow = (w + win.padLeft + win.padRight - win.kw) / win.strideW + 1;
  auto offset = [&](int64_t image, int64_t channel, int64_t row, int64_t col, int64_t rows, int64_t cols) {
    return win.nchw ? ((image * c + channel) * rows + row) * cols + col : ((image * rows + row) * cols + col) * c + channel;
  };
  std::vector<double> out(static_cast<size_t>(n * c * oh * ow));
  for (int64_t image = 0; image < n; ++image)
    for (int64_t channel = 0; channel < c; ++channel)
      for (int64_t r = 0; r < oh; ++r)
        for (int64_t q = 0; q < ow; ++q) {
          double acc = maximum ? -std::numeric_limits<double>::infinity() : 0.0;
          for (int64_t i = 0; i < win.kh; ++i)
            for (int64_t j = 0; j < win.kw; ++j) {
              const int64_t ih = r * win.strideH - win.padTop + i, iw = q * win.strideW - win.padLeft + j;
              if (ih < 0 || ih >= h || iw < 0 || iw >= w) continue;
              const double v = x[static_cast<size_t>(offset(image, channel, ih, iw, h, w))];
              acc = maximum ? (std::isnan(v) || v > acc ? v : acc) : acc + v;
            }
          out[static_cast<size_t>(offset(image, channel, r, q, oh, ow))] = maximum ? acc : acc / double(win.kh * win.kw);
        }
  return out;
}

}  // namespace pyasc::ops
