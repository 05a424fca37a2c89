// Cube-unit operators: matmul with NumPy's batching rules, tensordot and einsum.
#include <algorithm>
#include <cctype>
#include <map>

#include "registry/BuiltinOps.h"
#include "registry/EntryBuilders.h"
#include "registry/Promotion.h"
#include "registry/ShapeInference.h"

namespace pyasc::registry {

namespace {

using graph::Dim;
using graph::Shape;
using graph::TensorType;

bool sameExtent(const Dim& a, const Dim& b) { return a == b || !a.isKnown() || !b.isKnown(); }

bool inferMatMul(InferContext& ctx) {
  const TensorType& a = ctx.inputs[0];
  const TensorType& b = ctx.inputs[1];
  for (int i = 0; i < 2; ++i) {
    if (ctx.inputs[static_cast<size_t>(i)].rank() == 0) {
      return ctx.fail("matmul: input operand " + std::to_string(i) + " does not have enough dimensions (has 0)");
    }
  }
  Shape sa = a.shape, sb = b.shape;
  const bool vecA = sa.size() == 1, vecB = sb.size() == 1;
  if (vecA) sa.insert(sa.begin(), Dim::known(1));
  if (vecB) sb.push_back(Dim::known(1));
  const Dim& ka = sa[sa.size() - 1];
  const Dim& kb = sb[sb.size() - 2];
  if (!sameExtent(ka, kb)) {
    return ctx.fail("shapes " + numpyShape(a.shape) + " and " + numpyShape(b.shape) + " not aligned: " + ka.str() +
                    " (dim " + std::to_string(a.rank() - 1) + ") != " + kb.str() + " (dim " +
                    std::to_string(std::max(0, b.rank() - 2)) + ")");
  }
  Shape batch;
  const Shape batchA(sa.begin(), sa.end() - 2), batchB(sb.begin(), sb.end() - 2);
  if (!broadcastShapes(batchA, batchB, batch)) {
    return ctx.fail("matmul: batch dimensions " + numpyShape(batchA) + " and " + numpyShape(batchB) +
                    " could not be broadcast together");
  }
  TensorType out;
  out.dtype = cubeResultDType(ctx, promoteTypes(a.dtype, b.dtype));
  out.shape = batch;
  if (!vecA) out.shape.push_back(sa[sa.size() - 2]);
  if (!vecB) out.shape.push_back(sb[sb.size() - 1]);
  ctx.outputs.push_back(out);
  return true;
}

// FusedMatMul(a, b, [bias]): a matmul of a 2-d b whose kernel adds a bias row (when `bias`;
// float32, or the result's type) and applies ReLU (when `relu`) before writing; the result is
// float16 or float32.
bool inferFusedMatMul(InferContext& ctx) {
  const bool bias = ctx.node.boolAttr("bias");
  const size_t expected = 2 + (bias ? 1 : 0);
  if (ctx.inputs.size() != expected)
    return ctx.fail("a fused matmul with these attributes takes " + std::to_string(expected) + " operands, found " +
                    std::to_string(ctx.inputs.size()));
  if (ctx.inputs[1].rank() != 2) return ctx.fail("a fused matmul's b is a matrix, got " + ctx.inputs[1].str());
  if (!inferMatMul(ctx)) return false;
  const TensorType& y = ctx.outputs.back();
  if (y.dtype != DType::Float16 && y.dtype != DType::Float32)
    return ctx.fail("a fused matmul's result is float16 or float32, got " + y.str());
  const TensorType& b = ctx.inputs.back();
  if (bias && ((b.dtype != DType::Float32 && b.dtype != y.dtype) || b.rank() != 1 || b.shape[0] != y.shape.back()))
    return ctx.fail("a fused matmul's bias is a float32 vector, or one of its result's type, of its result's columns, got " +
                    b.str());
  return true;
}

bool inferTensorDot(InferContext& ctx) {
  const TensorType& a = ctx.inputs[0];
  const TensorType& b = ctx.inputs[1];
  std::vector<int64_t> axesA = ctx.node.intListAttr("axes_a"), axesB = ctx.node.intListAttr("axes_b");
  if (axesA.size() != axesB.size()) return ctx.fail("tensordot: axes_a and axes_b must have the same length");
  std::vector<bool> contractedA(static_cast<size_t>(a.rank())), contractedB(static_cast<size_t>(b.rank()));
  for (size_t i = 0; i < axesA.size(); ++i) {
    int64_t x, y;
    if (!normalizeAxis(axesA[i], a.rank(), x)) return ctx.fail(axisError(axesA[i], a.rank()));
    if (!normalizeAxis(axesB[i], b.rank(), y)) return ctx.fail(axisError(axesB[i], b.rank()));
    if (!sameExtent(a.shape[static_cast<size_t>(x)], b.shape[static_cast<size_t>(y)])) {
      return ctx.fail("tensordot: shape-mismatch for sum: axis " + std::to_string(x) + " of " + numpyShape(a.shape) +
                      " has " + a.shape[static_cast<size_t>(x)].str() + " elements, axis " + std::to_string(y) +
                      " of " + numpyShape(b.shape) + " has " + b.shape[static_cast<size_t>(y)].str());
    }
    contractedA[static_cast<size_t>(x)] = true;
    contractedB[static_cast<size_t>(y)] = true;
  }
  TensorType out;
  out.dtype = promoteTypes(a.dtype, b.dtype);
  for (int i = 0; i < a.rank(); ++i) {
    if (!contractedA[static_cast<size_t>(i)]) out.shape.push_back(a.shape[static_cast<size_t>(i)]);
  }
  for (int i = 0; i < b.rank(); ++i) {
    if (!contractedB[static_cast<size_t>(i)]) out.shape.push_back(b.shape[static_cast<size_t>(i)]);
  }
  ctx.outputs.push_back(out);
  return true;
}

// Einsum ("ij,jk->ik"): each label has one extent; the output lists labels, or without "->"
// NumPy's implicit output: the labels used once, in alphabetical order.
bool inferEinsum(InferContext& ctx) {
  const std::string equation = ctx.node.stringAttr("equation");
  const size_t arrow = equation.find("->");
  std::vector<std::string> terms;
  std::string term;
  for (char c : equation.substr(0, arrow)) {
    if (c == ',') {
      terms.push_back(term);
      term.clear();
    } else if (c != ' ') {
      term += c;
    }
  }
  terms.push_back(term);
  if (terms.size() != ctx.inputs.size()) {
    return ctx.fail("einsum: " + std::to_string(terms.size()) + " subscript term(s) for " +
                    std::to_string(ctx.inputs.size()) + " operand(s)");
  }
  if (ctx.inputs.empty()) return ctx.fail("einsum: at least one operand is required");
  std::map<char, Dim> extents;
  TensorType out;
  out.dtype = ctx.inputs[0].dtype;
  for (size_t i = 0; i < terms.size(); ++i) {
    const TensorType& in = ctx.inputs[i];
    out.dtype = promoteTypes(out.dtype, in.dtype);
    if (static_cast<int>(terms[i].size()) != in.rank()) {
      return ctx.fail("einsum: operand " + std::to_string(i) + " has " + std::to_string(in.rank()) +
                      " dimension(s) but subscripts '" + terms[i] + "'");
    }
    for (size_t d = 0; d < terms[i].size(); ++d) {
      const char label = terms[i][d];
      if (!std::isalpha(static_cast<unsigned char>(label))) {
        return ctx.fail(std::string("einsum: invalid subscript '") + label + "' (ellipsis is not supported)");
      }
      auto it = extents.find(label);
      if (it == extents.end()) {
        extents.emplace(label, in.shape[d]);
      } else if (!sameExtent(it->second, in.shape[d])) {
        return ctx.fail(std::string("einsum: subscript '") + label + "' has extent " + it->second.str() +
                        " in one operand and " + in.shape[d].str() + " in another");
      }
    }
  }
  std::string outputLabels;
  if (arrow != std::string::npos) {
    outputLabels = equation.substr(arrow + 2);
  } else {
    for (const auto& entry : extents) {
      if (std::count(equation.begin(), equation.end(), entry.first) == 1) outputLabels += entry.first;
    }
  }
  for (char label : outputLabels) {
    if (label == ' ') continue;
    auto it = extents.find(label);
    if (it == extents.end()) {
      return ctx.fail(std::string("einsum: output subscript '") + label + "' does not appear in the inputs");
    }
    out.shape.push_back(it->second);
  }
  ctx.outputs.push_back(out);
  return true;
}

}  // namespace

void registerCubeOps(OpRegistry& r) {
  {
    OpEntry e;
    e.name = "MatMul";
    e.category = OpCategory::Cube;
    e.summary = "matrix product with NumPy matmul broadcasting of batch dimensions";
    e.inputs = {operand("a", kNumericTypes | kBoolTypes), operand("b", kNumericTypes | kBoolTypes)};
    e.outputs = {operand("c")};
    e.attrs = {outDTypeAttr()};
    e.infer = inferMatMul;
    r.add(std::move(e));
    r.addAlias(functionAlias("matmul", "MatMul", {tensorParam("x1"), tensorParam("x2")}));
    r.addAlias(functionAlias("dot", "MatMul", {tensorParam("a"), tensorParam("b")}, {}, "N-d operands as NumPy: a sum over a's last axis and b's second to last (a tensordot when b has more than 2)"));
    r.addAlias(methodAlias("dot", "MatMul", {tensorParam("a"), tensorParam("b")}, {}, "N-d operands as NumPy: a sum over a's last axis and b's second to last (a tensordot when b has more than 2)"));
    r.addAlias(operatorAlias("@", "MatMul", 2));
    OpEntry fused;
    fused.name = "FusedMatMul";
    fused.category = OpCategory::Cube;
    fused.summary = "MatMul of a 2-d b whose kernel also adds a bias row and applies ReLU to its accumulator";
    fused.inputs = {operand("a", kFloatTypes), operand("b", kFloatTypes), variadicOperand("epilogue", kFloatTypes)};
    fused.outputs = {operand("c", kFloatTypes)};
    fused.attrs = {outDTypeAttr(), attrWithDefault("bias", false, "operand 3 is a row added to every row"),
                   attrWithDefault("relu", false, "max(result, 0) last")};
    fused.infer = inferFusedMatMul;
    r.add(std::move(fused));
  }
  {
    OpEntry e;
    e.name = "TensorDot";
    e.category = OpCategory::Cube;
    e.summary = "sum of products over the paired axes axes_a of a and axes_b of b";
    e.inputs = {operand("a", kNumericTypes), operand("b", kNumericTypes)};
    e.outputs = {operand("c", kNumericTypes)};
    e.attrs = {requiredAttr("axes_a", graph::AttrKind::IntList, "contracted axes of a"),
               requiredAttr("axes_b", graph::AttrKind::IntList, "contracted axes of b, paired with axes_a")};
    e.infer = inferTensorDot;
    r.add(std::move(e));
    r.addAlias(functionAlias("tensordot", "TensorDot",
                             {tensorParam("a"), tensorParam("b"), attrParam("axes", ParamKind::IntList, "axes", int64_t{2})},
                             {}, "axes as an int or a pair of int lists"));
  }
  {
    OpEntry e;
    e.name = "Einsum";
    e.category = OpCategory::Cube;
    e.summary = "Einstein summation";
    e.inputs = {variadicOperand("operands", kNumericTypes)};
    e.outputs = {operand("out", kNumericTypes)};
    e.attrs = {requiredAttr("equation", graph::AttrKind::String, "subscripts such as \"ij,jk->ik\"")};
    e.infer = inferEinsum;
    r.add(std::move(e));
    r.addAlias(functionAlias("einsum", "Einsum",
                             {attrParam("subscripts", ParamKind::String, "equation"), tensorVarargsParam("operands")},
                             {}, "no ellipsis"));
  }
}

}  // namespace pyasc::registry
