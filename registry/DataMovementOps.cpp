// Data movement: reshape, transpose, concatenate, stack, expand_dims, squeeze, broadcast_to, slices,
// pad and gathers by constant indices.
#include <algorithm>

#include "registry/BuiltinOps.h"
#include "registry/EntryBuilders.h"
#include "registry/Promotion.h"
#include "registry/ShapeInference.h"

namespace pyasc::registry {

namespace {

using graph::Dim;
using graph::Shape;
using graph::TensorType;

std::string intsTuple(const std::vector<int64_t>& values) {
  return numpyShape(graph::knownShape(values));
}

bool inferReshape(InferContext& ctx) {
  const TensorType& in = ctx.inputs[0];
  std::vector<int64_t> target = ctx.node.intListAttr("shape");
  TensorType out = in;
  out.layout = graph::Layout::ND;
  out.shape.clear();
  int inferred = -1;
  int64_t known = 1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1) {
      if (inferred >= 0) return ctx.fail("can only specify one unknown dimension");
      inferred = static_cast<int>(i);
    } else if (target[i] < 0) {
      return ctx.fail("negative dimensions not allowed in shape " + intsTuple(target));
    } else {
      known *= target[i];
    }
    out.shape.push_back(Dim::known(target[i]));
  }
  const int64_t size = graph::elementCount(in.shape);
  if (size < 0) {
    if (inferred >= 0) out.shape[static_cast<size_t>(inferred)] = Dim::unknown();
    ctx.outputs.push_back(out);
    return true;
  }
  if (inferred >= 0 && known != 0 && size % known == 0) {
    out.shape[static_cast<size_t>(inferred)] = Dim::known(size / known);
  } else if (inferred >= 0 || known != size) {
    return ctx.fail("cannot reshape array of size " + std::to_string(size) + " into shape " + intsTuple(target));
  }
  ctx.outputs.push_back(out);
  return true;
}

bool inferTranspose(InferContext& ctx) {
  const TensorType& in = ctx.inputs[0];
  std::vector<int64_t> perm = ctx.node.intListAttr("perm");
  if (!ctx.node.hasAttr("perm")) {
    for (int i = in.rank() - 1; i >= 0; --i) perm.push_back(i);
  }
  if (static_cast<int>(perm.size()) != in.rank()) return ctx.fail("axes don't match array");
  std::vector<bool> seen(static_cast<size_t>(in.rank()));
  TensorType out = in;
  out.layout = graph::Layout::ND;
  for (size_t i = 0; i < perm.size(); ++i) {
    int64_t a;
    if (!normalizeAxis(perm[i], in.rank(), a)) return ctx.fail(axisError(perm[i], in.rank()));
    if (seen[static_cast<size_t>(a)]) return ctx.fail("repeated axis in transpose");
    seen[static_cast<size_t>(a)] = true;
    out.shape[i] = in.shape[static_cast<size_t>(a)];
  }
  ctx.outputs.push_back(out);
  return true;
}

// np.lib.stride_tricks.sliding_window_view: each windowed axis shrinks to extent - window + 1 and
// the window's own axes follow the array's, in the order of `axes` (every axis when absent).
bool inferSlidingWindowView(InferContext& ctx) {
  const TensorType& in = ctx.inputs[0];
  const std::vector<int64_t> window = ctx.node.intListAttr("window_shape");
  std::vector<int64_t> axes = ctx.node.intListAttr("axes");
  if (!ctx.node.hasAttr("axes"))
    for (int i = 0; i < in.rank(); ++i) axes.push_back(i);
  if (window.size() != axes.size())
    return ctx.fail("window_shape has " + std::to_string(window.size()) + " values for " + std::to_string(axes.size()) + " axes");
  TensorType out = in;
  out.layout = graph::Layout::ND;
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t a;
    if (!normalizeAxis(axes[k], in.rank(), a)) return ctx.fail(axisError(axes[k], in.rank()));
    Dim& d = out.shape[static_cast<size_t>(a)];
    if (!d.isKnown()) return ctx.fail("sliding_window_view needs the windowed axes' extents at compile time");
    if (window[k] < 0) return ctx.fail("`window_shape` cannot contain negative values");
    if (window[k] > d.extent) return ctx.fail("window shape cannot be larger than input array shape");
    d = Dim::known(d.extent - window[k] + 1);
  }
  for (int64_t w : window) out.shape.push_back(Dim::known(w));
  ctx.outputs.push_back(out);
  return true;
}

