// Registry inference: broadcasting (with symbolic dims), matmul rules, reductions, data movement.
#include <gtest/gtest.h>

#include "registry/OpRegistry.h"
#include "registry/ShapeInference.h"

using namespace pyasc;
using namespace pyasc::graph;
using namespace pyasc::registry;

namespace {

TensorType f32(std::vector<int64_t> dims) { return TensorType{DType::Float32, knownShape(dims), Layout::ND, true}; }

// The inferred type as text, or "error: <message>".
std::string infer(const std::string& op, std::vector<TensorType> inputs, std::vector<NamedAttr> attrs = {}) {
  const OpRegistry& r = OpRegistry::builtin();
  Node node;
  node.op = op;
  node.attrs = std::move(attrs);
  std::string error = r.completeAttrs(node);
  if (!error.empty()) return "error: " + error;
  std::vector<TensorType> outputs;
  if (!r.infer(node, inputs, outputs, error)) return "error: " + error;
  return outputs.at(0).str();
}

}  // namespace

TEST(ShapeInference, Broadcasting) {
  EXPECT_EQ(infer("Add", {f32({3, 1, 5}), f32({4, 1})}), "f32[3,4,5]");
  EXPECT_EQ(infer("Add", {f32({}), f32({2, 2})}), "f32[2,2]");
  EXPECT_EQ(infer("Add", {f32({3, 4}), f32({5})}), "error: operands could not be broadcast together with shapes (3, 4) (5,)");
  TensorType sym{DType::Float32, {Dim::symbolic("N"), Dim::known(4)}, Layout::ND, true};
  EXPECT_EQ(infer("Mul", {sym, f32({1, 4})}), "f32[N,4]");
  EXPECT_EQ(infer("Mul", {sym, f32({7, 4})}), "f32[7,4]");
  EXPECT_EQ(infer("Less", {f32({2}), f32({2})}), "b8[2]");
  EXPECT_EQ(infer("Where", {TensorType{DType::Bool, knownShape({4, 1}), Layout::ND, true}, f32({1, 3}), f32({})}), "f32[4,3]");
}

TEST(ShapeInference, UnrankedOperandsStayUnranked) {
  TensorType any{DType::Float16, {}, Layout::ND, false};
  EXPECT_EQ(infer("Add", {any, f32({})}), "f32[*]");
  EXPECT_EQ(infer("MatMul", {any, f32({2, 2})}),
            "error: MatMul needs the rank of operand 0 (f16[*]); declare its shape, e.g. Tensor[float32, 64, 128]");
}

TEST(ShapeInference, MatMulFollowsNumPy) {
  EXPECT_EQ(infer("MatMul", {f32({2, 3}), f32({3, 4})}), "f32[2,4]");
  EXPECT_EQ(infer("MatMul", {f32({5, 1, 2, 3}), f32({7, 3, 4})}), "f32[5,7,2,4]");
  EXPECT_EQ(infer("MatMul", {f32({3}), f32({3, 4})}), "f32[4]");
  EXPECT_EQ(infer("MatMul", {f32({2, 3}), f32({3})}), "f32[2]");
  EXPECT_EQ(infer("MatMul", {f32({3}), f32({3})}), "f32[]");
  EXPECT_EQ(infer("MatMul", {f32({2, 3}), f32({4, 5})}), "error: shapes (2, 3) and (4, 5) not aligned: 3 (dim 1) != 4 (dim 0)");
  EXPECT_EQ(infer("MatMul", {f32({}), f32({2})}), "error: matmul: input operand 0 does not have enough dimensions (has 0)");
  EXPECT_EQ(infer("TensorDot", {f32({2, 3, 4}), f32({3, 4, 5})}, {{"axes_a", std::vector<int64_t>{1, 2}}, {"axes_b", std::vector<int64_t>{0, 1}}}),
            "f32[2,5]");
  EXPECT_EQ(infer("Einsum", {f32({2, 3}), f32({3, 4})}, {{"equation", std::string("ij,jk->ki")}}), "f32[4,2]");
  EXPECT_EQ(infer("Einsum", {f32({2, 3}), f32({3, 4})}, {{"equation", std::string("ij,jk")}}), "f32[2,4]");
}

TEST(ShapeInference, Reductions) {
  EXPECT_EQ(infer("ReduceSum", {f32({2, 3, 4})}, {{"axes", std::vector<int64_t>{0, -1}}}), "f32[3]");
  EXPECT_EQ(infer("ReduceSum", {f32({2, 3, 4})}, {{"axes", std::vector<int64_t>{1}}, {"keepdims", true}}), "f32[2,1,4]");
  EXPECT_EQ(infer("ReduceMax", {f32({2, 3})}), "f32[]");
  EXPECT_EQ(infer("ReduceSum", {TensorType{DType::Int32, knownShape({4}), Layout::ND, true}}), "s64[]");
  EXPECT_EQ(infer("ReduceMean", {TensorType{DType::Int32, knownShape({4}), Layout::ND, true}}), "f64[]");
  EXPECT_EQ(infer("ArgMax", {f32({2, 3})}, {{"axis", int64_t{1}}}), "s64[2]");
  EXPECT_EQ(infer("ReduceSum", {f32({2, 3})}, {{"axes", std::vector<int64_t>{2}}}),
            "error: axis 2 is out of bounds for array of dimension 2");
}

