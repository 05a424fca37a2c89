// CPU lowerings of data movement and creation: shapes, transposes, broadcasts, slices, joins, pads, gathers, fills, ranges.
#include "cpu/LowerSupport.h"
#include "cpu/SelectionGather.h"

#include <algorithm>

#include "cpu/TeToHalide.h"

namespace pyasc::cpu {

using Halide::Expr;

namespace {

// Same elements, another shape (Reshape, ExpandDims, Squeeze). The axes split into the shortest
// groups whose extents multiply to the same count on both sides; within a group, the output index
// becomes the group's flat index and that the input's index (32-bit arithmetic, divisions by
// constants, when the group has fewer than 2^31 elements). A group of one axis on each side maps
// axis to axis.
Lowered reshape(const std::string& name, const Lowered& in, const graph::TensorType& outType) {
  const std::vector<int64_t> from = extents(in.type), to = extents(outType);
  struct Group { size_t fromBegin, fromEnd, toBegin, toEnd; int64_t count; };
  std::vector<Group> groups;
  size_t f = 0, t = 0;
  while (f < from.size() || t < to.size()) {
    Group g{f, f, t, t, 1};
    int64_t fromCount = f < from.size() ? from[f++] : 1, toCount = t < to.size() ? to[t++] : 1;
    while (fromCount != toCount) {
      if (fromCount < toCount && f < from.size()) fromCount *= from[f++];
      else if (toCount < fromCount && t < to.size()) toCount *= to[t++];
      else break;  // an empty array: never evaluated
    }
    g.fromEnd = f;
    g.toEnd = t;
    g.count = std::max(fromCount, toCount);
    groups.push_back(g);
  }
  Lowered result = define(name, outType, [&](const Index& i) {
    Index src(from.size(), Expr(0));
    for (const Group& g : groups) {
      if (g.fromEnd - g.fromBegin == 1 && g.toEnd - g.toBegin == 1) {
        src[g.fromBegin] = i[g.toBegin];
        continue;
      }
      const Halide::Type type = g.count < (int64_t{1} << 31) ? Halide::Int(32) : Halide::Int(64);
      Expr flat = castValue(type, 0);
      for (size_t k = g.toBegin; k < g.toEnd; ++k) flat = flat * castValue(type, Expr(to[k])) + castValue(type, i[k]);
      for (size_t k = g.fromEnd; k-- > g.fromBegin;) {
        src[k] = castValue(Halide::Int(32), flat % castValue(type, Expr(from[k])));
        flat = flat / castValue(type, Expr(from[k]));
      }
    }
    return at(in, src);
  });
  const Group& inner = groups.empty() ? Group{} : groups.back();
  if (inner.toEnd - inner.toBegin == 1 && inner.fromEnd - inner.fromBegin > 1 && from.back() > 1) result.innerSplit = from.back();
  return result;
}

// The first position a slice reads along its j-th axis: begin, plus the dynamic offset operand when
// the axis has one. The frontend checks dynamic slices at compile time; the start is clamped once
// so that all `count` positions are inside the input (a damaged graph stays in bounds), which
// lets Halide load whole vectors instead of clamping every index. Undefined when no start keeps
// them inside (then each index is clamped).
Expr sliceStart(const graph::Node& node, size_t j, const std::vector<Lowered>& in, int64_t extent, int64_t count) {
  const std::vector<int64_t> axes = node.intListAttr("axes"), begin = node.intListAttr("begin"),
                             step = node.intListAttr("step"), dynamic = node.intListAttr("dynamic_axes");
  Expr start = Expr(static_cast<int32_t>(begin[j]));
  auto d = std::find(dynamic.begin(), dynamic.end(), axes[j]);
  if (d != dynamic.end()) start = start + castValue(Halide::Int(32), at(in.at(1 + static_cast<size_t>(d - dynamic.begin())), {}));
  const int64_t span = std::max<int64_t>(count - 1, 0) * step[j];  // last position minus first
  const int64_t lo = std::max<int64_t>(0, -span), hi = std::min<int64_t>(extent - 1, extent - 1 - span);
  if (lo > hi) return Expr();
  return Halide::clamp(start, static_cast<int32_t>(lo), static_cast<int32_t>(hi));
}

Lowered slice(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::vector<int64_t> axes = node.intListAttr("axes"), begin = node.intListAttr("begin"), step = node.intListAttr("step");
  std::vector<Expr> starts;
  for (size_t j = 0; j < axes.size(); ++j) {
    const size_t axis = static_cast<size_t>(axes[j]);
    starts.push_back(sliceStart(node, j, in, in[0].type.shape[axis].extent, outType.shape.at(axis).extent));
  }
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Index src = i;
    for (size_t j = 0; j < axes.size(); ++j) {
      const size_t axis = static_cast<size_t>(axes[j]);
      const int32_t s = static_cast<int32_t>(step[j]);
      src[axis] = starts[j].defined() ? starts[j] + i[axis] * s
                                      : clampIndex(static_cast<int32_t>(begin[j]) + i[axis] * s, in[0].type.shape[axis].extent);
    }
    return at(in[0], src);
  });
}

}  // namespace

