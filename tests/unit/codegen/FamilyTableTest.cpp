// Table-driven checks of the cube (matmul, einsum, tensordot), data-movement and pyasc.nn families:
// each case compiled alone through the whole pipeline, run on the simulator with the sanitizer and
// compared with its float64 reference from ops/; a registry test requires every built-in operator
// to have a table (here or in OperatorTableTest.cpp) or a stated reason.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "ops/DataMovement.h"
#include "ops/Elementwise.h"
#include "ops/Matmul.h"
#include "ops/NN.h"
#include "tests/unit/codegen/OperatorTableSupport.h"

using namespace pyasc;

namespace {

using Ints = std::vector<int64_t>;
using Shapes = std::vector<Ints>;

struct FamilyCase {
  std::string label;  // attributes, for the test name
  graph::Node node;   // op and attributes
  DType dtype;
  Shapes shapes;      // one per input
};

std::string familyName(const ::testing::TestParamInfo<FamilyCase>& info) {
  std::string s = info.param.node.op + "_" + dtypeShortName(info.param.dtype);
  for (const auto& shape : info.param.shapes) {
    s += "_";
    for (int64_t d : shape) s += std::to_string(d) + "x";
  }
  return info.param.label.empty() ? s : s + "_" + info.param.label;
}

void PrintTo(const FamilyCase& c, std::ostream* os) { *os << familyName({c, 0}); }

graph::Node nodeOf(const std::string& op, std::vector<graph::NamedAttr> attrs = {}) {
  graph::Node n;
  n.op = op;
  for (auto& a : attrs) n.setAttr(a.name, a.value);
  return n;
}

// Every spec for float16 and float32; `big` specs (≥ 4M elements, one per family) for one dtype.
struct Spec {
  std::string label;
  graph::Node node;
  Shapes shapes;
  bool big = false;
};

std::vector<FamilyCase> expand(const std::vector<Spec>& specs) {
  std::vector<FamilyCase> out;
  for (const Spec& s : specs) {
    for (DType t : {DType::Float16, DType::Float32}) {
      if (s.big && t == DType::Float16) continue;
      out.push_back(FamilyCase{s.label, s.node, t, s.shapes});
    }
  }
  return out;
}

std::vector<FamilyCase> matmulCases() {
  auto mm = nodeOf("MatMul");
  auto einsum = [](const std::string& eq) { return nodeOf("Einsum", {{"equation", eq}}); };
  auto tensordot = [](Ints a, Ints b) { return nodeOf("TensorDot", {{"axes_a", a}, {"axes_b", b}}); };
  return expand({
      {"", mm, {{1, 1}, {1, 1}}},
      {"", mm, {{17, 33}, {33, 130}}},
      {"", mm, {{3, 130}, {130, 129}}},
      {"vec", mm, {{130}, {130, 17}}},
      {"vec", mm, {{17, 130}, {130}}},
      {"dot", mm, {{33}, {33}}},
      {"batched", mm, {{2, 17, 33}, {2, 33, 20}}},
      {"sharedB", mm, {{4, 17, 33}, {33, 9}}},
      {"sharedA", mm, {{17, 33}, {3, 33, 20}}},
      {"bcast", mm, {{2, 1, 5, 33}, {3, 33, 17}}},
      {"ij_jk", einsum("ij,jk->ik"), {{17, 33}, {33, 130}}},
      {"bij_bjk", einsum("bij,bjk->bik"), {{3, 17, 33}, {3, 33, 20}}},
      {"ij_kj", einsum("ij,kj->ik"), {{17, 33}, {20, 33}}},
      {"ji_jk", einsum("ji,jk->ik"), {{33, 17}, {33, 20}}},
      {"ij_jk_ki", einsum("ij,jk->ki"), {{17, 33}, {33, 20}}},
      {"i_i", einsum("i,i->"), {{130}, {130}}},
      {"i_j", einsum("i,j->ij"), {{17}, {130}}},
      {"ij_j", einsum("ij,j->i"), {{17, 130}, {130}}},
      {"attention", einsum("bhqd,bhkd->bhqk"), {{2, 3, 17, 16}, {2, 3, 20, 16}}},
      {"implicit", einsum("ij,jk"), {{1, 1}, {1, 1}}},
      {"axes2", tensordot({1, 2}, {0, 1}), {{3, 4, 33}, {4, 33, 17}}},
      {"axes1", tensordot({1}, {0}), {{17, 33}, {33, 130}}},
      {"crossed", tensordot({0}, {1}), {{33, 17}, {20, 33}}},
      {"big", mm, {{2048, 16}, {16, 2048}}, true},
      {"bias_relu", nodeOf("FusedMatMul", {{"bias", true}, {"relu", true}}), {{17, 33}, {33, 130}, {130}}},
      {"relu", nodeOf("FusedMatMul", {{"relu", true}}), {{3, 130}, {130, 129}}},
      {"bias_stacked", nodeOf("FusedMatMul", {{"bias", true}}), {{4, 17, 33}, {33, 9}, {9}}},
  });
}

std::vector<FamilyCase> movementCases() {
  auto transpose = [](Ints perm) { return nodeOf("Transpose", {{"perm", perm}}); };
  auto slice = [](Ints axes, Ints begin, Ints end, Ints step) {
    return nodeOf("Slice", {{"axes", axes}, {"begin", begin}, {"end", end}, {"step", step}});
  };
  auto to = [](Ints shape) { return nodeOf("BroadcastTo", {{"shape", shape}}); };
  auto axis = [](const std::string& op, int64_t a) { return nodeOf(op, {{"axis", a}}); };
  return expand({
      {"", nodeOf("Transpose"), {{1}}},
      {"", nodeOf("Transpose"), {{17, 130}}},
      {"", nodeOf("Transpose"), {{129, 129}}},
      {"p201", transpose({2, 0, 1}), {{3, 130, 17}}},
      {"p102", transpose({1, 0, 2}), {{3, 130, 17}}},
      {"p021", transpose({0, 2, 1}), {{3, 130, 17}}},
      {"p0231", transpose({0, 2, 3, 1}), {{2, 3, 17, 5}}},
      {"p120", transpose({1, 2, 0}), {{5, 7, 33}}},
      {"big", nodeOf("Transpose"), {{2049, 2047}}, true},
      {"axis0", axis("Concat", 0), {{17, 33}, {5, 33}}},
      {"axis1", axis("Concat", -1), {{3, 130}, {3, 17}, {3, 1}}},
      {"axis0", axis("Concat", 0), {{1}, {1}}},
      {"axis1", axis("Concat", 1), {{2, 7, 33}, {2, 1, 33}}},
      {"axis0", axis("Stack", 0), {{17}, {17}}},
      {"axis1", axis("Stack", 1), {{3, 130}, {3, 130}}},
      {"axis2", axis("Stack", -1), {{3, 130}, {3, 130}, {3, 130}}},
      {"axis0", axis("Stack", 0), {{1}}},
      {"step2", slice({0}, {1}, {129}, {2}), {{130}}},
      {"steps", slice({0, 1}, {0, 5}, {17, 120}, {3, 7}), {{17, 130}}},
      {"reversed", slice({0}, {128}, {-1}, {-1}), {{129}}},
      {"rowsback", slice({0, 1}, {16, 1}, {-1, 129}, {-5, 1}), {{17, 129}}},
      {"one", slice({1}, {3}, {4}, {1}), {{3, 130}}},
      {"hw33", nodeOf("SlidingWindowView", {{"window_shape", Ints{3, 3}}, {"axes", Ints{1, 2}}}), {{2, 7, 9, 5}}},
      {"every", nodeOf("SlidingWindowView", {{"window_shape", Ints{2, 4}}}), {{6, 33}}},
      {"last", nodeOf("SlidingWindowView", {{"window_shape", Ints{4}}, {"axes", Ints{-1}}}), {{3, 130}}},
      {"scalar", to({17, 130}), {{1}}},
      {"row", to({3, 130}), {{130}}},
      {"column", to({17, 129}), {{17, 1}}},
      {"one", to({1, 1}), {{1, 1}}},
      {"inner", to({2, 3, 17}), {{2, 1, 17}}},
      {"", nodeOf("Reshape", {{"shape", Ints{130, 3}}}), {{3, 130}}},
      {"", nodeOf("Reshape", {{"shape", Ints{-1}}}), {{1, 1}}},
      {"", nodeOf("ExpandDims", {{"axes", Ints{0}}}), {{17}}},
      {"", nodeOf("ExpandDims", {{"axes", Ints{1, 3}}}), {{3, 130}}},
      {"", nodeOf("Squeeze"), {{1, 17, 1}}},
      {"", nodeOf("Squeeze", {{"axes", Ints{0}}}), {{1, 1}}},
      {"", nodeOf("Identity"), {{129, 129}}},
      {"", nodeOf("Identity"), {{1}}},
      {"big", axis("Concat", 1), {{2048, 1024}, {2048, 1025}}, true},
  });
}

std::vector<FamilyCase> nnCases() {
  auto axis = [](const std::string& op, int64_t a) { return nodeOf(op, {{"axis", a}}); };
  std::vector<Spec> specs;
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    for (const Ints& shape : Shapes{{1}, {17}, {3, 130}, {129, 129}}) specs.push_back({"", nodeOf(op), {shape}});
    specs.push_back({"axis0", axis(op, 0), {{17, 33}}});
    specs.push_back({"axis1", axis(op, 1), {{2, 7, 33}}});
  }
  auto ln = nodeOf("LayerNorm");
  specs.insert(specs.end(), {
                                {"", ln, {{1}, {1}, {1}}},
                                {"", ln, {{3, 130}, {130}, {130}}},
                                {"", ln, {{129, 129}, {129}, {1}}},
                                {"fullgamma", ln, {{2, 7, 33}, {7, 33}, {33}}},
                                {"nchw", nodeOf("BatchNorm"), {{2, 3, 5, 7}, {3}, {3}, {3}, {3}}},
                                {"nc", nodeOf("BatchNorm"), {{4, 130}, {130}, {130}, {130}, {130}}},
                                {"nhwc", axis("BatchNorm", 3), {{2, 5, 7, 17}, {17}, {17}, {17}, {17}}},
                                {"one", nodeOf("BatchNorm"), {{1, 1}, {1}, {1}, {1}, {1}}},
                                {"big", nodeOf("Softmax"), {{2048, 2049}}, true},
                            });
  return expand(specs);
}