bool inferConcat(InferContext& ctx) {
  if (ctx.inputs.empty()) return ctx.fail("need at least one array to concatenate");
  const TensorType& first = ctx.inputs[0];
  if (first.rank() == 0) return ctx.fail("zero-dimensional arrays cannot be concatenated");
  int64_t axis;
  if (!normalizeAxis(ctx.node.intAttr("axis"), first.rank(), axis)) {
    return ctx.fail(axisError(ctx.node.intAttr("axis"), first.rank()));
  }
  TensorType out = first;
  out.layout = graph::Layout::ND;
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    const TensorType& in = ctx.inputs[i];
    if (in.rank() != first.rank()) {
      return ctx.fail("all the input array dimensions except for the concatenation axis must match exactly, but "
                      "the array at index 0 has " + std::to_string(first.rank()) + " dimension(s) and the array at "
                      "index " + std::to_string(i) + " has " + std::to_string(in.rank()) + " dimension(s)");
    }
    for (int d = 0; d < in.rank(); ++d) {
      const Dim& a = out.shape[static_cast<size_t>(d)];
      const Dim& b = in.shape[static_cast<size_t>(d)];
      if (d == axis) {
        out.shape[static_cast<size_t>(d)] = a.isKnown() && b.isKnown() ? Dim::known(a.extent + b.extent) : Dim::unknown();
      } else if (a != b) {
        return ctx.fail("all the input array dimensions except for the concatenation axis must match exactly, but "
                        "along dimension " + std::to_string(d) + ", the array at index 0 has size " + a.str() +
                        " and the array at index " + std::to_string(i) + " has size " + b.str());
      }
    }
    out.dtype = promoteTypes(out.dtype, in.dtype);
  }
  ctx.outputs.push_back(out);
  return true;
}

bool inferStack(InferContext& ctx) {
  if (ctx.inputs.empty()) return ctx.fail("need at least one array to stack");
  const TensorType& first = ctx.inputs[0];
  int64_t axis;
  if (!normalizeAxis(ctx.node.intAttr("axis"), first.rank() + 1, axis)) {
    return ctx.fail(axisError(ctx.node.intAttr("axis"), first.rank() + 1));
  }
  TensorType out = first;
  out.layout = graph::Layout::ND;
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    if (ctx.inputs[i].shape != first.shape) {
      return ctx.fail("all input arrays must have the same shape, found " + numpyShape(first.shape) + " and " +
                      numpyShape(ctx.inputs[i].shape));
    }
    out.dtype = promoteTypes(out.dtype, ctx.inputs[i].dtype);
  }
  out.shape.insert(out.shape.begin() + axis, Dim::known(static_cast<int64_t>(ctx.inputs.size())));
  ctx.outputs.push_back(out);
  return true;
}

bool inferExpandDims(InferContext& ctx) {
  const TensorType& in = ctx.inputs[0];
  std::vector<int64_t> axes = ctx.node.intListAttr("axes");
  const int rank = in.rank() + static_cast<int>(axes.size());
  std::vector<bool> inserted(static_cast<size_t>(rank));
  for (int64_t axis : axes) {
    int64_t a;
    if (!normalizeAxis(axis, rank, a)) return ctx.fail(axisError(axis, rank));
    if (inserted[static_cast<size_t>(a)]) return ctx.fail("repeated axis");
    inserted[static_cast<size_t>(a)] = true;
  }
  TensorType out = in;
  out.layout = graph::Layout::ND;
  out.shape.clear();
  size_t next = 0;
  for (int i = 0; i < rank; ++i) out.shape.push_back(inserted[static_cast<size_t>(i)] ? Dim::known(1) : in.shape[next++]);
  ctx.outputs.push_back(out);
  return true;
}