std::vector<int64_t> sliceUpdateExtents(const graph::Node& node, const graph::TensorType& outType) {
  const std::vector<int64_t> axes = node.intListAttr("axes"), begin = node.intListAttr("begin"),
                             end = node.intListAttr("end"), step = node.intListAttr("step");
  std::vector<int64_t> sliceExtent = extents(outType);
  for (size_t j = 0; j < axes.size(); ++j) {
    const int64_t s = step[j], b = begin[j], e = end[j];
    sliceExtent[static_cast<size_t>(axes[j])] = s > 0 ? std::max<int64_t>(0, (e - b + s - 1) / s) : std::max<int64_t>(0, (b - e - s - 1) / -s);
  }
  return sliceExtent;
}

Lowered sliceUpdateValue(const graph::Graph& graph, const graph::Node& node, const Lowered& update) {
  graph::TensorType sliceType = graph.type(node.outputs.at(0));
  sliceType.shape = graph::knownShape(sliceUpdateExtents(node, sliceType));
  return define(graph.value(node.outputs[0]).name + "_slice", sliceType,
                [&](const Index& i) { return at(update, broadcastIndex(i, update.type)); });
}

namespace {

Lowered sliceUpdate(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::vector<int64_t> axes = node.intListAttr("axes"), begin = node.intListAttr("begin"),
                             step = node.intListAttr("step"), dynamic = node.intListAttr("dynamic_axes");
  // the slice's shape: update broadcasts to it
  const std::vector<int64_t> sliceExtent = sliceUpdateExtents(node, outType);
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Index u = i;
    Expr inside = castValue(Halide::Bool(), true);
    for (size_t j = 0; j < axes.size(); ++j) {
      const size_t axis = static_cast<size_t>(axes[j]);
      Expr start = Expr(static_cast<int32_t>(begin[j]));
      auto d = std::find(dynamic.begin(), dynamic.end(), axes[j]);
      if (d != dynamic.end()) start = start + castValue(Halide::Int(32), at(in.at(2 + static_cast<size_t>(d - dynamic.begin())), {}));
      const int32_t s = static_cast<int32_t>(step[j]);
      Expr rel = i[axis] - start;
      Expr pos = rel / s;
      inside = inside && rel % s == 0 && pos >= 0 && pos < static_cast<int32_t>(sliceExtent[axis]);
      u[axis] = clampIndex(pos, sliceExtent[axis]);
    }
    return Halide::select(inside, at(in[1], broadcastIndex(u, in[1].type)), at(in[0], i));
  });
}

Lowered concat(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in, bool stack) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  int64_t axis = node.intAttr("axis");
  if (axis < 0) axis += outType.rank();
  const size_t a = static_cast<size_t>(axis);
  // The largest input's index and choice are marked likely: loop partitioning then gives its range
  // a loop without the clamps and selects, whose reads stay dense vectors (not gathers).
  size_t largest = 0;
  for (size_t k = 1; k < in.size() && !stack; ++k) {
    if (in[k].type.shape[a].extent > in[largest].type.shape[a].extent) largest = k;
  }
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    // input k from its offset on: select(i >= offset_k, input k, the inputs before it)
    Expr value;
    int64_t offset = 0;
    for (size_t k = 0; k < in.size(); ++k) {
      const bool likely = !stack && k == largest;
      Index src = i;
      if (stack) src.erase(src.begin() + static_cast<long>(a));
      else src[a] = clampIndex(likely ? Halide::likely(i[a] - static_cast<int32_t>(offset)) : i[a] - static_cast<int32_t>(offset),
                               in[k].type.shape[a].extent);
      Expr element = at(in[k], src);
      if (!value.defined()) {
        value = likely ? Halide::likely(element) : element;
      } else {
        value = Halide::select(i[a] >= static_cast<int32_t>(offset), likely ? Halide::likely(element) : element,
                               k > largest && !stack ? Halide::likely(value) : value);
      }
      offset += stack ? 1 : in[k].type.shape[a].extent;
    }
    return value;
  });
}

}  // namespace