std::vector<double> reference(const graph::Node& node, const Shapes& shapes, const std::vector<std::vector<double>>& in) {
  const std::string& op = node.op;
  if (op == "MatMul") return ops::matmulReference(shapes[0], in[0], shapes[1], in[1]);
  if (op == "FusedMatMul") {  // the product, its bias row, max(·, 0)
    std::vector<double> y = ops::matmulReference(shapes[0], in[0], shapes[1], in[1]);
    for (size_t i = 0; i < y.size(); ++i) {
      if (node.boolAttr("bias")) y[i] += in[2][i % in[2].size()];
      if (node.boolAttr("relu")) y[i] = std::max(y[i], 0.0);
    }
    return y;
  }
  if (op == "Einsum") return ops::einsumReference(node.stringAttr("equation"), shapes, in);
  if (op == "TensorDot") {
    ops::ContractionLabels l = ops::tensordotLabels(static_cast<int>(shapes[0].size()), static_cast<int>(shapes[1].size()),
                                                    node.intListAttr("axes_a"), node.intListAttr("axes_b"));
    return ops::einsumReference(l.equation(), shapes, in);
  }
  if (op == "Transpose") return ops::transposeReference(node, shapes[0], in[0]);
  if (op == "Slice") return ops::sliceReference(node, shapes[0], in[0]);
  if (op == "SlidingWindowView") return ops::slidingWindowReference(node, shapes[0], in[0]);
  if (op == "BroadcastTo") return ops::broadcastToReference(node, shapes[0], in[0]);
  if (op == "Concat" || op == "Stack") return ops::concatReference(node, shapes, in);
  if (op == "Reshape" || op == "ExpandDims" || op == "Squeeze" || op == "Identity") return in[0];
  return ops::nnReference(node, shapes, in);
}

