// Table-driven checks generated from the registry: every elementwise operator ops/ lowers, for
// float16 and float32, over shapes with and without broadcasting, the reductions, and the
// operators that rearrange or window their input (pad, gather, pooling), each compiled through the
// whole pipeline, run on the simulator with the sanitizer, and compared with its float64 reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <tuple>

#include "ops/DataMovement.h"
#include "ops/Elementwise.h"
#include "ops/Pooling.h"
#include "ops/Reduce.h"
#include "tests/unit/codegen/OperatorTableSupport.h"

using namespace pyasc;
using pyasc::testing::float64Array;
using pyasc::testing::runAlone;

namespace {

struct Case {
  std::string op;
  std::vector<DType> dtypes;                 // one per input
  std::vector<std::vector<int64_t>> shapes;  // one per input
  std::string castTo;                        // Cast: the target dtype
};

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  std::string s = c.op + "_" + dtypeShortName(c.dtypes.back());
  if (!c.castTo.empty()) s += "_to_" + c.castTo;
  for (const auto& shape : c.shapes) {
    s += "_";
    for (int64_t d : shape) s += std::to_string(d) + "x";
  }
  return s;
}

// gtest prints parameters into the ctest names: the case's name, not its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << caseName({c, 0}); }

// Inputs inside each operator's domain and away from its singularities: log, sqrt and division
// need positive values, asin, acos and atanh (-1, 1), acosh values from 1; atan crosses its range
// reductions at tan(π/8) and tan(3π/8); integers in ±1000.
std::pair<double, double> inputRange(const std::string& op, DType t) {
  static const std::set<std::string> positive = {"Log", "Log2", "Log10", "Log1p", "Sqrt", "Reciprocal", "Div", "Pow"};
  if (t == DType::Int32) return {-10.0, 10.0};  // uniformArray scales integers by 100
  if (positive.count(op)) return {0.5, 2.0};
  if (op == "Asin" || op == "Acos") return {-1.0, 1.0};
  if (op == "Atan") return {-6.0, 6.0};
  if (op == "Atanh") return {-0.99, 0.99};
  if (op == "Acosh") return {1.0, 3.0};
  return {-2.0, 2.0};
}

// Whether the registry infers `op` over operands of `t` to a result the NPU computes (NumPy's
// float64 results of integers are the frontend's float32 casts, not the operator's).
bool computesIn(const std::string& op, DType t) {
  const auto& registry = registry::OpRegistry::builtin();
  const registry::OpEntry* e = registry.find(op);
  graph::Node node;
  node.op = op;
  if (!e || !registry.completeAttrs(node).empty()) return false;
  std::vector<graph::TensorType> in(e->inputs.size(), graph::TensorType{t, graph::knownShape({4}), graph::Layout::ND});
  std::vector<graph::TensorType> out;
  std::string error;
  return registry.infer(node, in, out, error) && out[0].dtype != DType::Float64;
}

