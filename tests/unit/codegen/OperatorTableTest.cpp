// Table-driven checks generated from the registry: every elementwise operator ops/ lowers, for
// float16 and float32, over shapes with and without broadcasting, compiled through the whole
// pipeline, run on the simulator with the sanitizer, and compared with its float64 reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "codegen/Pipeline.h"
#include "ops/Elementwise.h"
#include "registry/OpRegistry.h"
#include "runtime/Model.h"
#include "sdk/support/ArrayCompare.h"

using namespace pyasc;

namespace {

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
  const auto& registry = registry::OpRegistry::builtin();
  graph::Graph g;
  graph::Node node;
  node.op = c.op;
  std::vector<graph::TensorType> inTypes;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    graph::TensorType t{c.dtype, graph::knownShape(c.shapes[i]), graph::Layout::ND};
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

  Target target = loadTarget("ascend910b");
  codegen::CompileResult compiled = codegen::compileGraph(g, target, codegen::CompileOptions{});
  pyasc::Model net = pyasc::Model::fromImage(compiled.model, c.op);
  LegacyRandom gen(7);
  std::vector<std::vector<double>> values;
  std::vector<std::vector<int64_t>> strides;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    NpyArray a = positiveInputs(c.op) ? uniformArray(c.dtype, c.shapes[i], gen, 0.5, 2.0)
                                      : uniformArray(c.dtype, c.shapes[i], gen, -2.0, 2.0);
    values.push_back(arrayValues(a));
    net.setInput("x" + std::to_string(i), a);
  }
  RunResult r = net.run();
  const NpyArray& got = r.outputs.at(0).second;
  // the float64 reference, with NumPy's broadcasting over the output shape
  std::vector<int64_t> outShape = got.shape;
  NpyArray want;
  want.dtype = DType::Float64;
  want.shape = outShape;
  int64_t n = want.elementCount();
  want.data.resize(static_cast<size_t>(n) * 8);
  for (int64_t k = 0; k < n; ++k) {
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
    double v = ops::elementwiseReference(g.body.nodes[0], args);
    std::memcpy(want.data.data() + k * 8, &v, 8);
  }
  ArrayError err = compareArrays(got, want);
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
  const auto& registry = registry::OpRegistry::builtin();
  bool arg = c.op.rfind("Arg", 0) == 0;
  graph::Graph g;
  graph::TensorType in{c.dtype, graph::knownShape(c.shape), graph::Layout::ND};
  graph::ValueId x = g.addValue("x", in);
  g.inputs.push_back(graph::GraphInput{x, graph::InputRole::Array, {}});
  graph::Node node;
  node.op = c.op;
  node.inputs = {x};
  int64_t rank = static_cast<int64_t>(c.shape.size());
  int64_t axis = c.axis == -1 ? rank - 1 : c.axis;
  if (c.axis != -2) node.setAttr(arg ? "axis" : "axes", arg ? graph::Attribute{axis} : graph::Attribute{std::vector<int64_t>{axis}});
  ASSERT_EQ(registry.completeAttrs(node), "");
  std::vector<graph::TensorType> outTypes;
  std::string error;
  ASSERT_TRUE(registry.infer(node, {in}, outTypes, error)) << error;
  graph::ValueId y = g.addValue("y", outTypes[0]);
  node.outputs = {y};
  g.body.nodes.push_back(node);
  g.outputs.push_back(graph::GraphOutput{"y", y});
  Target target = loadTarget("ascend310");
  codegen::CompileResult compiled = codegen::compileGraph(g, target, codegen::CompileOptions{});
  pyasc::Model net = pyasc::Model::fromImage(compiled.model, c.op);
  LegacyRandom gen(11);
  NpyArray a = uniformArray(c.dtype, c.shape, gen, 0.25, 2.0);
  std::vector<double> v = arrayValues(a);
  net.setInput("x", a);
  RunResult r = net.run();
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
  NpyArray want;
  want.dtype = DType::Float64;
  want.shape = {outer * inner};
  want.data.resize(static_cast<size_t>(outer * inner) * 8);
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
      std::memcpy(want.data.data() + (o * inner + i) * 8, &result, 8);
    }
  const NpyArray& got = r.outputs.at(0).second;
  ArrayError err = compareArrays(got, want);
  double tol = arg ? 0 : c.dtype == DType::Float16 ? 2e-3 : 1e-5;
  EXPECT_FALSE(err.sizesDiffer);
  EXPECT_LE(err.relative, tol) << "max abs " << err.maxAbs;
}

INSTANTIATE_TEST_SUITE_P(Registry, ReductionTable, ::testing::ValuesIn(reduceCases()), reduceName);

}  // namespace
