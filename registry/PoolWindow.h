// The expanded window of a MaxPool2D/AvgPool2D node, shared by inference and lowering.
#pragma once

#include <cstdint>
#include <string>

#include "sdk/graph/Graph.h"

namespace pyasc::registry {

struct PoolWindow {
  int64_t kh = 1, kw = 1, strideH = 1, strideW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  bool nchw = false;
};

// NumPy-style name of a pooling operator: "max_pool2d", "avg_pool2d".
std::string poolFunctionName(const std::string& op);

// Reads kernel (1 or 2 values), strides (absent: the kernel; 1 or 2 values), pads (1, 2 or 4
// values) and layout, and checks them; false with a user-facing `error` otherwise.
bool poolWindow(const graph::Node& node, PoolWindow& out, std::string& error);

}  // namespace pyasc::registry
