// A custom operator as its descriptor declares it: msopgen's fields plus pyasc's own (impl, shape rule, ...).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sdk/graph/Graph.h"
#include "sdk/support/DType.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::registry {

// msopgen's `param_type`: an operand that must be given, may be left out, or repeats (last only).
enum class ParamType : uint8_t { Required, Optional, Dynamic };
const char* paramTypeName(ParamType type);  // "required", "optional", "dynamic"
bool parseParamType(const std::string& name, ParamType& out);

// msopgen's attribute `type`; the order matches the alternatives of AttrValue.
enum class AttrType : uint8_t { Int, Float, Bool, Str, ListInt, ListFloat, ListBool, ListStr };
const char* attrTypeName(AttrType type);  // "int", "float", "bool", "str", "list_int", ...
const char* tbeAttrTypeName(AttrType type);  // the op-info .ini spelling: "int", "listInt", ...
// Accepts the descriptor spellings ("list_int") and the .ini ones ("listInt"), and "string" for "str".
bool parseAttrType(const std::string& name, AttrType& out);
std::vector<std::string> attrTypeNames();

using AttrValue = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>, std::vector<double>,
                               std::vector<bool>, std::vector<std::string>>;
std::string attrValueText(const AttrValue& value);  // 2, 0.5, true, "s", [1, 2], ["a", "b"]

// Element types by their msopgen spellings: "float16" (also "fp16", "half"), "float32" (also "float",
// "fp32"), "float64" (also "double"), "int8", "uint8", "int16", "int32" (also "int"), "int64", "bool".
bool parseDescriptorDType(const std::string& name, DType& out);
std::vector<std::string> descriptorDTypeNames();  // the canonical spellings, for suggestions
const char* tbeDTypeName(DType type);              // the op-info .ini spelling: "float16", "float", "int32"

// The compute pattern, which picks the schedule template.
// Compute: a te.compute definition, scheduled by the loop-nest stages.
enum class OpPattern : uint8_t { Elementwise, Reduce, Matmul, Composite, Compute };
const char* patternName(OpPattern pattern);  // "elementwise", "reduce", "matmul", "composite", "compute"
bool parsePattern(const std::string& name, OpPattern& out);

// How output shapes follow from the inputs.
enum class ShapeRuleKind : uint8_t {
  SameAs,     // `same_as:<input>`: every output has that input's shape
  Broadcast,  // `broadcast`: NumPy broadcasting of every input
  Reduce,     // `reduce:<attr>`: input 0 without the axes named by an int or list_int attribute
  Matmul,     // `matmul`: inputs 0 and 1 as [..., m, k] x [..., k, n] -> [..., m, n]
  Explicit,   // a list of dimensions, each an extent or `<input>.<axis>`; or one such list per output
  Compute,    // `compute`: the shape the definition's result has (one output; te.compute definitions)
};

// One dimension of an explicit shape rule: a fixed extent, or the extent of an input's axis.
struct ShapeRuleDim {
  int64_t extent = -1;  // >= 0 for a fixed extent
  std::string input;    // otherwise the input whose axis gives the extent
  int64_t axis = 0;     // may be negative, counted from the end
};

struct ShapeRule {
  ShapeRuleKind kind = ShapeRuleKind::SameAs;
  std::string operand;  // SameAs: the input; Reduce: the axes attribute
  std::vector<std::vector<ShapeRuleDim>> outputShapes;  // Explicit: one shape, or one per output
  std::string text() const;  // as written in a descriptor: "same_as:x", "reduce:axes", "[x.0, 16]"
};

struct TensorDesc {
  std::string name;
  ParamType paramType = ParamType::Required;
  std::vector<graph::Layout> formats;  // pairs one to one with `types`
  std::vector<DType> types;            // column i of every input and output is one supported combination
  SourceLocation loc;
};

struct AttrDesc {
  std::string name;
  ParamType paramType = ParamType::Required;
  AttrType type = AttrType::Int;
  std::optional<AttrValue> defaultValue;
  SourceLocation loc;
};

struct OpDescriptor {
  std::string op;          // the operator type, "CustomRelu"; the registry key
  std::string pythonName;  // what user programs call: `custom_relu(x)`
  std::string impl;        // the TBE-style definition as written, relative to the descriptor
  std::string implPath;    // `impl` resolved against the descriptor's folder
  std::vector<TensorDesc> inputs;
  std::vector<TensorDesc> outputs;
  std::vector<AttrDesc> attrs;
  ShapeRule shapeRule;
  std::map<DType, double> tolerance;  // max error against the NumPy reference, per output dtype
  bool override = false;              // may replace the built-in operator of the same name
  OpPattern pattern = OpPattern::Elementwise;
  SourceLocation loc;  // the `op` field in the descriptor file

  const TensorDesc* findInput(const std::string& inputName) const;
  const AttrDesc* findAttr(const std::string& attrName) const;
};

// The default tolerance when a descriptor has none: float16 1e-3, float32 1e-5, float64 1e-9.
std::map<DType, double> defaultTolerance();
// The default python_name: `op` in snake_case the way TBE names op files ("AddCustom" -> "add_custom",
// "Conv2D" -> "conv2d", "ReLUGrad" -> "re_lu_grad").
std::string snakeCaseName(const std::string& op);
// Every field, one per line, in a fixed order (locations left out): for `ascop info` and for comparing.
std::string descriptorSummary(const OpDescriptor& descriptor);

}  // namespace pyasc::registry