bool inferSqueeze(InferContext& ctx) {
  const TensorType& in = ctx.inputs[0];
  std::vector<bool> dropped(static_cast<size_t>(in.rank()));
  if (ctx.node.hasAttr("axes")) {
    for (int64_t axis : ctx.node.intListAttr("axes")) {
      int64_t a;
      if (!normalizeAxis(axis, in.rank(), a)) return ctx.fail(axisError(axis, in.rank()));
      if (in.shape[static_cast<size_t>(a)] != Dim::known(1)) {
        return ctx.fail("cannot select an axis to squeeze out which has size not equal to one");
      }
      dropped[static_cast<size_t>(a)] = true;
    }
  } else {
    for (int i = 0; i < in.rank(); ++i) dropped[static_cast<size_t>(i)] = in.shape[static_cast<size_t>(i)] == Dim::known(1);
  }
  TensorType out = in;
  out.layout = graph::Layout::ND;
  out.shape.clear();
  for (int i = 0; i < in.rank(); ++i) {
    if (!dropped[static_cast<size_t>(i)]) out.shape.push_back(in.shape[static_cast<size_t>(i)]);
  }
  ctx.outputs.push_back(out);
  return true;
}

bool inferBroadcastTo(InferContext& ctx) {
  const TensorType& in = ctx.inputs[0];
  const Shape target = graph::knownShape(ctx.node.intListAttr("shape"));
  Shape merged;
  if (in.rank() > static_cast<int>(target.size()) || !broadcastShapes(in.shape, target, merged) || merged != target) {
    return ctx.fail("cannot broadcast shape " + numpyShape(in.shape) + " to shape " + numpyShape(target));
  }
  TensorType out = in;
  out.layout = graph::Layout::ND;
  out.shape = target;
  ctx.outputs.push_back(out);
  return true;
}

// The shape selected by a Slice/SliceUpdate from `base`; checks the attribute lists.
bool slicedShape(InferContext& ctx, const TensorType& base, size_t dynamicInputs, Shape& out) {
  const std::vector<int64_t> axes = ctx.node.intListAttr("axes");
  const std::vector<int64_t> begin = ctx.node.intListAttr("begin");
  const std::vector<int64_t> end = ctx.node.intListAttr("end");
  const std::vector<int64_t> step = ctx.node.intListAttr("step");
  const std::vector<int64_t> dynamic = ctx.node.intListAttr("dynamic_axes");
  if (begin.size() != axes.size() || end.size() != axes.size() || step.size() != axes.size()) {
    return ctx.fail("axes, begin, end and step must have the same length");
  }
  if (dynamic.size() != dynamicInputs) {
    return ctx.fail(std::to_string(dynamic.size()) + " dynamic axes but " + std::to_string(dynamicInputs) +
                    " offset operand(s)");
  }
  out = base.shape;
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= base.rank()) return ctx.fail(axisError(axes[i], base.rank()));
    if (step[i] == 0) return ctx.fail("slice step cannot be zero");
    out[static_cast<size_t>(axes[i])] = Dim::known(sliceLength(begin[i], end[i], step[i]));
  }
  for (int64_t axis : dynamic) {
    if (std::find(axes.begin(), axes.end(), axis) == axes.end()) {
      return ctx.fail("dynamic axis " + std::to_string(axis) + " is not one of the sliced axes");
    }
  }
  return true;
}

