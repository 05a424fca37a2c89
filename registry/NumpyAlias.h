// How a NumPy spelling (np.sum, a.sum(), +) maps onto a registry operator and its attributes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::registry {

// What a NumPy parameter accepts and how it becomes an operand or attribute.
enum class ParamKind : uint8_t {
  Tensor,      // an array or Python scalar operand
  TensorList,  // a list or tuple of arrays (concatenate, stack)
  Int,         // compile-time int attribute
  Float,       // compile-time float attribute
  Bool,        // compile-time bool attribute
  String,      // compile-time string attribute (einsum subscripts)
  Axes,        // int, tuple of ints or None -> int-list attribute, absent for None
  Axis,        // int or None -> int attribute, absent for None
  IntList,     // tuple of ints, or the remaining positional ints when `varargs`
  DType,       // a dtype (np.float32, "float32", float) -> string attribute
};

struct NumpyParam {
  std::string name;  // NumPy's keyword name
  ParamKind kind = ParamKind::Tensor;
  std::string attr;  // graph attribute it fills (for compile-time kinds)
  std::optional<graph::Attribute> defaultValue;  // used when the argument is omitted
  bool required = true;
  bool varargs = false;  // IntList/TensorList: takes the remaining positional arguments (a.reshape(2, 3))
};

// How the spelling is used in source.
enum class AliasForm : uint8_t {
  Function,  // np.NAME(...) or pyasc.nn.NAME(...)
  Method,    // array.NAME(...); the first parameter binds to the array
  Operator,  // a binary or unary Python operator; NAME is the operator text
};

struct NumpyAlias {
  std::string name;  // "sum", "random.rand", "+", "nn.softmax"
  AliasForm form = AliasForm::Function;
  std::string op;    // registry operator; empty when the frontend builds something else
  std::vector<NumpyParam> params;
  std::vector<graph::NamedAttr> fixedAttrs;  // attributes implied by the spelling (zeros: value 0)
  std::string note;  // shown in docs/numpy-support.md
};

}  // namespace pyasc::registry
