// Reductions over axes with keepdims: sum, mean, max, min, prod, all, any, var, std, argmax, argmin.
#include <algorithm>

#include "registry/BuiltinOps.h"
#include "registry/EntryBuilders.h"
#include "registry/Promotion.h"
#include "registry/ShapeInference.h"

namespace pyasc::registry {

namespace {

using graph::TensorType;

enum class ReduceDType { Same, Sum, Mean, Bool, Index };

DType reduceResult(ReduceDType rule, DType t) {
  switch (rule) {
    case ReduceDType::Same: return t;
    case ReduceDType::Sum: return sumDType(t);
    case ReduceDType::Mean: return isFloat(t) ? t : DType::Float64;
    case ReduceDType::Bool: return DType::Bool;
    case ReduceDType::Index: return DType::Int64;
  }
  return t;
}

// Drops (or keeps as 1) the reduced axes; `axes` absent means every axis.
bool reduceShape(InferContext& ctx, const std::vector<int64_t>& axes, bool all, TensorType& out) {
  const TensorType& in = ctx.inputs[0];
  std::vector<bool> reduced(static_cast<size_t>(in.rank()), all);
  for (int64_t axis : axes) {
    int64_t a;
    if (!normalizeAxis(axis, in.rank(), a)) return ctx.fail(axisError(axis, in.rank()));
    if (reduced[static_cast<size_t>(a)]) return ctx.fail("duplicate value in 'axis'");
    reduced[static_cast<size_t>(a)] = true;
  }
  const bool keepdims = ctx.node.boolAttr("keepdims");
  out.shape.clear();
  for (int i = 0; i < in.rank(); ++i) {
    if (!reduced[static_cast<size_t>(i)]) {
      out.shape.push_back(in.shape[static_cast<size_t>(i)]);
    } else if (keepdims) {
      out.shape.push_back(graph::Dim::known(1));
    }
  }
  return true;
}

InferFn reduceInfer(ReduceDType rule) {
  return [rule](InferContext& ctx) {
    TensorType out;
    out.dtype = reduceResult(rule, ctx.inputs[0].dtype);
    // an int64 sum narrow-integers proved fits int32, or a float32 result rounded to float16 for
    // the float16 readers of mixed precision
    if (ctx.node.hasAttr("dtype")) {
      DType t;
      const bool narrowSum = rule == ReduceDType::Sum && out.dtype == DType::Int64;
      const bool toHalf = out.dtype == DType::Float32 && ctx.node.op != "ReduceProd";
      if (!parseDType(ctx.node.stringAttr("dtype"), t) ||
          !(t == out.dtype || (t == DType::Int32 && narrowSum) || (t == DType::Float16 && toHalf))) {
        return ctx.fail("result dtype '" + ctx.node.stringAttr("dtype") + "': " + dtypeName(out.dtype) +
                        (narrowSum ? " or int32" : toHalf ? " or float16" : ""));
      }
      out.dtype = t;
    }
    if (!reduceShape(ctx, ctx.node.intListAttr("axes"), !ctx.node.hasAttr("axes"), out)) return false;
    ctx.outputs.push_back(out);
    return true;
  };
}

InferFn argInfer() {
  return [](InferContext& ctx) {
    TensorType out;
    out.dtype = DType::Int64;
    if (ctx.node.hasAttr("dtype")) {
      const std::string name = ctx.node.stringAttr("dtype");
      if (name != "int64" && name != "int32") return ctx.fail("index dtype '" + name + "': int64 or int32");
      out.dtype = name == "int32" ? DType::Int32 : DType::Int64;
    }
    const bool all = !ctx.node.hasAttr("axis");
    std::vector<int64_t> axes;
    if (!all) axes.push_back(ctx.node.intAttr("axis"));
    if (!reduceShape(ctx, axes, all, out)) return false;
    ctx.outputs.push_back(out);
    return true;
  };
}

struct ReduceSpec {
  const char* op;
  const char* summary;
  ReduceDType rule;
  std::vector<const char*> numpyNames;
  bool hasDdof;
};

}  // namespace

void registerReduceOps(OpRegistry& r) {
  const std::vector<ReduceSpec> reductions = {
      {"ReduceSum", "sum over axes", ReduceDType::Sum, {"sum"}, false},
      {"ReduceMean", "arithmetic mean over axes", ReduceDType::Mean, {"mean"}, false},
      {"ReduceMax", "maximum over axes", ReduceDType::Same, {"max", "amax"}, false},
      {"ReduceMin", "minimum over axes", ReduceDType::Same, {"min", "amin"}, false},
      {"ReduceProd", "product over axes", ReduceDType::Sum, {"prod"}, false},
      {"ReduceAll", "logical and over axes", ReduceDType::Bool, {"all"}, false},
      {"ReduceAny", "logical or over axes", ReduceDType::Bool, {"any"}, false},
      {"ReduceVar", "variance over axes, divided by n - ddof", ReduceDType::Mean, {"var"}, true},
      {"ReduceStd", "standard deviation over axes, divided by n - ddof", ReduceDType::Mean, {"std"}, true},
  };
  for (const auto& spec : reductions) {
    OpEntry e;
    e.name = spec.op;
    e.category = OpCategory::Reduce;
    e.summary = spec.summary;
    e.inputs = {operand("x")};
    e.outputs = {operand("y")};
    e.attrs = {optionalAttr("axes", graph::AttrKind::IntList, "reduced axes; absent: all axes"),
               attrWithDefault("keepdims", false, "keep reduced axes with extent 1")};
    std::vector<NumpyParam> params = {tensorParam("a"), optionalParam("axis", ParamKind::Axes, "axes")};
    if (spec.hasDdof) {
      e.attrs.push_back(attrWithDefault("ddof", int64_t{0}, "delta degrees of freedom"));
      params.push_back(attrParam("ddof", ParamKind::Int, "ddof", int64_t{0}));
    }
    params.push_back(attrParam("keepdims", ParamKind::Bool, "keepdims", false));
    if (spec.rule == ReduceDType::Sum || std::string(spec.op) == "ReduceMean" || std::string(spec.op) == "ReduceMax" ||
        std::string(spec.op) == "ReduceMin") {
      e.attrs.push_back(optionalAttr("dtype", graph::AttrKind::String,
                                     "the result's dtype: NumPy's (absent), int32 for an int64 sum proved to fit, or "
                                     "float16 for a float32 result that float16 readers take"));
    }
    e.infer = reduceInfer(spec.rule);
    r.add(std::move(e));
    for (const char* name : spec.numpyNames) {
      r.addAlias(functionAlias(name, spec.op, params));
      r.addAlias(methodAlias(name, spec.op, params));
    }
  }
  struct ArgSpec {
    const char* op;
    const char* numpyName;
    const char* what;
  };
  for (const ArgSpec& spec : {ArgSpec{"ArgMax", "argmax", "maximum"}, ArgSpec{"ArgMin", "argmin", "minimum"}}) {
    OpEntry e;
    e.name = spec.op;
    e.category = OpCategory::Reduce;
    e.summary = std::string("index of the first ") + spec.what + " along an axis (of the flattened array without one)";
    e.inputs = {operand("x")};
    e.outputs = {operand("index", dtypeBit(DType::Int64) | dtypeBit(DType::Int32))};
    e.attrs = {optionalAttr("axis", graph::AttrKind::Int, "reduced axis; absent: the flattened array"),
               attrWithDefault("keepdims", false, "keep the reduced axis with extent 1"),
               optionalAttr("dtype", graph::AttrKind::String,
                            "\"int32\" where stage narrow-integers proves the indices fit (absent: int64, as NumPy)")};
    e.infer = argInfer();
    r.add(std::move(e));
    std::vector<NumpyParam> params = {tensorParam("a"), optionalParam("axis", ParamKind::Axis, "axis"),
                                      attrParam("keepdims", ParamKind::Bool, "keepdims", false)};
    r.addAlias(functionAlias(spec.numpyName, spec.op, params));
    r.addAlias(methodAlias(spec.numpyName, spec.op, params));
  }
}

}  // namespace pyasc::registry
