// Short constructors for the built-in entry tables: operands, attributes and NumPy parameters.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "registry/NumpyAlias.h"
#include "registry/OpEntry.h"

namespace pyasc::registry {

inline OperandSpec operand(std::string name, DTypeSet dtypes = kAllTypes) {
  return OperandSpec{std::move(name), dtypes, false};
}
inline OperandSpec variadicOperand(std::string name, DTypeSet dtypes = kAllTypes) {
  return OperandSpec{std::move(name), dtypes, true};
}
inline AttrSpec attrWithDefault(std::string name, graph::Attribute value, std::string doc) {
  graph::AttrKind kind = graph::attrKind(value);
  return AttrSpec{std::move(name), kind, std::move(value), false, std::move(doc)};
}
inline AttrSpec requiredAttr(std::string name, graph::AttrKind kind, std::string doc) {
  return AttrSpec{std::move(name), kind, std::nullopt, false, std::move(doc)};
}
inline AttrSpec optionalAttr(std::string name, graph::AttrKind kind, std::string doc) {
  return AttrSpec{std::move(name), kind, std::nullopt, true, std::move(doc)};
}

// out_dtype of the cube operators: float16 operands give a float32 result when it is "float32" (the
// cube accumulates in float32 and writes its accumulator without rounding to float16); automatic
// mixed precision sets it.
inline AttrSpec outDTypeAttr() {
  return optionalAttr("out_dtype", graph::AttrKind::String,
                      "the result's dtype when it is not the operands' (float16 operands, float32 result)");
}
inline DType cubeResultDType(const InferContext& ctx, DType promoted) {
  DType out = promoted;
  const std::string name = ctx.node.stringAttr("out_dtype");
  return !name.empty() && parseDType(name, out) ? out : promoted;
}

inline NumpyParam tensorParam(std::string name) { return NumpyParam{std::move(name), ParamKind::Tensor, "", {}, true, false}; }
inline NumpyParam tensorListParam(std::string name) {
  return NumpyParam{std::move(name), ParamKind::TensorList, "", {}, true, false};
}
// The remaining positional arrays (np.einsum("ij,jk", a, b)).
inline NumpyParam tensorVarargsParam(std::string name) {
  return NumpyParam{std::move(name), ParamKind::TensorList, "", {}, true, true};
}
// A compile-time parameter filling `attr`; omitted, it takes `fallback` (or stays absent if none).
inline NumpyParam attrParam(std::string name, ParamKind kind, std::string attr) {
  return NumpyParam{std::move(name), kind, std::move(attr), {}, true, false};
}
inline NumpyParam attrParam(std::string name, ParamKind kind, std::string attr, graph::Attribute fallback) {
  return NumpyParam{std::move(name), kind, std::move(attr), std::move(fallback), false, false};
}
inline NumpyParam optionalParam(std::string name, ParamKind kind, std::string attr) {
  return NumpyParam{std::move(name), kind, std::move(attr), {}, false, false};
}
inline NumpyParam shapeParam(std::string name, std::string attr, bool varargs) {
  return NumpyParam{std::move(name), ParamKind::IntList, std::move(attr), {}, true, varargs};
}

inline NumpyAlias functionAlias(std::string name, std::string op, std::vector<NumpyParam> params,
                                std::vector<graph::NamedAttr> fixed = {}, std::string note = "") {
  return NumpyAlias{std::move(name), AliasForm::Function, std::move(op), std::move(params), std::move(fixed),
                    std::move(note)};
}
inline NumpyAlias methodAlias(std::string name, std::string op, std::vector<NumpyParam> params,
                              std::vector<graph::NamedAttr> fixed = {}, std::string note = "") {
  return NumpyAlias{std::move(name), AliasForm::Method, std::move(op), std::move(params), std::move(fixed),
                    std::move(note)};
}
// Binary operators are keyed by their symbol ("+"), unary ones as "unary -".
inline NumpyAlias operatorAlias(const std::string& symbol, std::string op, int arity) {
  std::vector<NumpyParam> params = {tensorParam("x1")};
  if (arity == 2) params.push_back(tensorParam("x2"));
  return NumpyAlias{arity == 2 ? symbol : "unary " + symbol, AliasForm::Operator, std::move(op), std::move(params),
                    {}, ""};
}

}  // namespace pyasc::registry
