// CPU lowerings of the network operators: softmax, log-softmax, layer and batch norm, Conv2D and FusedConv2D, pooling, te.compute.
#include "cpu/LowerSupport.h"

#include <cmath>
#include <stdexcept>

#include "cpu/ComputeToHalide.h"
#include "cpu/TeToHalide.h"
#include "registry/PoolWindow.h"

namespace pyasc::cpu {

using Halide::Expr;

namespace {

// Softmax, LogSoftmax and LayerNorm along one axis, in float32 (float64 for float64 input).
Lowered alongAxis(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::string name = graph.value(node.outputs[0]).name;
  const Halide::Type acc = in[0].type.dtype == DType::Float64 ? Halide::Float(64) : Halide::Float(32);
  int64_t axis = node.intAttr("axis", -1);
  if (axis < 0) axis += in[0].type.rank();
  const size_t a = static_cast<size_t>(axis);
  const int32_t n = extent32(node, in[0].type.shape[a].extent);
  Halide::RDom r(0, n);
  auto along = [&](const Index& i, Expr k) {
    Index src = i;
    src[a] = k;
    return castValue(acc, at(in[0], src));
  };
  graph::TensorType rowType = in[0].type;
  rowType.shape[a] = graph::Dim::known(1);
  rowType.dtype = acc.bits() == 64 ? DType::Float64 : DType::Float32;
  const Walk walk = a + 1 == in[0].type.shape.size() ? Walk::AlongInner : Walk::Across;
  // a row statistic, computed once per row (every element of the row reads it): combine(total,
  // the row's element at r.x) from init, over the row
  auto rowFunc = [&](const std::string& suffix, Expr init, const std::function<Expr(Expr, const Index&)>& combine,
                     const std::function<Expr(Expr)>& finish) {
    Lowered row = accumulate(name + suffix, rowType, walk, [&](const Index&) { return init; }, combine, finish);
    if (autoscheduler().empty()) row.func.compute_root();
    return row;
  };
  const Expr zero = castValue(acc, 0);
  auto mean = [&](Expr t) { return t / castValue(acc, n); };
  if (node.op == "LayerNorm") {
    const double eps = node.floatAttr("epsilon", 1e-5);
    Lowered mu = rowFunc("_mean", zero, [&](Expr t, const Index& i) { return t + along(i, r.x); }, mean);
    Lowered var = rowFunc("_var", zero, [&](Expr t, const Index& i) {
      Expr d = along(i, r.x) - at(mu, i);
      return t + d * d;
    }, mean);
    return define(name, outType, [&](const Index& i) {
      Index row = i;
      row[a] = 0;
      Expr y = (castValue(acc, at(in[0], i)) - at(mu, row)) / Halide::sqrt(at(var, row) + castValue(acc, Expr(eps)));
      return y * castValue(acc, at(in[1], broadcastIndex(i, in[1].type))) + castValue(acc, at(in[2], broadcastIndex(i, in[2].type)));
    });
  }
  // exp and log in the accumulator's type (float32: vectorised float32 polynomials)
  auto exp = [&](const Expr& x) { return acc.bits() == 32 ? expFloat(x) : expDouble(x); };
  auto log = [&](const Expr& x) { return acc.bits() == 32 ? logFloat(x) : logDouble(x); };
  Lowered top = rowFunc("_max", castValue(acc, -INFINITY), [&](Expr t, const Index& i) { return Halide::max(t, along(i, r.x)); }, same);
  Lowered total = rowFunc("_sum", zero, [&](Expr t, const Index& i) { return t + exp(along(i, r.x) - at(top, i)); }, same);
  const bool logSoftmax = node.op == "LogSoftmax";
  return define(name, outType, [&](const Index& i) {
    Index row = i;
    row[a] = 0;
    Expr shifted = castValue(acc, at(in[0], i)) - at(top, row);
    return logSoftmax ? shifted - log(at(total, row)) : exp(shifted) / at(total, row);
  });
}

Lowered batchNorm(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const Halide::Type acc = in[0].type.dtype == DType::Float64 ? Halide::Float(64) : Halide::Float(32);
  int64_t axis = node.intAttr("axis", 1);
  if (axis < 0) axis += in[0].type.rank();
  const double eps = node.floatAttr("epsilon", 1e-5);
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    auto channel = [&](size_t k) { return castValue(acc, at(in[k], {i[static_cast<size_t>(axis)]})); };
    Expr x = castValue(acc, at(in[0], i));
    return (x - channel(1)) / Halide::sqrt(channel(2) + castValue(acc, Expr(eps))) * channel(3) + channel(4);
  });
}