Lowered joinPieces(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const bool stack = node.op == "Stack";
  const int rank = outType.rank();
  int64_t axis = node.intAttr("axis");
  if (axis < 0) axis += rank;
  const size_t a = static_cast<size_t>(axis);
  const int h = rank - 1 - static_cast<int>(axis);  // the axis among Halide's dimensions
  const Halide::Type type = halideType(outType.dtype);
  Halide::Func f(Halide::Internal::unique_name(graph.value(node.outputs[0]).name));
  std::vector<Halide::Var> vars;
  for (int k = 0; k < rank; ++k) vars.emplace_back("d" + std::to_string(k));
  f(std::vector<Halide::Var>(vars.rbegin(), vars.rend())) = Halide::undef(type);
  const int lanes = std::max(1, hostTarget().natural_vector_size(outType.dtype == DType::Bool ? Halide::UInt(8) : type));
  const std::vector<int64_t> shape = extents(outType);
  int64_t offset = 0;
  for (size_t k = 0; k < in.size(); ++k) {
    const int64_t extent = stack ? 1 : in[k].type.shape[a].extent;
    Index at_(vars.begin(), vars.end()), src = at_;
    Halide::RDom r(0, extent32(node, std::max<int64_t>(extent, 1)));
    if (stack) {
      at_[a] = Expr(static_cast<int32_t>(offset));
      src.erase(src.begin() + static_cast<long>(a));
    } else {
      at_[a] = r.x + static_cast<int32_t>(offset);
      src[a] = r.x;
    }
    offset += extent;
    if (extent == 0) continue;
    f(std::vector<Expr>(at_.rbegin(), at_.rend())) = castValue(type, at(in[k], src));
    // each piece's loops in the array's order, the innermost vectorised, the outermost over the cores
    Halide::Stage piece = f.update(static_cast<int>(f.num_update_definitions()) - 1);
    std::vector<Halide::VarOrRVar> order;
    for (int q = rank - 1; q >= 0; --q) {
      if (static_cast<size_t>(q) != a) order.emplace_back(vars[static_cast<size_t>(q)]);
      else if (!stack) order.emplace_back(r.x);
    }
    if (order.empty()) continue;
    piece.reorder(order);
    const int64_t inner = static_cast<size_t>(rank - 1) == a ? extent : shape.back();
    if (!(stack && h == 0) && inner >= lanes) piece.vectorize(order.front(), lanes, Halide::TailStrategy::GuardWithIf);
    const int64_t outerExtent = a == 0 ? extent : shape.front();
    if (order.size() >= 2 && !(a == 0 && stack)) {
      parallelOver(piece, order.back(), outerExtent, graph::elementCount(in[k].type.shape) / std::max<int64_t>(outerExtent, 1));
    }
  }
  return Lowered{f, outType};
}

namespace {

Lowered pad(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::vector<int64_t> pads = node.intListAttr("pads"), shape = extents(in.type);
  const bool edge = node.stringAttr("mode", "constant") == "edge";
  const double value = node.floatAttr("value", 0);
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Index src;
    Expr inside = castValue(Halide::Bool(), true);
    for (size_t k = 0; k < shape.size(); ++k) {
      Expr rel = i[k] - static_cast<int32_t>(pads.at(2 * k));
      inside = inside && rel >= 0 && rel < static_cast<int32_t>(shape[k]);
      src.push_back(clampIndex(rel, shape[k]));
    }
    Expr element = at(in, src);
    if (edge) return element;
    Expr fill = convert(Expr(value), DType::Float64, in.type.dtype, RoundMode::Trunc);
    return Halide::select(inside, element, fill);
  });
}