TEST(ShapeInference, DataMovement) {
  EXPECT_EQ(infer("Reshape", {f32({2, 3, 4})}, {{"shape", std::vector<int64_t>{4, -1}}}), "f32[4,6]");
  EXPECT_EQ(infer("Reshape", {f32({2, 3})}, {{"shape", std::vector<int64_t>{4, 2}}}),
            "error: cannot reshape array of size 6 into shape (4, 2)");
  EXPECT_EQ(infer("Transpose", {f32({2, 3, 4})}), "f32[4,3,2]");
  EXPECT_EQ(infer("Transpose", {f32({2, 3, 4})}, {{"perm", std::vector<int64_t>{1, 2, 0}}}), "f32[3,4,2]");
  EXPECT_EQ(infer("Concat", {f32({2, 3}), f32({5, 3})}), "f32[7,3]");
  EXPECT_EQ(infer("Stack", {f32({2, 3}), f32({2, 3})}, {{"axis", int64_t{-1}}}), "f32[2,3,2]");
  EXPECT_EQ(infer("ExpandDims", {f32({2, 3})}, {{"axes", std::vector<int64_t>{0, 3}}}), "f32[1,2,3,1]");
  EXPECT_EQ(infer("Squeeze", {f32({1, 2, 1})}), "f32[2]");
  EXPECT_EQ(infer("BroadcastTo", {f32({3})}, {{"shape", std::vector<int64_t>{2, 3}}}), "f32[2,3]");
  EXPECT_EQ(infer("BroadcastTo", {f32({3})}, {{"shape", std::vector<int64_t>{2, 4}}}),
            "error: cannot broadcast shape (3,) to shape (2, 4)");
}

TEST(ShapeInference, SlicesAndSliceLengths) {
  EXPECT_EQ(sliceLength(0, 10, 3), 4);
  EXPECT_EQ(sliceLength(9, -1, -1), 10);
  EXPECT_EQ(sliceLength(7, 1, -2), 3);
  EXPECT_EQ(sliceLength(5, 2, 1), 0);
  std::vector<NamedAttr> attrs = {{"axes", std::vector<int64_t>{1}}, {"begin", std::vector<int64_t>{1}},
                                  {"end", std::vector<int64_t>{9}}, {"step", std::vector<int64_t>{2}}};
  EXPECT_EQ(infer("Slice", {f32({3, 10})}, attrs), "f32[3,4]");
  attrs.push_back({"dynamic_axes", std::vector<int64_t>{1}});
  EXPECT_EQ(infer("Slice", {f32({3, 10}), TensorType{DType::Int32, {}, Layout::ND, true}}, attrs), "f32[3,4]");
  EXPECT_EQ(infer("SliceUpdate", {f32({3, 10}), f32({3, 4}), TensorType{DType::Int32, {}, Layout::ND, true}}, attrs),
            "f32[3,10]");
}

TEST(ShapeInference, CreationAndAttributes) {
  EXPECT_EQ(infer("Range", {}, {{"start", 0.0}, {"stop", 10.0}, {"step", 3.0}, {"dtype", std::string("int32")}}), "s32[4]");
  EXPECT_EQ(infer("Fill", {}, {{"shape", std::vector<int64_t>{2, 2}}, {"value", int64_t{1}}, {"dtype", std::string("float16")}}),
            "f16[2,2]");
  EXPECT_EQ(infer("Fill", {}, {{"shape", std::vector<int64_t>{2}}}), "error: Fill needs the attribute 'value'");
  EXPECT_EQ(infer("Add", {f32({2}), f32({2})}, {{"axis", int64_t{0}}}), "error: Add has no attribute 'axis'");
  EXPECT_EQ(infer("Cast", {f32({2})}, {{"dtype", int64_t{3}}}), "error: Cast attribute 'dtype' must be string, found int");
}

TEST(Registry, DescribeListsOperandsAttributesAndSpellings) {
  const std::string text = OpRegistry::builtin().describe("ReduceSum");
  EXPECT_NE(text.find("ReduceSum (reduce): sum over axes"), std::string::npos);
  EXPECT_NE(text.find("attr keepdims: bool = false"), std::string::npos);
  EXPECT_NE(text.find("np.sum"), std::string::npos);
  EXPECT_NE(text.find("ndarray.sum"), std::string::npos);
  EXPECT_EQ(OpRegistry::builtin().findAlias("@", AliasForm::Operator)->op, "MatMul");
  EXPECT_EQ(OpRegistry::builtin().findAlias("maximum", AliasForm::Function)->op, "Maximum");
}
