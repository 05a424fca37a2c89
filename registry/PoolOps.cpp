// pyasc.nn.max_pool2d and avg_pool2d: the MaxPool2D and AvgPool2D operators (NHWC or NCHW).
#include <algorithm>

#include "registry/BuiltinOps.h"
#include "registry/EntryBuilders.h"
#include "registry/PoolWindow.h"

namespace pyasc::registry {

namespace {

using graph::Dim;
using graph::TensorType;

std::string pair(int64_t a, int64_t b) { return "(" + std::to_string(a) + ", " + std::to_string(b) + ")"; }

// Expands 1 value to `size` copies and 2 values (h, w) to (h, h, w, w) when size is 4.
bool expand(const graph::Node& node, const char* attr, const std::string& what, size_t size,
            std::vector<int64_t>& out, std::string& error) {
  std::vector<int64_t> v = node.intListAttr(attr);
  if (v.size() == 1) v.assign(size, v[0]);
  if (v.size() == 2 && size == 4) v = {v[0], v[0], v[1], v[1]};
  if (v.size() != size) {
    error = what + " needs " + (size == 4 ? "1, 2 or 4 values" : "1 or 2 values") + ", got " +
            std::to_string(node.intListAttr(attr).size());
    return false;
  }
  out = v;
  return true;
}

bool inferPool2d(InferContext& ctx) {
  const std::string name = poolFunctionName(ctx.node.op);
  const TensorType& x = ctx.inputs[0];
  PoolWindow win;
  std::string error;
  if (!poolWindow(ctx.node, win, error)) return ctx.fail(error);
  if (x.rank() != 4) {
    return ctx.fail(name + " takes a 4-d input (" + (win.nchw ? "N, C, H, W" : "N, H, W, C") + "), got " + x.str());
  }
  const Dim& h = x.shape[win.nchw ? 2 : 1];
  const Dim& w = x.shape[win.nchw ? 3 : 2];
  if (!h.isKnown() || !w.isKnown()) return ctx.fail(name + " needs known spatial extents, got " + x.str());
  const int64_t paddedH = h.extent + win.padTop + win.padBottom, paddedW = w.extent + win.padLeft + win.padRight;
  if (win.kh > paddedH || win.kw > paddedW) {
    return ctx.fail(name + " kernel " + pair(win.kh, win.kw) + " is larger than the padded input " +
                    pair(paddedH, paddedW));
  }
  TensorType out = x;
  out.layout = graph::Layout::ND;
  out.shape[win.nchw ? 2 : 1] = Dim::known((paddedH - win.kh) / win.strideH + 1);
  out.shape[win.nchw ? 3 : 2] = Dim::known((paddedW - win.kw) / win.strideW + 1);
  ctx.outputs.push_back(out);
  return true;
}

OpEntry poolEntry(const char* name, const char* summary) {
  OpEntry e;
  e.name = name;
  e.category = OpCategory::Pool;
  e.summary = summary;
  e.inputs = {operand("x", kFloatTypes)};
  e.outputs = {operand("y", kFloatTypes)};
  e.attrs = {requiredAttr("kernel", graph::AttrKind::IntList, "window height and width (one value: both)"),
             optionalAttr("strides", graph::AttrKind::IntList, "vertical and horizontal stride; absent: the kernel"),
             attrWithDefault("pads", std::vector<int64_t>{0, 0, 0, 0},
                             "top, bottom, left, right padding (or one value, or (h, w)), at most half the kernel"),
             attrWithDefault("layout", std::string("NHWC"), "NHWC or NCHW")};
  e.infer = inferPool2d;
  return e;
}

NumpyAlias poolAlias(const char* name, const char* op, const char* note) {
  return functionAlias(name, op,
                       {tensorParam("x"), attrParam("kernel", ParamKind::IntList, "kernel"),
                        optionalParam("stride", ParamKind::IntList, "strides"),
                        attrParam("padding", ParamKind::IntList, "pads", std::vector<int64_t>{0, 0, 0, 0}),
                        attrParam("layout", ParamKind::String, "layout", std::string("NHWC"))},
                       {}, note);
}

}  // namespace

std::string poolFunctionName(const std::string& op) {
  return op == "MaxPool2D" ? "max_pool2d" : op == "AvgPool2D" ? "avg_pool2d" : op;
}

bool poolWindow(const graph::Node& node, PoolWindow& out, std::string& error) {
  const std::string name = poolFunctionName(node.op);
  std::vector<int64_t> kernel, strides, pads;
  if (!expand(node, "kernel", name + " kernel", 2, kernel, error)) return false;
  if (node.hasAttr("strides")) {
    if (!expand(node, "strides", name + " stride", 2, strides, error)) return false;
  } else {
    strides = kernel;
  }
  if (!expand(node, "pads", name + " padding", 4, pads, error)) return false;
  auto reject = [&](std::string message) {
    error = std::move(message);
    return false;
  };
  if (std::min(kernel[0], kernel[1]) < 1) return reject(name + " kernel sizes must be at least 1");
  if (std::min(strides[0], strides[1]) < 1) return reject(name + " strides must be at least 1");
  if (*std::min_element(pads.begin(), pads.end()) < 0) return reject(name + " padding must be non-negative");
  if (std::max(pads[0], pads[1]) > kernel[0] / 2 || std::max(pads[2], pads[3]) > kernel[1] / 2) {
    return reject(name + " padding must be at most half the kernel size: kernel " + pair(kernel[0], kernel[1]) +
                  ", padding (" + std::to_string(pads[0]) + ", " + std::to_string(pads[1]) + ", " +
                  std::to_string(pads[2]) + ", " + std::to_string(pads[3]) + ")");
  }
  const std::string layout = node.stringAttr("layout", "NHWC");
  if (layout != "NHWC" && layout != "NCHW") return reject(name + " layout must be 'NHWC' or 'NCHW', got '" + layout + "'");
  out = PoolWindow{kernel[0], kernel[1], strides[0], strides[1], pads[0], pads[1], pads[2], pads[3], layout == "NCHW"};
  return true;
}

void registerPoolOps(OpRegistry& r) {
  r.add(poolEntry("MaxPool2D", "maximum over each window; padding never wins (PyTorch MaxPool2d)"));
  r.add(poolEntry("AvgPool2D",
                  "mean over each window divided by the full window size, padding counted as zeros "
                  "(PyTorch AvgPool2d, count_include_pad=True)"));
  r.addAlias(poolAlias("nn.max_pool2d", "MaxPool2D", "stride defaults to the kernel; padding at most half the kernel"));
  r.addAlias(poolAlias("nn.avg_pool2d", "AvgPool2D", "divides by kh*kw, padding counted (count_include_pad=True)"));
}

}  // namespace pyasc::registry
