// Composite expansion: each composite node, and each call of a custom operator (its definition),
// becomes a short list of primitive nodes whose last node defines the original result value.
#include "codegen/graph/ExpandComposites.h"

#include <algorithm>
#include <string>
#include <vector>

#include "codegen/templates/RowNormTemplate.h"
#include "ops/Elementwise.h"
#include "registry/Expansion.h"
#include "registry/OpRegistry.h"

namespace pyasc::codegen {

using graph::Node;
using graph::TensorType;
using graph::ValueId;

namespace {

class Expander {
 public:
  Expander(graph::Graph& g, const Node& n) : g_(g), n_(n) {}

  std::vector<Node> nodes;

  ValueId add(const std::string& op, std::vector<ValueId> inputs, std::vector<graph::NamedAttr> attrs,
              const TensorType& type, ValueId result = graph::kNoValue) {
    Node node;
    node.op = op;
    node.inputs = std::move(inputs);
    node.attrs = std::move(attrs);
    node.loc = n_.loc;
    if (result == graph::kNoValue) result = g_.addValue(g_.value(n_.outputs[0]).name + "_" + lower(op), type, n_.loc);
    // the node that defines the original result keeps what earlier passes noted on it (not an
    // explicit schedule, which was the composite's)
    if (!n_.outputs.empty() && result == n_.outputs[0])
      for (const graph::NamedAttr& h : n_.hints)
        if (h.name != graph::kScheduleHint) node.hints.push_back(h);
    node.outputs = {result};
    nodes.push_back(std::move(node));
    return result;
  }

  ValueId scalar(double v, DType t) {
    ValueId id = g_.addValue(g_.value(n_.outputs[0]).name + "_c", TensorType{t, {}, graph::Layout::ND}, n_.loc);
    g_.constants.push_back(graph::GraphConstant{id, graph::encodeConstant(t, {v})});
    return id;
  }

  // x reduced over `axis` with keepdims
  ValueId reduce(const std::string& op, ValueId x, int64_t axis) {
    TensorType t = g_.type(x);
    t.shape[static_cast<size_t>(axis)] = graph::Dim::known(1);
    return add(op, {x}, {{"axes", std::vector<int64_t>{axis}}, {"keepdims", true}}, t);
  }

  ValueId binary(const std::string& op, ValueId a, ValueId b, ValueId result = graph::kNoValue) {
    TensorType ta = g_.type(a), tb = g_.type(b);
    TensorType out = ta.rank() >= tb.rank() ? ta : tb;
    for (int i = 1; i <= std::min(ta.rank(), tb.rank()); ++i) {
      const graph::Dim& da = ta.shape[ta.shape.size() - i];
      const graph::Dim& db = tb.shape[tb.shape.size() - i];
      out.shape[out.shape.size() - i] = da.isKnown() && da.extent == 1 ? db : da;
    }
    return add(op, {a, b}, {}, out, result);
  }

  ValueId unary(const std::string& op, ValueId x, ValueId result = graph::kNoValue) {
    return add(op, {x}, {}, g_.type(x), result);
  }

  // a per-channel vector reshaped to broadcast along `axis` of a rank-`rank` tensor
  ValueId alongAxis(ValueId v, int64_t axis, int rank) {
    TensorType t = g_.type(v);
    std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
    shape[static_cast<size_t>(axis)] = graph::elementCount(t.shape);
    t.shape = graph::knownShape(shape);
    return add("Reshape", {v}, {{"shape", shape}}, t);
  }

  int64_t axisOf(int64_t fallback) const {
    int64_t a = n_.intAttr("axis", fallback);
    int rank = g_.type(n_.inputs[0]).rank();
    return a < 0 ? a + rank : a;
  }