// Every elementwise operator ops/ lowers, for each dtype the registry accepts and the vector unit
// computes: float16 and float32; int32 (the bitwise operators on the scalar unit; not a power, whose
// exponent must be a constant, an integer reciprocal, nor the shifts, whose int64 references do not
// wrap to int32: the e2e program integer_bitwise.py covers them); booleans for the logical and
// bitwise ones. Cast to each of the other dtypes; Where with a boolean condition.
std::vector<Case> cases() {
  using Shapes = std::vector<std::vector<int64_t>>;
  const auto& registry = registry::OpRegistry::builtin();
  std::vector<Case> out;
  for (const std::string& op : ops::elementwiseOpNames()) {
    const registry::OpEntry* e = registry.find(op);
    if (!e || op == "Cast" || op == "Where") continue;
    size_t arity = e->inputs.size();
    bool logical = op.rfind("Logical", 0) == 0 || op.rfind("Bitwise", 0) == 0 || op == "Invert";
    std::vector<DType> dtypes;
    for (DType t : {DType::Float16, DType::Float32, DType::Int32, DType::Bool}) {
      bool excluded = (t == DType::Int32 && (op == "Pow" || op == "Reciprocal" || op == "LeftShift" || op == "RightShift")) ||
                      (t == DType::Bool && !logical);
      if (!excluded && computesIn(op, t)) dtypes.push_back(t);
    }
    for (DType t : dtypes) {
      std::vector<DType> types(arity, t);
      for (const auto& shape : Shapes{{1}, {17}, {3, 130}, {129, 129}}) out.push_back(Case{op, types, Shapes(arity, shape), ""});
      if (arity == 2) out.push_back(Case{op, types, {{6, 33}, {33}}, ""});   // a row broadcast
      if (arity == 2) out.push_back(Case{op, types, {{5, 1}, {1, 40}}, ""});  // both sides broadcast
    }
  }
  const std::vector<DType> all = {DType::Float16, DType::Float32, DType::Int32, DType::Bool};
  for (DType from : all)
    for (DType to : all)
      if (from != to) out.push_back(Case{"Cast", {from}, {{3, 130}}, dtypeName(to)});
  for (DType t : {DType::Float16, DType::Float32, DType::Int32}) {
    out.push_back(Case{"Where", {DType::Bool, t, t}, Shapes(3, {3, 130}), ""});
    out.push_back(Case{"Where", {DType::Bool, t, t}, {{5, 1}, {1, 40}, {1}}, ""});
  }
  out.push_back(Case{"Add", {DType::Float16, DType::Float16}, {{4 << 20}, {4 << 20}}, ""});  // ≥ 4M elements, every core
  return out;
}

class OperatorTable : public ::testing::TestWithParam<Case> {};

TEST_P(OperatorTable, MatchesFloat64Reference) {
  const Case& c = GetParam();
  graph::Node node;
  node.op = c.op;
  if (!c.castTo.empty()) node.setAttr("dtype", c.castTo);
  LegacyRandom gen(7);
  std::vector<NpyArray> inputs;
  std::vector<std::vector<double>> values;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    auto [lo, hi] = inputRange(c.op, c.dtypes[i]);
    inputs.push_back(uniformArray(c.dtypes[i], c.shapes[i], gen, lo, hi));
    if (c.dtypes[i] == DType::Int32 && i == 1 && (c.op == "FloorDiv" || c.op == "Mod")) {
      // divisors of 0 have no NumPy value
      for (size_t k = 0; k < inputs.back().data.size(); k += 4)
        if (std::memcmp(&inputs.back().data[k], "\0\0\0\0", 4) == 0) inputs.back().data[k] = 7;
    }
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
    // (~ on booleans is logical not, whose reference the int64 ~ is not)
    graph::Node reference = node;
    if (node.op == "Invert" && c.dtypes[0] == DType::Bool) reference.op = "LogicalNot";
    want[static_cast<size_t>(k)] = ops::elementwiseReference(reference, args);
  }
  ArrayError err = compareArrays(got, float64Array(outShape, want));
  double tol = pyasc::testing::tolerance(got.dtype);
  EXPECT_FALSE(err.sizesDiffer);
  EXPECT_LE(err.relative, tol) << "max abs " << err.maxAbs;
}

INSTANTIATE_TEST_SUITE_P(Registry, OperatorTable, ::testing::ValuesIn(cases()), caseName);

