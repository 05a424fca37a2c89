// Table-driven checks generated from the registry: every elementwise operator ops/ lowers, for
// float16 and float32, over shapes with and without broadcasting, the reductions, and the
// operators that rearrange or window their input (pad, gather, pooling), each compiled through the
// whole pipeline, run on the simulator with the sanitizer, and compared with its float64 reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <tuple>

#include "codegen/Pipeline.h"
#include "ops/DataMovement.h"
#include "ops/Elementwise.h"
#include "ops/Pooling.h"
#include "registry/OpRegistry.h"
#include "runtime/Model.h"
#include "sdk/support/ArrayCompare.h"

using namespace pyasc;

namespace {

// Completes `node`'s attributes, infers its result, compiles a graph of it alone over the inputs
// x0, x1, ... for `targetName` and runs it on the simulator (sanitizer on); `out` is its result.
void runAlone(graph::Node& node, const std::vector<NpyArray>& inputs, const std::string& targetName, NpyArray& out) {
  const auto& registry = registry::OpRegistry::builtin();
  graph::Graph g;
  std::vector<graph::TensorType> inTypes;
  node.inputs.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    graph::TensorType t{inputs[i].dtype, graph::knownShape(inputs[i].shape), graph::Layout::ND};
    graph::ValueId v = g.addValue("x" + std::to_string(i), t);
    g.inputs.push_back(graph::GraphInput{v, graph::InputRole::Array, {}});
    node.inputs.push_back(v);
    inTypes.push_back(t);
  }
  ASSERT_EQ(registry.completeAttrs(node), "");
  std::vector<graph::TensorType> outTypes;
  std::string error;
  ASSERT_TRUE(registry.infer(node, inTypes, outTypes, error)) << error;
  graph::ValueId result = g.addValue("y", outTypes[0]);
  node.outputs = {result};
  g.body.nodes.push_back(node);
  g.outputs.push_back(graph::GraphOutput{"y", result});
  Target target = loadTarget(targetName);
  codegen::CompileResult compiled = codegen::compileGraph(g, target, codegen::CompileOptions{});
  pyasc::Model net = pyasc::Model::fromImage(compiled.model, node.op);
  for (size_t i = 0; i < inputs.size(); ++i) net.setInput("x" + std::to_string(i), inputs[i]);
  RunResult r = net.run();
  out = r.outputs.at(0).second;
}

NpyArray float64Array(const std::vector<int64_t>& shape, const std::vector<double>& values) {
  NpyArray a;
  a.dtype = DType::Float64;
  a.shape = shape;
  a.data.resize(values.size() * 8);
  if (!values.empty()) std::memcpy(a.data.data(), values.data(), values.size() * 8);
  return a;
}

struct Case {
  std::string op;
  DType dtype;
  std::vector<std::vector<int64_t>> shapes;  // one per input
};

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string s = info.param.op + "_" + dtypeShortName(info.param.dtype);
  for (const auto& shape : info.param.shapes) {
    s += "_";
    for (int64_t d : shape) s += std::to_string(d) + "x";
  }
  return s;
}

// gtest prints parameters into the ctest names: the case's name, not its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << caseName({c, 0}); }

// Inputs away from the operators' singularities: log, sqrt and division need positive values.
bool positiveInputs(const std::string& op) {
  static const std::set<std::string> ops = {"Log", "Log2", "Log10", "Log1p", "Sqrt", "Reciprocal", "Div", "Pow"};
  return ops.count(op) > 0;
}

std::vector<Case> cases() {
  const auto& registry = registry::OpRegistry::builtin();
  std::vector<Case> out;
  for (const std::string& op : ops::elementwiseOpNames()) {
    const registry::OpEntry* e = registry.find(op);
    if (!e || op == "Cast" || op == "Where" || op.rfind("Logical", 0) == 0 || op.rfind("Bitwise", 0) == 0) continue;
    size_t arity = e->inputs.size();
    for (DType t : {DType::Float16, DType::Float32}) {
      for (const auto& shape : std::vector<std::vector<int64_t>>{{1}, {17}, {3, 130}, {129, 129}}) {
        out.push_back(Case{op, t, std::vector<std::vector<int64_t>>(arity, shape)});
      }
      if (arity == 2) out.push_back(Case{op, t, {{6, 33}, {33}}});   // a row broadcast
      if (arity == 2) out.push_back(Case{op, t, {{5, 1}, {1, 40}}});  // both sides broadcast
    }
  }
  out.push_back(Case{"Add", DType::Float16, {{4 << 20}, {4 << 20}}});  // ≥ 4M elements, every core
  return out;
}