bool checkOffsets(InferContext& ctx, size_t first) {
  for (size_t i = first; i < ctx.inputs.size(); ++i) {
    if (ctx.inputs[i].rank() != 0 || !isInteger(ctx.inputs[i].dtype)) {
      return ctx.fail("slice offsets must be integer scalars, found " + ctx.inputs[i].str());
    }
  }
  return true;
}

bool inferSlice(InferContext& ctx) {
  if (ctx.inputs.empty()) return ctx.fail("Slice takes an array");
  TensorType out = ctx.inputs[0];
  out.layout = graph::Layout::ND;
  if (!checkOffsets(ctx, 1) || !slicedShape(ctx, ctx.inputs[0], ctx.inputs.size() - 1, out.shape)) return false;
  ctx.outputs.push_back(out);
  return true;
}

bool inferSliceUpdate(InferContext& ctx) {
  if (ctx.inputs.size() < 2) return ctx.fail("SliceUpdate takes a base and an update");
  Shape region;
  if (!checkOffsets(ctx, 2) || !slicedShape(ctx, ctx.inputs[0], ctx.inputs.size() - 2, region)) return false;
  const TensorType& update = ctx.inputs[1];
  if (update.shape != region) {
    return ctx.fail("could not broadcast input array from shape " + numpyShape(update.shape) + " into shape " +
                    numpyShape(region));
  }
  if (update.dtype != ctx.inputs[0].dtype) {
    return ctx.fail(std::string("update dtype ") + dtypeName(update.dtype) + " differs from the base dtype " +
                    dtypeName(ctx.inputs[0].dtype));
  }
  ctx.outputs.push_back(ctx.inputs[0]);
  return true;
}

bool inferPad(InferContext& ctx) {
  const TensorType& in = ctx.inputs[0];
  const std::vector<int64_t> pads = ctx.node.intListAttr("pads");
  if (pads.size() != 2 * static_cast<size_t>(in.rank())) {
    return ctx.fail("pad needs a (before, after) pair for each of the " + std::to_string(in.rank()) + " axes, got " +
                    std::to_string(pads.size()) + " values");
  }
  const std::string mode = ctx.node.stringAttr("mode", "constant");
  if (mode != "constant" && mode != "edge") return ctx.fail("pad mode '" + mode + "' is not supported ('constant' or 'edge')");
  TensorType out = in;
  out.layout = graph::Layout::ND;
  for (int d = 0; d < in.rank(); ++d) {
    const int64_t before = pads[2 * static_cast<size_t>(d)], after = pads[2 * static_cast<size_t>(d) + 1];
    if (before < 0 || after < 0) return ctx.fail("index can't contain negative values");
    const Dim& dim = in.shape[static_cast<size_t>(d)];
    if (mode == "edge" && dim == Dim::known(0) && before + after > 0) {
      return ctx.fail("can't extend empty axis " + std::to_string(d) + " using modes other than 'constant' or 'empty'");
    }
    out.shape[static_cast<size_t>(d)] = dim.isKnown() ? Dim::known(dim.extent + before + after) : Dim::unknown();
  }
  ctx.outputs.push_back(out);
  return true;
}

bool inferGather(InferContext& ctx) {
  const TensorType& in = ctx.inputs[0];
  int64_t axis;
  if (!normalizeAxis(ctx.node.intAttr("axis"), in.rank(), axis)) return ctx.fail(axisError(ctx.node.intAttr("axis"), in.rank()));
  const Dim& dim = in.shape[static_cast<size_t>(axis)];
  const std::vector<int64_t> indices = ctx.node.intListAttr("indices");
  for (int64_t i : indices) {
    if (i < 0 || (dim.isKnown() && i >= dim.extent)) {
      return ctx.fail("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) + " with size " +
                      dim.str());
    }
  }
  TensorType out = in;
  out.layout = graph::Layout::ND;
  out.shape[static_cast<size_t>(axis)] = Dim::known(static_cast<int64_t>(indices.size()));
  ctx.outputs.push_back(out);
  return true;
}