class FamilyTable : public ::testing::TestWithParam<FamilyCase> {};

TEST_P(FamilyTable, MatchesFloat64Reference) {
  const FamilyCase& c = GetParam();
  graph::Node node = c.node;
  LegacyRandom gen(17);
  std::vector<NpyArray> inputs;
  std::vector<std::vector<double>> values;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    bool variance = node.op == "BatchNorm" && i == 2;  // must be positive
    inputs.push_back(uniformArray(c.dtype, c.shapes[i], gen, variance ? 0.5 : -2.0, 2.0));
    values.push_back(arrayValues(inputs.back()));
  }
  NpyArray got;
  ASSERT_NO_FATAL_FAILURE(pyasc::testing::runAlone(node, inputs, "ascend910b", got));
  ArrayError err = compareArrays(got, pyasc::testing::float64Array(got.shape, reference(node, c.shapes, values)));
  EXPECT_FALSE(err.sizesDiffer);
  // data movement is exact
  bool exact = registry::OpRegistry::builtin().find(node.op)->category == registry::OpCategory::DataMovement;
  EXPECT_LE(err.relative, exact ? 0 : pyasc::testing::tolerance(c.dtype)) << "max abs " << err.maxAbs;
}

INSTANTIATE_TEST_SUITE_P(Matmul, FamilyTable, ::testing::ValuesIn(matmulCases()), familyName);
INSTANTIATE_TEST_SUITE_P(DataMovement, FamilyTable, ::testing::ValuesIn(movementCases()), familyName);
INSTANTIATE_TEST_SUITE_P(NN, FamilyTable, ::testing::ValuesIn(nnCases()), familyName);