class OperatorTable : public ::testing::TestWithParam<Case> {};

TEST_P(OperatorTable, MatchesFloat64Reference) {
  const Case& c = GetParam();
  graph::Node node;
  node.op = c.op;
  LegacyRandom gen(7);
  std::vector<NpyArray> inputs;
  std::vector<std::vector<double>> values;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    inputs.push_back(positiveInputs(c.op) ? uniformArray(c.dtype, c.shapes[i], gen, 0.5, 2.0)
                                          : uniformArray(c.dtype, c.shapes[i], gen, -2.0, 2.0));
    values.push_back(arrayValues(inputs.back()));
  }
  NpyArray got;
  ASSERT_NO_FATAL_FAILURE(runAlone(node, inputs, "ascend910b", got));
  // the float64 reference, with NumPy's broadcasting over the output shape
  std::vector<int64_t> outShape = got.shape;
  std::vector<double> want(static_cast<size_t>(got.elementCount()));
  for (int64_t k = 0; k < got.elementCount(); ++k) {
    std::vector<double> args;
    for (size_t i = 0; i < c.shapes.size(); ++i) {
      int64_t rem = k, index = 0, stride = 1;
      const auto& s = c.shapes[i];
      for (size_t d = outShape.size(); d-- > 0;) {
        int64_t coord = rem % outShape[d];
        rem /= outShape[d];
        size_t sd = d + s.size() - outShape.size();
        if (d + s.size() >= outShape.size() && s[sd] != 1) index += coord * stride;
        if (d + s.size() >= outShape.size()) stride *= s[sd];
      }
      args.push_back(values[i][static_cast<size_t>(index)]);
    }
    want[static_cast<size_t>(k)] = ops::elementwiseReference(node, args);
  }
  ArrayError err = compareArrays(got, float64Array(outShape, want));
  double tol = got.dtype == DType::Float16 ? 2e-3 : got.dtype == DType::Float32 ? 1e-5 : 0;
  EXPECT_FALSE(err.sizesDiffer);
  EXPECT_LE(err.relative, tol) << "max abs " << err.maxAbs;
}

INSTANTIATE_TEST_SUITE_P(Registry, OperatorTable, ::testing::ValuesIn(cases()), caseName);

}  // namespace

namespace {

struct ReduceCase {
  std::string op;
  DType dtype;
  std::vector<int64_t> shape;
  int64_t axis;  // -1: the last axis; -2: every axis (flattened)
};

std::string reduceName(const ::testing::TestParamInfo<ReduceCase>& info) {
  std::string s = info.param.op + "_" + dtypeShortName(info.param.dtype) + "_";
  for (int64_t d : info.param.shape) s += std::to_string(d) + "x";
  return s + "_axis" + (info.param.axis == -2 ? std::string("all") : std::to_string(info.param.axis + 1));
}

void PrintTo(const ReduceCase& c, std::ostream* os) { *os << reduceName({c, 0}); }

std::vector<ReduceCase> reduceCases() {
  std::vector<ReduceCase> out;
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ArgMax", "ArgMin"}) {
    for (DType t : {DType::Float16, DType::Float32}) {
      for (const auto& shape : std::vector<std::vector<int64_t>>{{1}, {17}, {3, 130}, {129, 5}, {2, 7, 33}}) {
        for (int64_t axis : {int64_t{0}, int64_t{-1}, int64_t{-2}}) {
          if (axis == 0 && shape.size() == 1) continue;
          bool arg = std::string(op).rfind("Arg", 0) == 0;
          if (arg && axis == -2 && shape.size() > 1) continue;  // argmax of the flattened array: covered by 1-d shapes
          out.push_back(ReduceCase{op, t, shape, axis});
        }
      }
    }
  }
  return out;
}

class ReductionTable : public ::testing::TestWithParam<ReduceCase> {};