// int32 floor division and remainder exact over the whole range, where float32 quotients are not.
TEST(IntegerFloorDivide, ExactOverInt32) {
  const std::vector<int64_t> as = {2147483647, -2147483647, 2147483646, 16777217, -16777219, 123456789, -987654321,
                                   0,          1,           -1,         7,        -7,        1000,      -999};
  const std::vector<int64_t> bs = {1, -1, 2, -2, 3, 7, -7, 65536, -65537, 16777217, 2147483647, -2147483647, 1000003};
  std::vector<int32_t> a, b;
  for (int64_t x : as)
    for (int64_t y : bs) {
      a.push_back(static_cast<int32_t>(x));
      b.push_back(static_cast<int32_t>(y));
    }
  auto array = [](const std::vector<int32_t>& v) {
    NpyArray n;
    n.dtype = DType::Int32;
    n.shape = {static_cast<int64_t>(v.size())};
    n.data.resize(v.size() * 4);
    std::memcpy(n.data.data(), v.data(), n.data.size());
    return n;
  };
  for (const char* op : {"FloorDiv", "Mod"}) {
    graph::Node node;
    node.op = op;
    NpyArray got;
    ASSERT_NO_FATAL_FAILURE(runAlone(node, {array(a), array(b)}, "ascend910b", got));
    std::vector<double> y = arrayValues(got);
    for (size_t i = 0; i < a.size(); ++i) {
      int64_t q = a[i] / b[i];
      if ((a[i] % b[i] != 0) && ((a[i] < 0) != (b[i] < 0))) --q;
      int64_t want = std::string(op) == "FloorDiv" ? q : a[i] - q * b[i];
      EXPECT_EQ(y[i], static_cast<double>(want)) << a[i] << " " << op << " " << b[i];
    }
  }
}