// Operators checked by the tables of OperatorTableTest.cpp besides the elementwise ones, and those
// without a table, with the reason.
const std::set<std::string> kTabledElsewhere = {
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceAll", "ReduceAny", "ReduceVar",
    "ReduceStd", "ArgMax",     "ArgMin",    "Pad",       "Gather",     "MaxPool2D", "AvgPool2D"};
const std::map<std::string, std::string> kNotTabled = {
    {"SliceUpdate", "an assignment, not an expression: CopyKernelTest and tests/e2e/programs/inplace_update.py"},
    {"Fill", "a compile-time constant, no kernel"},
    {"Range", "a compile-time constant, no kernel"},
    {"Conv2D", "ConvKernelTest and the conv e2e programs"},
    {"FusedConv2D", "made by fuse-conv-epilogue: tests/lit/passes/fuse-conv-epilogue.graph, ConvKernelTest, examples/resnet50.py"},
    {"Compute", "reached through te.compute definitions: ComputeTest and tests/lit/sdk/te-compute.test"},
};

TEST(FamilyTable, EveryBuiltinOperatorHasATable) {
  std::set<std::string> tabled(kTabledElsewhere);
  for (const std::string& op : ops::elementwiseOpNames()) tabled.insert(op);
  for (const auto& cases : {matmulCases(), movementCases(), nnCases()})
    for (const FamilyCase& c : cases) tabled.insert(c.node.op);
  for (const std::string& op : registry::OpRegistry::builtin().opNames()) {
    EXPECT_TRUE(tabled.count(op) || kNotTabled.count(op)) << op << " has no table-driven test";
  }
}

}  // namespace