TEST_P(ReductionTable, MatchesFloat64Reference) {
  const ReduceCase& c = GetParam();
  bool arg = c.op.rfind("Arg", 0) == 0;
  graph::Node node;
  node.op = c.op;
  int64_t rank = static_cast<int64_t>(c.shape.size());
  int64_t axis = c.axis == -1 ? rank - 1 : c.axis;
  if (c.axis != -2) node.setAttr(arg ? "axis" : "axes", arg ? graph::Attribute{axis} : graph::Attribute{std::vector<int64_t>{axis}});
  LegacyRandom gen(11);
  NpyArray a = uniformArray(c.dtype, c.shape, gen, 0.25, 2.0);
  std::vector<double> v = arrayValues(a);
  NpyArray got;
  ASSERT_NO_FATAL_FAILURE(runAlone(node, {a}, "ascend310", got));
  // reference over [outer, reduce, inner]
  int64_t outer = 1, reduce = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t e = c.shape[static_cast<size_t>(d)];
    if (c.axis == -2) {
      reduce *= e;
    } else if (d < axis) {
      outer *= e;
    } else if (d == axis) {
      reduce *= e;
    } else {
      inner *= e;
    }
  }
  std::vector<double> want(static_cast<size_t>(outer * inner));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      double acc = c.op == "ReduceMax" ? -1e300 : c.op == "ReduceMin" ? 1e300 : 0;
      int64_t best = 0;
      for (int64_t k = 0; k < reduce; ++k) {
        double x = v[static_cast<size_t>((o * reduce + k) * inner + i)];
        double b = v[static_cast<size_t>((o * reduce + best) * inner + i)];
        if (c.op == "ReduceMax") acc = std::max(acc, x);
        if (c.op == "ReduceMin") acc = std::min(acc, x);
        if (c.op == "ReduceSum" || c.op == "ReduceMean") acc += x;
        if ((c.op == "ArgMax" && x > b) || (c.op == "ArgMin" && x < b)) best = k;
      }
      double result = arg ? static_cast<double>(best) : c.op == "ReduceMean" ? acc / reduce : acc;
      want[static_cast<size_t>(o * inner + i)] = result;
    }
  ArrayError err = compareArrays(got, float64Array({outer * inner}, want));
  double tol = arg ? 0 : c.dtype == DType::Float16 ? 2e-3 : 1e-5;
  EXPECT_FALSE(err.sizesDiffer);
  EXPECT_LE(err.relative, tol) << "max abs " << err.maxAbs;
}

INSTANTIATE_TEST_SUITE_P(Registry, ReductionTable, ::testing::ValuesIn(reduceCases()), reduceName);

}  // namespace