 private:
  static std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  graph::Graph& g_;
  const Node& n_;
};

// Integers the vector unit has no lanes for (the scalar unit computes them).
bool laneless(DType t) { return isInteger(t) && !ops::isVectorDType(t); }

bool expand(graph::Graph& g, const Target& target, const Node& n, std::vector<Node>& out) {
  Expander e(g, n);
  ValueId result = n.outputs.empty() ? graph::kNoValue : n.outputs[0];
  DType t = result == graph::kNoValue ? DType::Float32 : g.type(result).dtype;
  if ((n.op == "Softmax" || n.op == "LogSoftmax" || n.op == "LayerNorm") && rowNormRefusal(n, g, target).empty()) {
    return false;  // one fused kernel (codegen/templates/RowNormTemplate)
  }
  if (n.op == "Softmax" || n.op == "LogSoftmax") {
    int64_t axis = e.axisOf(-1);
    ValueId x = n.inputs[0];
    ValueId shifted = e.binary("Sub", x, e.reduce("ReduceMax", x, axis));
    ValueId ex = e.unary("Exp", shifted);
    ValueId sum = e.reduce("ReduceSum", ex, axis);
    if (n.op == "Softmax") {
      e.binary("Div", ex, sum, result);
    } else {
      e.binary("Sub", shifted, e.unary("Log", sum), result);
    }
  } else if (n.op == "LayerNorm" || n.op == "BatchNorm") {
    ValueId x = n.inputs[0];
    int rank = g.type(x).rank();
    ValueId eps = e.scalar(n.floatAttr("epsilon", 1e-5), t);
    if (n.op == "LayerNorm") {
      int64_t axis = e.axisOf(-1);
      ValueId centred = e.binary("Sub", x, e.reduce("ReduceMean", x, axis));
      ValueId var = e.reduce("ReduceMean", e.binary("Mul", centred, centred), axis);
      ValueId norm = e.binary("Div", centred, e.unary("Sqrt", e.binary("Add", var, eps)));
      // gamma and beta broadcast against x as NumPy does (the registry checked they do)
      e.binary("Add", e.binary("Mul", norm, n.inputs[1]), n.inputs[2], result);
    } else {
      int64_t axis = e.axisOf(1);
      ValueId mean = e.alongAxis(n.inputs[1], axis, rank), var = e.alongAxis(n.inputs[2], axis, rank);
      ValueId gamma = e.alongAxis(n.inputs[3], axis, rank), beta = e.alongAxis(n.inputs[4], axis, rank);
      ValueId scale = e.binary("Div", gamma, e.unary("Sqrt", e.binary("Add", var, eps)));
      e.binary("Add", e.binary("Mul", e.binary("Sub", x, mean), scale), beta, result);
    }
  } else if (n.op == "ReduceVar" || n.op == "ReduceStd") {
    ValueId x = n.inputs[0];
    TensorType in = g.type(x);
    std::vector<int64_t> axes = n.intListAttr("axes");
    if (!n.hasAttr("axes"))
      for (int i = 0; i < in.rank(); ++i) axes.push_back(i);
    int64_t count = 1;
    for (auto& a : axes) {
      if (a < 0) a += in.rank();
      count *= in.shape[static_cast<size_t>(a)].extent;
    }
    TensorType kept = in;
    for (int64_t a : axes) kept.shape[static_cast<size_t>(a)] = graph::Dim::known(1);
    ValueId mean = e.add("ReduceMean", {x}, {{"axes", axes}, {"keepdims", true}}, kept);
    ValueId centred = e.binary("Sub", x, mean);
    ValueId sq = e.binary("Mul", centred, centred);
    TensorType outType = g.type(result);
    const std::vector<graph::NamedAttr> reduced = {{"axes", axes}, {"keepdims", n.boolAttr("keepdims", false)}};
    const int64_t ddof = n.intAttr("ddof", 0);
    // the mean of the squares; with ddof, their sum over count − ddof, which a dynamic extent
    // would make a run-time value
    const ValueId varianceResult = n.op == "ReduceVar" ? result : graph::kNoValue;
    ValueId var = graph::kNoValue;
    if (ddof == 0) {
      var = e.add("ReduceMean", {sq}, reduced, outType, varianceResult);
    } else {
      if (!g.symbols.empty()) {
        throw CompileError(n.loc, std::string(n.op == "ReduceVar" ? "np.var" : "np.std") +
                                      " with ddof is not compiled for dynamic shapes yet; compile one model per shape");
      }
      ValueId sum = e.add("ReduceSum", {sq}, reduced, outType);
      var = e.binary("Mul", sum, e.scalar(1.0 / static_cast<double>(count - ddof), t), varianceResult);
    }
    if (n.op == "ReduceStd") e.unary("Sqrt", var, result);
  } else if ((n.op == "ReduceProd" || n.op == "ReduceMean") && t == DType::Float16 && g.type(n.inputs[0]).dtype == t) {
    // every rounding of a product adds to its relative error: float16 products multiply in float32;
    // NumPy sums a float16 mean in float32 (a float16 sum of 2^17 ones is infinite)
    TensorType wide = g.type(n.inputs[0]), narrow = g.type(result);
    wide.dtype = narrow.dtype = DType::Float32;
    ValueId x = e.add("Cast", {n.inputs[0]}, {{"dtype", std::string("float32")}}, wide);
    ValueId reduced = e.add(n.op, {x}, std::vector<graph::NamedAttr>(n.attrs.begin(), n.attrs.end()), narrow);
    e.add("Cast", {reduced}, {{"dtype", std::string("float16")}}, g.type(result), result);
  } else if (n.op == "Cast" && t == DType::Float16 && laneless(g.type(n.inputs[0]).dtype)) {
    // integers without vector lanes (on the scalar unit, which gives float32 only) become float16
    // through float32: exact, as float32 holds every integer below 2^24 and any larger one is beyond
    // float16's range either way
    TensorType wide = g.type(result);
    wide.dtype = DType::Float32;
    ValueId x = e.add("Cast", {n.inputs[0]}, {{"dtype", std::string("float32")}}, wide);
    e.add("Cast", {x}, {{"dtype", std::string("float16")}}, g.type(result), result);
  } else if (n.op != "Cast" && ops::isElementwiseOp(n.op) && isFloat(t) && std::any_of(n.inputs.begin(), n.inputs.end(), [&](ValueId v) {
               return laneless(g.type(v).dtype);
             })) {
    // a float function of integers without vector lanes (np.exp of int8, NumPy's float16): those
    // operands first become the result's float dtype, through float32 as a cast to float16 does
    std::vector<ValueId> inputs;
    for (ValueId v : n.inputs) {
      if (!laneless(g.type(v).dtype)) {
        inputs.push_back(v);
        continue;
      }
      TensorType wide = g.type(v);
      wide.dtype = DType::Float32;
      ValueId x = e.add("Cast", {v}, {{"dtype", std::string("float32")}}, wide);
      wide.dtype = t;
      if (t != DType::Float32) x = e.add("Cast", {x}, {{"dtype", std::string(dtypeName(t))}}, wide);
      inputs.push_back(x);
    }
    e.add(n.op, inputs, std::vector<graph::NamedAttr>(n.attrs.begin(), n.attrs.end()), g.type(result), result);
  } else if (n.op == "ReduceSum" && g.type(n.inputs[0]).dtype == DType::Bool) {
    // a count of true values: the flags as int32, summed (to int64)
    TensorType flags = g.type(n.inputs[0]);
    flags.dtype = DType::Int32;
    ValueId x = e.add("Cast", {n.inputs[0]}, {{"dtype", std::string("int32")}}, flags);
    e.add("ReduceSum", {x}, std::vector<graph::NamedAttr>(n.attrs.begin(), n.attrs.end()), g.type(result), result);
  } else if (n.op == "ReduceAll" || n.op == "ReduceAny" ||
             ((n.op == "ReduceMax" || n.op == "ReduceMin") && g.type(n.inputs[0]).dtype == DType::Bool)) {
    // all (a boolean minimum): the minimum of the values as 0/1 is 1; any (a maximum): the maximum is
    const bool all = n.op == "ReduceAll" || n.op == "ReduceMin";
    ValueId x = n.inputs[0];
    TensorType wide = g.type(x);
    if (wide.dtype != DType::Bool) {
      wide.dtype = DType::Bool;
      x = e.add("Cast", {x}, {{"dtype", std::string("bool")}}, wide);
    }
    wide.dtype = DType::Float16;
    ValueId flags = e.add("Cast", {x}, {{"dtype", std::string("float16")}}, wide);
    TensorType reducedType = g.type(result);
    reducedType.dtype = DType::Float16;
    std::vector<graph::NamedAttr> attrs(n.attrs.begin(), n.attrs.end());
    ValueId reduced = e.add(all ? "ReduceMin" : "ReduceMax", {flags}, attrs, reducedType);
    e.binary("NotEqual", reduced, e.scalar(0, DType::Float16), result);
  } else {
    return false;
  }
  for (auto& node : e.nodes) out.push_back(std::move(node));
  return true;
}

// The definition of a custom operator, when `n` calls one.
const registry::ExpansionImplementation* customDefinition(const registry::OpRegistry* registry, const Node& n) {
  const registry::OpEntry* e = registry ? registry->find(n.op) : nullptr;
  return e ? dynamic_cast<const registry::ExpansionImplementation*>(e->implementation.get()) : nullptr;
}

int expandRegion(graph::Graph& g, const registry::OpRegistry* registry, const Target& target, graph::Region& r) {
  int expanded = 0;
  std::vector<Node> nodes;
  for (auto& n : r.nodes) {
    for (auto& sub : n.regions) expanded += expandRegion(g, registry, target, sub);
    std::vector<Node> primitives;
    if (const auto* definition = customDefinition(registry, n)) {
      definition->expand(g, *registry, n, primitives);
      ++expanded;
    } else {
      primitives.push_back(n);
    }
    for (auto& p : primitives) {
      Node copy = p;
      if (expand(g, target, copy, nodes)) {
        ++expanded;
      } else {
        nodes.push_back(std::move(copy));
      }
    }
  }
  r.nodes = std::move(nodes);
  return expanded;
}

}  // namespace

int expandComposites(graph::Graph& graph, const registry::OpRegistry* registry, const Target& target) {
  return expandRegion(graph, registry, target, graph.body);
}

}  // namespace pyasc::codegen