// ---- windows -----------------------------------------------------------------------------------

// Conv2D: y[n, oh, ow, co] = sum over kh, kw and the group's input channels of
// x[n, oh*sh - pt + kh*dh, ow*sw - pl + kw*dw, c] * w[kh, kw, c, co] (NHWC; NCHW alike), zero padding.
// The result is `name` of `outType` (the node's output unless a fused epilogue follows).
Lowered conv2dAs(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in, const std::string& name,
                 const graph::TensorType& outType) {
  const bool nchw = node.stringAttr("layout", "NHWC") == "NCHW";
  const std::vector<int64_t> strides = node.intListAttr("strides", {1, 1});
  const std::vector<int64_t> pads = node.intListAttr("pads", {0, 0, 0, 0});
  const std::vector<int64_t> dil = node.intListAttr("dilations", {1, 1});
  const int64_t groups = node.intAttr("groups", 1);
  const std::vector<int64_t> x = extents(in[0].type), w = extents(in[1].type);
  const int64_t h = nchw ? x[2] : x[1], wd = nchw ? x[3] : x[2];
  const int64_t kh = nchw ? w[2] : w[0], kw = nchw ? w[3] : w[1], cg = nchw ? w[1] : w[2], cout = nchw ? w[0] : w[3];
  const int64_t outPerGroup = cout / std::max<int64_t>(groups, 1);
  const Halide::Type acc = accumulatorType(in[0].type.dtype, outType.dtype);
  // the zero-padded input, computed once: the windows read it at affine indices (dense vectors,
  // where clamped indices would be gathers)
  const size_t hAxis = nchw ? 2 : 1, wAxis = nchw ? 3 : 2;
  graph::TensorType paddedType = in[0].type;
  paddedType.shape[hAxis] = graph::Dim::known(h + pads[0] + pads[1]);
  paddedType.shape[wAxis] = graph::Dim::known(wd + pads[2] + pads[3]);
  Lowered padded = define(name + "_padded", paddedType, [&](const Index& i) {
    const Expr iy = i[hAxis] - static_cast<int32_t>(pads[0]), ix = i[wAxis] - static_cast<int32_t>(pads[2]);
    Index src = i;
    src[hAxis] = clampIndex(iy, h);
    src[wAxis] = clampIndex(ix, wd);
    const Expr inside = iy >= 0 && iy < static_cast<int32_t>(h) && ix >= 0 && ix < static_cast<int32_t>(wd);
    return Halide::select(inside, at(in[0], src), Halide::cast(halideType(paddedType.dtype), 0));
  });
  computeOnce(padded);
  Halide::RDom r(0, extent32(node, kh), 0, extent32(node, kw), 0, extent32(node, cg));
  return accumulate(name, outType, Walk::Across, [&](const Index&) { return castValue(acc, 0); },
                    [&](Expr total, const Index& o) {
                      const Expr n = o[0], oy = nchw ? o[2] : o[1], ox = nchw ? o[3] : o[2], co = nchw ? o[1] : o[3];
                      Expr iy = oy * static_cast<int32_t>(strides[0]) + r.x * static_cast<int32_t>(dil[0]);
                      Expr ix = ox * static_cast<int32_t>(strides[1]) + r.y * static_cast<int32_t>(dil[1]);
                      Expr c = (co / static_cast<int32_t>(outPerGroup)) * static_cast<int32_t>(cg) + r.z;
                      Expr xv = at(padded, nchw ? Index{n, c, iy, ix} : Index{n, iy, ix, c});
                      Expr wv = at(in[1], nchw ? Index{co, r.z, r.x, r.y} : Index{r.x, r.y, r.z, co});
                      return total + castValue(acc, xv) * castValue(acc, wv);
                    },
                    same);
}

Lowered conv2d(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  return conv2dAs(graph, node, in, graph.value(node.outputs[0]).name, graph.type(node.outputs[0]));
}