// asin, acos and atan in float32 over a dense grid of their domain (atan also far out, at ±∞ and
// NaN): every element within 1e-5 of the float64 value, relative.
TEST(InverseTrigonometry, Float32WithinOneInHundredThousandEverywhere) {
  for (const char* op : {"Asin", "Acos", "Atan"}) {
    std::vector<float> x;
    const double span = std::string(op) == "Atan" ? 12.0 : 1.0;
    for (int i = -8192; i <= 8192; ++i) x.push_back(static_cast<float>(span * i / 8192.0));
    for (float v : {1e-30f, 3e-8f, 0.49999997f, 0.50000006f, 0.99999994f}) {
      x.push_back(v);
      x.push_back(-v);
    }
    if (std::string(op) == "Atan") {
      for (float v : {0.41421354f, 0.41421357f, 2.4142134f, 2.4142137f, 1e6f, 1e30f, INFINITY, NAN}) {
        x.push_back(v);
        x.push_back(-v);
      }
    }
    NpyArray in;
    in.dtype = DType::Float32;
    in.shape = {static_cast<int64_t>(x.size())};
    in.data.resize(x.size() * 4);
    std::memcpy(in.data.data(), x.data(), in.data.size());
    graph::Node node;
    node.op = op;
    NpyArray got;
    ASSERT_NO_FATAL_FAILURE(runAlone(node, {in}, "ascend910b", got));
    std::vector<double> y = arrayValues(got);
    for (size_t i = 0; i < x.size(); ++i) {
      double want = ops::elementwiseReference(node, {x[i]});
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(y[i])) << op << "(" << x[i] << ") = " << y[i];
      } else {
        EXPECT_LE(std::fabs(y[i] - want), 1e-5 * std::fabs(want)) << op << "(" << x[i] << ") = " << y[i] << ", not " << want;
      }
    }
  }
}

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
  // every reduction with a lowering, for the dtypes it takes: int32 sums (to int64), maxima, minima
  // and arg-reductions; booleans counted, their maxima and minima; all/any of int32 values with zeros
  const std::vector<DType> floats = {DType::Float16, DType::Float32};
  const std::vector<DType> withInt = {DType::Float16, DType::Float32, DType::Int32};
  const std::vector<DType> withBool = {DType::Float16, DType::Float32, DType::Int32, DType::Bool};
  const std::vector<std::pair<const char*, std::vector<DType>>> ops = {
      {"ReduceSum", withBool}, {"ReduceMean", floats},  {"ReduceMax", withBool}, {"ReduceMin", withBool},
      {"ReduceProd", floats}, {"ReduceVar", floats},   {"ReduceStd", floats},  {"ReduceAll", {DType::Int32}},
      {"ReduceAny", {DType::Int32}}, {"ArgMax", withInt}, {"ArgMin", withInt}};
  std::vector<ReduceCase> out;
  for (const auto& [op, dtypes] : ops) {
    for (DType t : dtypes) {
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
  // rows longer than one repeat stride (folded in place first) and ≥ 4M elements over every core
  out.push_back(ReduceCase{"ReduceProd", DType::Float16, {3, 4100}, -1});
  out.push_back(ReduceCase{"ReduceProd", DType::Float32, {3, 2100}, -1});
  out.push_back(ReduceCase{"ReduceSum", DType::Int32, {5, 3000}, -1});
  out.push_back(ReduceCase{"ReduceSum", DType::Float32, {2048, 2049}, -1});
  return out;
}

class ReductionTable : public ::testing::TestWithParam<ReduceCase> {};

// Inputs: away from zero for floats (products in a narrow band around 1 so that they stay finite),
// integers in ±1000, all/any over integers of which about half are zero (uniformArray scales
// integers by 100).
NpyArray reductionInput(const ReduceCase& c, LegacyRandom& gen) {
  if (c.op == "ReduceAll" || c.op == "ReduceAny") return uniformArray(c.dtype, c.shape, gen, -0.01, 0.03);
  if (c.dtype == DType::Int32) return uniformArray(c.dtype, c.shape, gen, -10, 10);
  if (c.op == "ReduceProd") return uniformArray(c.dtype, c.shape, gen, 0.95, 1.05);
  return uniformArray(c.dtype, c.shape, gen, 0.25, 2.0);
}

TEST_P(ReductionTable, MatchesFloat64Reference) {
  const ReduceCase& c = GetParam();
  bool arg = c.op.rfind("Arg", 0) == 0;
  graph::Node node;
  node.op = c.op;
  int64_t rank = static_cast<int64_t>(c.shape.size());
  int64_t axis = c.axis == -1 ? rank - 1 : c.axis;
  if (c.axis != -2) node.setAttr(arg ? "axis" : "axes", arg ? graph::Attribute{axis} : graph::Attribute{std::vector<int64_t>{axis}});
  LegacyRandom gen(11);
  NpyArray a = reductionInput(c, gen);
  std::vector<double> v = arrayValues(a);
  NpyArray got;
  ASSERT_NO_FATAL_FAILURE(runAlone(node, {a}, "ascend310", got));
  ArrayError err = compareArrays(got, float64Array(got.shape, ops::reduceReference(node, c.shape, v)));
  EXPECT_FALSE(err.sizesDiffer);
  EXPECT_LE(err.relative, arg ? 0 : pyasc::testing::tolerance(got.dtype)) << "max abs " << err.maxAbs;
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

// A constant converts to an integer type as the vector unit converts an array: toward zero,
// saturating at the type's bounds, NaN to 0 (a float constant 1e30 cast to int32 was undefined).
TEST(CastConstant, SaturatesAsTheVectorUnit) {
  auto cast = [](double v, DType to) { return ops::castTo(te::constant(v, DType::Float32), to)->value; };
  EXPECT_EQ(cast(1e30, DType::Int32), 2147483647.0);
  EXPECT_EQ(cast(-1e30, DType::Int32), -2147483648.0);
  EXPECT_EQ(cast(std::nan(""), DType::Int32), 0.0);
  EXPECT_EQ(cast(3.7, DType::Int32), 3.0);
  EXPECT_EQ(cast(-3.7, DType::Int32), -3.0);
  EXPECT_EQ(cast(300.0, DType::UInt8), 255.0);
  EXPECT_EQ(cast(-5.0, DType::UInt8), 0.0);
  EXPECT_EQ(cast(1e30, DType::Int64), 9223372036854775807.0);
  EXPECT_EQ(cast(-1e30, DType::Int64), -9223372036854775808.0);
  EXPECT_EQ(cast(1e30, DType::Float16), 1e30);  // a float target keeps the value
}

}  // namespace