std::vector<AttrSpec> sliceAttrs() {
  return {requiredAttr("axes", graph::AttrKind::IntList, "sliced axes (others are taken whole)"),
          requiredAttr("begin", graph::AttrKind::IntList, "first index per sliced axis, normalised"),
          requiredAttr("end", graph::AttrKind::IntList, "end per sliced axis (exclusive; -1 with a negative step: through index 0)"),
          requiredAttr("step", graph::AttrKind::IntList, "step per sliced axis, non-zero"),
          attrWithDefault("dynamic_axes", std::vector<int64_t>{},
                          "axes whose begin and end are shifted by an offset operand, in order")};
}

OpEntry entry(const char* name, const char* summary, std::vector<OperandSpec> inputs, std::vector<AttrSpec> attrs,
              InferFn infer) {
  OpEntry e;
  e.name = name;
  e.category = OpCategory::DataMovement;
  e.summary = summary;
  e.inputs = std::move(inputs);
  e.outputs = {operand("out")};
  e.attrs = std::move(attrs);
  e.infer = std::move(infer);
  return e;
}

}  // namespace

void registerDataMovementOps(OpRegistry& r) {
  r.add(entry("Reshape", "same elements in a new shape (one extent may be -1)", {operand("x")},
              {requiredAttr("shape", graph::AttrKind::IntList, "new shape")}, inferReshape));
  r.addAlias(functionAlias("reshape", "Reshape", {tensorParam("a"), shapeParam("newshape", "shape", false)}));
  r.addAlias(methodAlias("reshape", "Reshape", {tensorParam("a"), shapeParam("shape", "shape", true)}));
  r.addAlias(functionAlias("ravel", "Reshape", {tensorParam("a")}, {{"shape", std::vector<int64_t>{-1}}}));
  r.addAlias(methodAlias("ravel", "Reshape", {tensorParam("a")}, {{"shape", std::vector<int64_t>{-1}}}));
  r.addAlias(methodAlias("flatten", "Reshape", {tensorParam("a")}, {{"shape", std::vector<int64_t>{-1}}}));

  r.add(entry("Transpose", "permute axes (reverse them without perm)", {operand("x")},
              {optionalAttr("perm", graph::AttrKind::IntList, "new order of the axes; absent: reversed")},
              inferTranspose));
  r.addAlias(functionAlias("transpose", "Transpose", {tensorParam("a"), optionalParam("axes", ParamKind::IntList, "perm")}));
  NumpyParam methodAxes = optionalParam("axes", ParamKind::IntList, "perm");
  methodAxes.varargs = true;
  r.addAlias(methodAlias("transpose", "Transpose", {tensorParam("a"), methodAxes}, {}, "also the attribute a.T"));

  r.add(entry("SlidingWindowView", "every window of window_shape over the axes, window axes last (a copy)",
              {operand("x")},
              {requiredAttr("window_shape", graph::AttrKind::IntList, "the window's extent along each of the axes"),
               optionalAttr("axes", graph::AttrKind::IntList, "the windowed axes; absent: every axis")},
              inferSlidingWindowView));
  r.addAlias(functionAlias("lib.stride_tricks.sliding_window_view", "SlidingWindowView",
                           {tensorParam("x"), attrParam("window_shape", ParamKind::IntList, "window_shape"),
                            optionalParam("axis", ParamKind::Axes, "axes")},
                           {}, "a copy of every window (NumPy's view; writing to it is not supported)"));

  r.add(entry("Concat", "join arrays along an existing axis", {variadicOperand("inputs")},
              {attrWithDefault("axis", int64_t{0}, "joined axis")}, inferConcat));
  r.addAlias(functionAlias("concatenate", "Concat",
                           {tensorListParam("arrays"), attrParam("axis", ParamKind::Int, "axis", int64_t{0})}));

  r.add(entry("Stack", "join same-shaped arrays along a new axis", {variadicOperand("inputs")},
              {attrWithDefault("axis", int64_t{0}, "position of the new axis")}, inferStack));
  r.addAlias(functionAlias("stack", "Stack",
                           {tensorListParam("arrays"), attrParam("axis", ParamKind::Int, "axis", int64_t{0})}));

  r.add(entry("ExpandDims", "insert axes of extent 1", {operand("x")},
              {requiredAttr("axes", graph::AttrKind::IntList, "positions of the new axes in the result")},
              inferExpandDims));
  r.addAlias(functionAlias("expand_dims", "ExpandDims", {tensorParam("a"), attrParam("axis", ParamKind::Axes, "axes")}));

  r.add(entry("Squeeze", "remove axes of extent 1", {operand("x")},
              {optionalAttr("axes", graph::AttrKind::IntList, "removed axes; absent: every axis of extent 1")},
              inferSqueeze));
  r.addAlias(functionAlias("squeeze", "Squeeze", {tensorParam("a"), optionalParam("axis", ParamKind::Axes, "axes")}));
  r.addAlias(methodAlias("squeeze", "Squeeze", {tensorParam("a"), optionalParam("axis", ParamKind::Axes, "axes")}));

  r.add(entry("BroadcastTo", "repeat along broadcast axes to a target shape", {operand("x")},
              {requiredAttr("shape", graph::AttrKind::IntList, "target shape")}, inferBroadcastTo));
  r.addAlias(functionAlias("broadcast_to", "BroadcastTo", {tensorParam("array"), shapeParam("shape", "shape", false)}));

  r.add(entry("Slice", "basic slicing a[b:e:s], with optional runtime offsets (loop induction variables)",
              {operand("x"), variadicOperand("offsets", kIntTypes)}, sliceAttrs(), inferSlice));
  r.add(entry("SliceUpdate", "a copy of base with a slice replaced by update (a[b:e:s] = update)",
              {operand("base"), operand("update"), variadicOperand("offsets", kIntTypes)}, sliceAttrs(),
              inferSliceUpdate));

  r.add(entry("Pad", "the input surrounded by a constant or by copies of its edge values", {operand("x")},
              {requiredAttr("pads", graph::AttrKind::IntList, "before and after widths of each axis in turn"),
               attrWithDefault("mode", std::string("constant"), "'constant' (value) or 'edge' (nearest input value)"),
               attrWithDefault("value", 0.0, "the constant of mode 'constant', cast to the input dtype")},
              inferPad));
  r.addAlias(functionAlias("pad", "Pad",
                           {tensorParam("array"), attrParam("pad_width", ParamKind::IntList, "pads"),
                            attrParam("mode", ParamKind::String, "mode", std::string("constant")),
                            attrParam("constant_values", ParamKind::Float, "value", 0.0)},
                           {}, "compile-time widths: an int, a (before, after) pair or one pair per axis; mode "
                               "'constant' or 'edge'"));

  r.add(entry("Gather", "the slices of the input at constant indices along one axis", {operand("x")},
              {requiredAttr("indices", graph::AttrKind::IntList, "selected positions along axis, in [0, extent)"),
               attrWithDefault("axis", int64_t{0}, "the indexed axis")},
              inferGather));
  r.addAlias(functionAlias("take", "Gather",
                           {tensorParam("a"), attrParam("indices", ParamKind::IntList, "indices"),
                            optionalParam("axis", ParamKind::Axis, "axis")},
                           {}, "compile-time int indices (negative ones count from the end); also a[[i, j]] and "
                               "a[:, [i, j]] with a literal list"));

  r.add(entry("Identity", "a copy of the input", {operand("x")}, {}, [](InferContext& ctx) {
    ctx.outputs.push_back(ctx.inputs[0]);
    return true;
  }));
  r.addAlias(functionAlias("copy", "Identity", {tensorParam("a")}));
  r.addAlias(methodAlias("copy", "Identity", {tensorParam("a")}));
}

}  // namespace pyasc::registry