namespace {

// Operators that rearrange or window their input: Pad (constant and edge), Gather (runs of
// consecutive indices and single ones) and max/average pooling (NHWC and NCHW, padding, strides),
// for float16 and float32, with extents off multiples of 16 and 128 and a single element.
struct ArrangeCase {
  std::string label;  // attributes, for the test name
  DType dtype;
  std::vector<int64_t> shape;
  graph::Node node;  // op and attributes
};

std::string arrangeName(const ::testing::TestParamInfo<ArrangeCase>& info) {
  std::string s = info.param.node.op + "_" + dtypeShortName(info.param.dtype) + "_";
  for (int64_t d : info.param.shape) s += std::to_string(d) + "x";
  return s + "_" + info.param.label;
}

void PrintTo(const ArrangeCase& c, std::ostream* os) { *os << arrangeName({c, 0}); }

graph::Node nodeOf(const std::string& op, std::vector<graph::NamedAttr> attrs) {
  graph::Node n;
  n.op = op;
  for (auto& a : attrs) n.setAttr(a.name, a.value);
  return n;
}

std::vector<ArrangeCase> arrangeCases() {
  using Ints = std::vector<int64_t>;
  const auto& registry = registry::OpRegistry::builtin();
  std::vector<std::tuple<std::string, Ints, graph::Node>> specs = {
      {"constant", {1}, nodeOf("Pad", {{"pads", Ints{2, 3}}, {"value", 0.5}})},
      {"edge", {17}, nodeOf("Pad", {{"pads", Ints{0, 15}}, {"mode", std::string("edge")}})},
      {"constant", {3, 130}, nodeOf("Pad", {{"pads", Ints{1, 2, 0, 5}}, {"value", -1.25}})},
      {"edge", {3, 130}, nodeOf("Pad", {{"pads", Ints{2, 1, 3, 4}}, {"mode", std::string("edge")}})},
      {"edge", {2, 7, 33}, nodeOf("Pad", {{"pads", Ints{1, 0, 2, 2, 0, 3}}, {"mode", std::string("edge")}})},
      {"constant", {129, 129}, nodeOf("Pad", {{"pads", Ints{1, 1, 1, 1}}})},
      {"repeat", {1}, nodeOf("Gather", {{"indices", Ints{0, 0, 0}}})},
      {"runs", {17}, nodeOf("Gather", {{"indices", Ints{16, 0, 1, 2, 3, 15}}})},
      {"axis1", {3, 130}, nodeOf("Gather", {{"indices", Ints{129, 0, 1, 2, 64, 65, 7}}, {"axis", int64_t{1}}})},
      {"rows", {129, 129}, nodeOf("Gather", {{"indices", Ints{128, 5, 6, 7, 0}}})},
      {"axis1", {2, 7, 33}, nodeOf("Gather", {{"indices", Ints{6, 0, 1, 3}}, {"axis", int64_t{1}}})},
      {"axis2", {2, 7, 33}, nodeOf("Gather", {{"indices", Ints{32, 31, 30, 1, 2, 3}}, {"axis", int64_t{2}}})},
  };
  for (const char* op : {"MaxPool2D", "AvgPool2D"}) {
    std::vector<std::tuple<std::string, Ints, graph::Node>> pools = {
        {"k1", {1, 1, 1, 1}, nodeOf(op, {{"kernel", Ints{1}}})},
        {"k3s2p1", {2, 9, 17, 130}, nodeOf(op, {{"kernel", Ints{3}}, {"strides", Ints{2}}, {"pads", Ints{1}}})},
        {"k2", {1, 16, 16, 17}, nodeOf(op, {{"kernel", Ints{2}}})},
        {"k3x2s1x2p1101", {1, 7, 33, 64},
         nodeOf(op, {{"kernel", Ints{3, 2}}, {"strides", Ints{1, 2}}, {"pads", Ints{1, 1, 0, 1}}})},
        {"nchw_k3s2p1", {2, 3, 10, 13},
         nodeOf(op, {{"kernel", Ints{3}}, {"strides", Ints{2}}, {"pads", Ints{1}}, {"layout", std::string("NCHW")}})},
    };
    specs.insert(specs.end(), pools.begin(), pools.end());
  }
  std::vector<ArrangeCase> out;
  for (const auto& [label, shape, node] : specs) {
    if (!registry.find(node.op)) continue;
    for (DType t : {DType::Float16, DType::Float32}) out.push_back(ArrangeCase{label, t, shape, node});
  }
  return out;
}

std::vector<double> arrangeReference(const graph::Node& node, const std::vector<int64_t>& shape,
                                     const std::vector<double>& x) {
  if (node.op == "Pad") return ops::padReference(node, shape, x);
  if (node.op == "Gather") return ops::gatherReference(node, shape, x);
  return ops::pool2dReference(node, shape, x);
}

class ArrangeTable : public ::testing::TestWithParam<ArrangeCase> {};

TEST_P(ArrangeTable, MatchesFloat64Reference) {
  const ArrangeCase& c = GetParam();
  graph::Node node = c.node;
  LegacyRandom gen(13);
  NpyArray x = uniformArray(c.dtype, c.shape, gen, -2.0, 2.0);
  NpyArray got;
  ASSERT_NO_FATAL_FAILURE(runAlone(node, {x}, "ascend910b", got));
  ArrayError err = compareArrays(got, float64Array(got.shape, arrangeReference(node, c.shape, arrayValues(x))));
  EXPECT_FALSE(err.sizesDiffer);
  EXPECT_LE(err.relative, c.dtype == DType::Float16 ? 2e-3 : 1e-5) << "max abs " << err.maxAbs;
}

INSTANTIATE_TEST_SUITE_P(Registry, ArrangeTable, ::testing::ValuesIn(arrangeCases()), arrangeName);

}  // namespace