// FusedConv2D: the convolution in float32 (float64 for float64), then its epilogue in that type:
// the scale and bias, or acc · s + t (s = gamma / sqrt(var + eps), t = beta − mean · s), the residual, max(·, 0); a
// float16 residual of a float16 result is added (and rectified) after the conversion, as the kernel does.
Lowered fusedConv2d(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::string name = graph.value(node.outputs[0]).name;
  graph::TensorType accType = outType;
  accType.dtype = outType.dtype == DType::Float64 ? DType::Float64 : DType::Float32;
  const Halide::Type acc = halideType(accType.dtype);
  Lowered raw = conv2dAs(graph, node, in, name + "_acc", accType);
  computeOnce(raw);
  const bool scale = node.boolAttr("scale"), bias = node.boolAttr("bias"), norm = node.boolAttr("batch_norm"),
             residual = node.boolAttr("residual"), relu = node.boolAttr("relu");
  const double eps = node.floatAttr("epsilon", 1e-5);
  return define(name, outType, [&](const Index& i) {
    Expr y = at(raw, i);
    if (scale) y = y * castValue(acc, at(in[2], {i[3]}));
    if (bias) y = y + castValue(acc, at(in[scale ? 3 : 2], {i[3]}));
    if (norm) {
      auto channel = [&](size_t k) { return castValue(acc, at(in[k], {i[3]})); };
      Expr scale = channel(4) / Halide::sqrt(channel(3) + castValue(acc, Expr(eps)));
      y = y * scale + (channel(5) - channel(2) * scale);
    }
    const Halide::Type out = halideType(outType.dtype);
    if (residual && outType.dtype == DType::Float16 && graph.type(node.inputs.back()).dtype == DType::Float16) {
      y = castValue(out, y) + at(in.back(), i);
      return relu ? Halide::max(y, castValue(out, 0)) : y;
    }
    if (residual) y = y + castValue(acc, at(in.back(), i));
    if (relu) y = Halide::max(y, castValue(acc, 0));
    return castValue(out, y);
  });
}

// MaxPool2D and AvgPool2D: padded positions never win a maximum and count as zeros in an average
// over the whole window (pyasc.nn's definition).
Lowered pool2d(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  registry::PoolWindow win;
  std::string error;
  if (!registry::poolWindow(node, win, error)) fail(node, error);
  const std::vector<int64_t> x = extents(in.type);
  const int64_t h = win.nchw ? x[2] : x[1], wd = win.nchw ? x[3] : x[2];
  const bool isMax = node.op == "MaxPool2D";
  const Halide::Type acc = isMax ? (in.type.dtype == DType::Float16 ? Halide::Float(32) : halideType(in.type.dtype)) : Halide::Float(64);
  Halide::RDom r(0, extent32(node, win.kh), 0, extent32(node, win.kw));
  const double count = static_cast<double>(win.kh * win.kw);
  return accumulate(graph.value(node.outputs[0]).name, outType, Walk::Across,
                    [&](const Index&) { return castValue(acc, Expr(isMax ? -INFINITY : 0.0)); },
                    [&](Expr total, const Index& o) {
                      const Expr n = o[0], c = win.nchw ? o[1] : o[3], oy = win.nchw ? o[2] : o[1], ox = win.nchw ? o[3] : o[2];
                      Expr iy = oy * static_cast<int32_t>(win.strideH) - static_cast<int32_t>(win.padTop) + r.x;
                      Expr ix = ox * static_cast<int32_t>(win.strideW) - static_cast<int32_t>(win.padLeft) + r.y;
                      Expr inside = iy >= 0 && iy < static_cast<int32_t>(h) && ix >= 0 && ix < static_cast<int32_t>(wd);
                      Expr v = castValue(acc, at(in, win.nchw ? Index{n, c, clampIndex(iy, h), clampIndex(ix, wd)}
                                                             : Index{n, clampIndex(iy, h), clampIndex(ix, wd), c}));
                      return Halide::select(inside, isMax ? nanMaxOf(total, v) : total + v, total);
                    },
                    [&](Expr total) { return isMax ? total : total / Expr(count); });
}

}  // namespace

void addNNLowerings(LoweringTable& m) {
  for (const char* op : {"Softmax", "LogSoftmax", "LayerNorm"}) m[op] = alongAxis;
  m["BatchNorm"] = batchNorm;
  m["Conv2D"] = conv2d;
  m["FusedConv2D"] = fusedConv2d;
  for (const char* op : {"MaxPool2D", "AvgPool2D"}) {
    m[op] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return pool2d(g, n, in.at(0)); };
  }
  m["Compute"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) {
    te::ComputeDef def;
    try {
      def = te::parseComputeDef(n.stringAttr("compute"));
    } catch (const std::invalid_argument& e) {
      fail(n, std::string("te.compute definition: ") + e.what());
    }
    const std::string problem = te::verifyComputeDef(def);
    if (!problem.empty()) fail(n, "te.compute definition: " + problem);
    return computeToHalide(g.value(n.outputs.at(0)).name, def, in, g.type(n.outputs[0]));
  };
}

}  // namespace pyasc::cpu