Lowered gather(const graph::Graph& graph, const graph::Node& node, const Lowered& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::vector<int64_t> indices = node.intListAttr("indices");
  int64_t axis = node.intAttr("axis");
  if (axis < 0) axis += in.type.rank();
  const size_t a = static_cast<size_t>(axis);
  const int64_t extent = in.type.shape[a].extent;
  // a few indices as a choice among constants, which an unrolled loop over them folds (see
  // scheduleRoot); more from a table
  constexpr size_t kChosen = 8;
  std::vector<Expr> chosen;
  Halide::Buffer<int32_t> table(std::max<int>(1, static_cast<int>(indices.size())));
  for (size_t j = 0; j < indices.size(); ++j) {
    const int32_t index = static_cast<int32_t>(std::clamp<int64_t>(indices[j], 0, std::max<int64_t>(extent - 1, 0)));
    table(static_cast<int>(j)) = index;
    chosen.emplace_back(index);
  }
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Index src = i;
    const Expr j = clampIndex(i[a], static_cast<int64_t>(indices.size()));
    // a load from the table is unbounded to Halide: clamped again
    src[a] = chosen.size() <= kChosen && !chosen.empty() ? Halide::mux(j, chosen) : clampIndex(table(j), extent);
    return at(in, src);
  });
}

Lowered fill(const graph::Graph& graph, const graph::Node& node) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const double value = node.floatAttr("value");
  return define(graph.value(node.outputs[0]).name, outType,
                [&](const Index&) { return convert(Expr(value), DType::Float64, outType.dtype, RoundMode::Trunc); });
}

Lowered range(const graph::Graph& graph, const graph::Node& node) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const double start = node.floatAttr("start"), step = node.floatAttr("step");
  return define(graph.value(node.outputs[0]).name, outType, [&](const Index& i) {
    Expr v = Expr(start) + castValue(Halide::Float(64), i[0]) * Expr(step);
    return convert(v, DType::Float64, outType.dtype, RoundMode::Rint);
  });
}

}  // namespace

void addDataMovementLowerings(LoweringTable& m) {
  auto shapeOnly = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) {
    return reshape(g.value(n.outputs.at(0)).name, in.at(0), g.type(n.outputs[0]));
  };
  for (const char* op : {"Reshape", "ExpandDims", "Squeeze"}) m[op] = shapeOnly;
  m["Transpose"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) {
    std::vector<int64_t> perm = n.intListAttr("perm");
    if (perm.empty()) for (int k = in[0].type.rank(); k-- > 0;) perm.push_back(k);
    return define(g.value(n.outputs.at(0)).name, g.type(n.outputs[0]), [&](const Index& i) {
      Index src(i.size());
      for (size_t k = 0; k < perm.size(); ++k) src[static_cast<size_t>(perm[k])] = i[k];
      return at(in[0], src);
    });
  };
  m["BroadcastTo"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) {
    return define(g.value(n.outputs.at(0)).name, g.type(n.outputs[0]), [&](const Index& i) { return at(in[0], broadcastIndex(i, in[0].type)); });
  };
  m["Slice"] = slice;
  m["SliceUpdate"] = sliceUpdate;
  m["Concat"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return concat(g, n, in, false); };
  m["Stack"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return concat(g, n, in, true); };
  m["Pad"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return pad(g, n, in.at(0)); };
  m["Gather"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) { return gather(g, n, in.at(0)); };
  m["SlidingWindowView"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>& in) {
    // out[..., w0, w1, ...] = x[... with each windowed axis's index plus its window index ...]
    const int rank = in[0].type.rank();
    std::vector<int64_t> axes = n.intListAttr("axes");
    if (!n.hasAttr("axes"))
      for (int k = 0; k < rank; ++k) axes.push_back(k);
    return define(g.value(n.outputs.at(0)).name, g.type(n.outputs[0]), [&](const Index& i) {
      Index src(i.begin(), i.begin() + rank);
      for (size_t k = 0; k < axes.size(); ++k) {
        const size_t a = static_cast<size_t>(axes[k] < 0 ? axes[k] + rank : axes[k]);
        src[a] = src[a] + i[static_cast<size_t>(rank) + k];
      }
      return at(in[0], src);
    });
  };
  m[kTakeSelectedOp] = lowerTakeSelected;  // the frontend's selections (cpu/SelectionGather.h)
  m["Fill"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>&) { return fill(g, n); };
  m["Range"] = [](const graph::Graph& g, const graph::Node& n, const std::vector<Lowered>&) { return range(g, n); };
}

}  // namespace pyasc::cpu
