// Creation: constant-filled arrays and ranges, plus the creation spellings the frontend builds itself.
#include <cmath>

#include "registry/BuiltinOps.h"
#include "registry/EntryBuilders.h"

namespace pyasc::registry {

namespace {

using graph::TensorType;

bool readDType(InferContext& ctx, DType& out) {
  const std::string name = ctx.node.stringAttr("dtype");
  if (!parseDType(name, out)) return ctx.fail("unknown dtype '" + name + "'");
  return true;
}

bool inferFill(InferContext& ctx) {
  TensorType out;
  if (!readDType(ctx, out.dtype)) return false;
  for (int64_t extent : ctx.node.intListAttr("shape")) {
    if (extent < 0) return ctx.fail("negative dimensions are not allowed");
    out.shape.push_back(graph::Dim::known(extent));
  }
  ctx.outputs.push_back(out);
  return true;
}

bool inferRange(InferContext& ctx) {
  TensorType out;
  if (!readDType(ctx, out.dtype)) return false;
  const double start = ctx.node.floatAttr("start"), stop = ctx.node.floatAttr("stop"), step = ctx.node.floatAttr("step");
  if (step == 0) return ctx.fail("arange: step must not be zero");
  const double length = std::ceil((stop - start) / step);
  if (std::isnan(length)) return ctx.fail("arange: cannot compute length");
  // NumPy's message; beyond 2^40 elements the verifier refuses the array anyway
  if (length > static_cast<double>(graph::kMaxElements)) return ctx.fail("Maximum allowed size exceeded");
  out.shape.push_back(graph::Dim::known(length > 0 ? static_cast<int64_t>(length) : 0));
  ctx.outputs.push_back(out);
  return true;
}

NumpyParam dtypeParam(const char* fallback) {
  return attrParam("dtype", ParamKind::DType, "dtype", std::string(fallback));
}

}  // namespace

void registerCreationOps(OpRegistry& r) {
  {
    OpEntry e;
    e.name = "Fill";
    e.category = OpCategory::Creation;
    e.summary = "an array of one value";
    e.outputs = {operand("out")};
    e.attrs = {requiredAttr("shape", graph::AttrKind::IntList, "shape of the result"),
               requiredAttr("value", graph::AttrKind::Float, "the value, converted to dtype"),
               requiredAttr("dtype", graph::AttrKind::String, "NumPy dtype name")};
    e.infer = inferFill;
    r.add(std::move(e));
  }
  {
    OpEntry e;
    e.name = "Range";
    e.category = OpCategory::Creation;
    e.summary = "start + i * step for i in [0, ceil((stop - start) / step))";
    e.outputs = {operand("out", kNumericTypes)};
    e.attrs = {requiredAttr("start", graph::AttrKind::Float, "first value"),
               requiredAttr("stop", graph::AttrKind::Float, "exclusive bound"),
               requiredAttr("step", graph::AttrKind::Float, "increment"),
               requiredAttr("dtype", graph::AttrKind::String, "NumPy dtype name")};
    e.infer = inferRange;
    r.add(std::move(e));
  }
  r.addAlias(functionAlias("zeros", "Fill", {shapeParam("shape", "shape", false), dtypeParam("float64")},
                           {{"value", 0.0}}));
  r.addAlias(functionAlias("ones", "Fill", {shapeParam("shape", "shape", false), dtypeParam("float64")},
                           {{"value", 1.0}}));
  r.addAlias(functionAlias("empty", "Fill", {shapeParam("shape", "shape", false), dtypeParam("float64")},
                           {{"value", 0.0}}, "filled with zeros"));
  r.addAlias(functionAlias("ndarray", "Fill", {shapeParam("shape", "shape", false), dtypeParam("float64")},
                           {{"value", 0.0}}, "the constructor without a buffer, as np.empty: filled with zeros"));
  r.addAlias(functionAlias("full", "Fill",
                           {shapeParam("shape", "shape", false), attrParam("fill_value", ParamKind::Float, "value"),
                            optionalParam("dtype", ParamKind::DType, "dtype")},
                           {}, "dtype defaults to that of fill_value"));
  for (const char* like : {"zeros_like", "ones_like", "empty_like", "full_like"}) {
    std::vector<NumpyParam> params = {tensorParam("a")};
    if (std::string(like) == "full_like") params.push_back(attrParam("fill_value", ParamKind::Float, "value"));
    params.push_back(optionalParam("dtype", ParamKind::DType, "dtype"));
    r.addAlias(functionAlias(like, "Fill", params, {}, "shape and dtype of a"));
  }
  r.addAlias(functionAlias("arange", "Range",
                           {attrParam("start", ParamKind::Float, "start"), optionalParam("stop", ParamKind::Float, "stop"),
                            attrParam("step", ParamKind::Float, "step", 1.0), optionalParam("dtype", ParamKind::DType, "dtype")},
                           {}, "arange(stop) or arange(start, stop[, step]); int64 for int arguments"));
  for (const char* scan : {"cumsum", "cumprod"}) {  // the frontend builds them (Analyzer::callScan)
    const std::vector<NumpyParam> params = {tensorParam("a"), optionalParam("axis", ParamKind::Axis, "axis"),
                                            optionalParam("dtype", ParamKind::DType, "dtype")};
    const char* note = "an inclusive scan in ceil(log2 n) slice, operation and concatenation steps; as NumPy, sums and "
                       "products of integers are int64 (computed in int32 where their bounds allow)";
    r.addAlias(functionAlias(scan, "", params, {}, note));
    r.addAlias(methodAlias(scan, "", params, {}, note));
  }
  r.addAlias(functionAlias("sort", "",  // the frontend builds it (Analyzer::callSort)
                           {tensorParam("a"), optionalParam("axis", ParamKind::Axis, "axis"),
                            optionalParam("kind", ParamKind::String, "kind")},
                           {}, "by ranks over every pair of a row (up to 2^24 pairs): NumPy's order bit for bit, stable, "
                               "NaN last; axis=None sorts the flattened array"));
  {  // the frontend builds it (Analyzer::callSort)
    const std::vector<NumpyParam> params = {tensorParam("a"), attrParam("axis", ParamKind::Axis, "axis", int64_t{-1}),
                                            optionalParam("kind", ParamKind::String, "kind")};
    const char* note = "the ranks np.sort computes, as int64 indices: NumPy's stable order (kind='stable') bit for bit, "
                       "NaN last, whatever the kind (NumPy's default quicksort may order ties otherwise); axis=None "
                       "for the flattened array";
    r.addAlias(functionAlias("argsort", "", params, {}, note));
    r.addAlias(methodAlias("argsort", "", params, {}, note));
  }
  {  // the frontend builds them (Analyzer::callSelecting)
    const char* nonzero = "a tuple of one boolean-mask selection of positions per axis: its length depends on the data, "
                          "so it is counted, reduced, combined elementwise and used as an index (a[idx]), not returned";
    r.addAlias(functionAlias("nonzero", "", {tensorParam("a")}, {}, nonzero));
    r.addAlias(methodAlias("nonzero", "", {tensorParam("a")}, {}, nonzero));
    r.addAlias(functionAlias("flatnonzero", "", {tensorParam("a")}, {}, "np.nonzero of the flattened array"));
    r.addAlias(functionAlias("unique", "", {tensorParam("ar")}, {},
                             "a boolean-mask selection of the sorted values (the first of each run): counted "
                             "(np.unique(x).size), reduced, combined elementwise; no return_* or axis arguments"));
  }
  r.addAlias(functionAlias("linalg.norm", "",  // the frontend builds it (Analyzer::callNorm)
                           {tensorParam("x"), optionalParam("ord", ParamKind::Float, "ord"),
                            optionalParam("axis", ParamKind::Axes, "axis"),
                            attrParam("keepdims", ParamKind::Bool, "keepdims", false)},
                           {}, "vector norms of any order (None/2, 1, inf, -inf, 0, p) and the Frobenius norm ('fro', or "
                               "None over two axes); other matrix norms are errors"));
  r.addAlias(functionAlias("linspace", "",
                           {attrParam("start", ParamKind::Float, "start"), attrParam("stop", ParamKind::Float, "stop"),
                            attrParam("num", ParamKind::Int, "num", int64_t{50}),
                            attrParam("endpoint", ParamKind::Bool, "endpoint", true),
                            optionalParam("dtype", ParamKind::DType, "dtype")},
                           {}, "a graph constant computed as NumPy does"));
  r.addAlias(functionAlias("eye", "",
                           {attrParam("N", ParamKind::Int, "N"), optionalParam("M", ParamKind::Int, "M"),
                            attrParam("k", ParamKind::Int, "k", int64_t{0}), dtypeParam("float64")},
                           {}, "a graph constant"));
  r.addAlias(functionAlias("identity", "", {attrParam("n", ParamKind::Int, "n"), dtypeParam("float64")}, {},
                           "a graph constant"));
  r.addAlias(functionAlias("array", "", {tensorParam("object"), optionalParam("dtype", ParamKind::DType, "dtype")}, {},
                           "a graph constant from (nested) literals, or a cast copy of an array"));
  r.addAlias(functionAlias("asarray", "", {tensorParam("a"), optionalParam("dtype", ParamKind::DType, "dtype")}, {},
                           "as np.array"));
  r.addAlias(functionAlias("random.seed", "", {attrParam("seed", ParamKind::Int, "seed")}, {},
                           "starts a reproducible MT19937 stream"));
  for (const char* name : {"random.rand", "random.randn"}) {
    NumpyParam dims = shapeParam("dims", "shape", true);
    dims.required = false;
    r.addAlias(functionAlias(name, "", {dims}, {}, "a random graph input regenerated from NumPy's legacy stream"));
  }
  for (const char* name : {"random.random", "random.random_sample"}) {
    r.addAlias(functionAlias(name, "", {optionalParam("size", ParamKind::IntList, "shape")}, {},
                             "a random graph input regenerated from NumPy's legacy stream"));
  }
}

}  // namespace pyasc::registry
