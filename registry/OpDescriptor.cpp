// Name tables of the descriptor fields, the default python_name and tolerance, and the summary text.
#include "registry/OpDescriptor.h"

#include <cctype>

namespace pyasc::registry {

namespace {

const char* const kParamTypeNames[] = {"required", "optional", "dynamic"};
const char* const kAttrTypeNames[] = {"int", "float", "bool", "str", "list_int", "list_float", "list_bool", "list_str"};
const char* const kTbeAttrTypeNames[] = {"int", "float", "bool", "str", "listInt", "listFloat", "listBool", "listStr"};
const char* const kPatternNames[] = {"elementwise", "reduce", "matmul", "composite", "compute"};

struct DTypeSpelling {
  const char* name;
  DType type;
};
// Canonical spellings first: descriptorDTypeNames() lists the entries up to kCanonicalDTypes.
const DTypeSpelling kDTypeSpellings[] = {
    {"float16", DType::Float16}, {"float32", DType::Float32}, {"float64", DType::Float64}, {"int8", DType::Int8},
    {"uint8", DType::UInt8},     {"int16", DType::Int16},     {"int32", DType::Int32},     {"int64", DType::Int64},
    {"bool", DType::Bool},       {"fp16", DType::Float16},    {"half", DType::Float16},    {"float", DType::Float32},
    {"fp32", DType::Float32},    {"double", DType::Float64},  {"int", DType::Int32},
};
constexpr size_t kCanonicalDTypes = 9;

template <size_t N>
bool parseName(const char* const (&names)[N], const std::string& name, uint8_t& out) {
  for (size_t i = 0; i < N; ++i) {
    if (name == names[i]) {
      out = static_cast<uint8_t>(i);
      return true;
    }
  }
  return false;
}

// Prints attribute values the way YAML and JSON both read them back.
struct AttrValuePrinter {
  std::string operator()(int64_t v) const { return std::to_string(v); }
  std::string operator()(double v) const { return graph::formatFloat(v, DType::Float64); }
  std::string operator()(bool v) const { return v ? "true" : "false"; }
  std::string operator()(const std::string& v) const { return "\"" + v + "\""; }
  template <typename T>
  std::string operator()(const std::vector<T>& list) const {
    std::string s = "[";
    for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + (*this)(static_cast<T>(list[i]));
    return s + "]";
  }
};

std::string tensorLine(const char* role, const TensorDesc& t) {
  std::string s = std::string("  ") + role + " " + t.name + " (" + paramTypeName(t.paramType) + "):";
  for (size_t i = 0; i < t.types.size(); ++i) {
    s += std::string(i ? ", " : " ") + dtypeName(t.types[i]) + "@" + graph::layoutName(t.formats[i]);
  }
  return s + "\n";
}

}  // namespace

const char* paramTypeName(ParamType type) { return kParamTypeNames[static_cast<int>(type)]; }

bool parseParamType(const std::string& name, ParamType& out) {
  uint8_t i;
  if (!parseName(kParamTypeNames, name, i)) return false;
  out = static_cast<ParamType>(i);
  return true;
}

const char* attrTypeName(AttrType type) { return kAttrTypeNames[static_cast<int>(type)]; }
const char* tbeAttrTypeName(AttrType type) { return kTbeAttrTypeNames[static_cast<int>(type)]; }

bool parseAttrType(const std::string& name, AttrType& out) {
  uint8_t i;
  if (name == "string") {
    out = AttrType::Str;
    return true;
  }
  if (!parseName(kAttrTypeNames, name, i) && !parseName(kTbeAttrTypeNames, name, i)) return false;
  out = static_cast<AttrType>(i);
  return true;
}

std::vector<std::string> attrTypeNames() { return {std::begin(kAttrTypeNames), std::end(kAttrTypeNames)}; }

std::string attrValueText(const AttrValue& value) { return std::visit(AttrValuePrinter{}, value); }

bool parseDescriptorDType(const std::string& name, DType& out) {
  for (const auto& s : kDTypeSpellings) {
    if (name == s.name) {
      out = s.type;
      return true;
    }
  }
  return false;
}

std::vector<std::string> descriptorDTypeNames() {
  std::vector<std::string> names;
  for (size_t i = 0; i < kCanonicalDTypes; ++i) names.push_back(kDTypeSpellings[i].name);
  return names;
}

const char* tbeDTypeName(DType type) {
  switch (type) {
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    default: return dtypeName(type);
  }
}

const char* patternName(OpPattern pattern) { return kPatternNames[static_cast<int>(pattern)]; }

bool parsePattern(const std::string& name, OpPattern& out) {
  uint8_t i;
  if (!parseName(kPatternNames, name, i)) return false;
  out = static_cast<OpPattern>(i);
  return true;
}

std::string ShapeRule::text() const {
  switch (kind) {
    case ShapeRuleKind::SameAs: return "same_as:" + operand;
    case ShapeRuleKind::Broadcast: return "broadcast";
    case ShapeRuleKind::Reduce: return "reduce:" + operand;
    case ShapeRuleKind::Matmul: return "matmul";
    case ShapeRuleKind::Compute: return "compute";
    case ShapeRuleKind::Explicit: break;
  }
  auto shapeText = [](const std::vector<ShapeRuleDim>& dims) {
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
      s += i ? ", " : "";
      s += dims[i].extent >= 0 ? std::to_string(dims[i].extent) : dims[i].input + "." + std::to_string(dims[i].axis);
    }
    return s + "]";
  };
  if (outputShapes.size() == 1) return shapeText(outputShapes[0]);
  std::string s = "[";
  for (size_t i = 0; i < outputShapes.size(); ++i) s += (i ? ", " : "") + shapeText(outputShapes[i]);
  return s + "]";
}

const TensorDesc* OpDescriptor::findInput(const std::string& inputName) const {
  for (const auto& t : inputs) {
    if (t.name == inputName) return &t;
  }
  return nullptr;
}

const AttrDesc* OpDescriptor::findAttr(const std::string& attrName) const {
  for (const auto& a : attrs) {
    if (a.name == attrName) return &a;
  }
  return nullptr;
}

std::map<DType, double> defaultTolerance() {
  return {{DType::Float16, 1e-3}, {DType::Float32, 1e-5}, {DType::Float64, 1e-9}};
}

std::string snakeCaseName(const std::string& op) {
  std::string s;
  for (size_t i = 0; i < op.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(op[i]);
    if (i > 0 && std::isupper(c)) {
      const unsigned char before = static_cast<unsigned char>(op[i - 1]);
      const bool nextLower = i + 1 < op.size() && std::islower(static_cast<unsigned char>(op[i + 1]));
      if (std::islower(before) || (std::isupper(before) && nextLower)) s += '_';
    }
    s += static_cast<char>(std::tolower(c));
  }
  return s;
}

std::string descriptorSummary(const OpDescriptor& d) {
  std::string s = d.op + " (" + patternName(d.pattern) + "), called " + d.pythonName + "(...)\n";
  s += "  impl: " + d.impl + "\n";
  for (const auto& in : d.inputs) s += tensorLine("input", in);
  for (const auto& out : d.outputs) s += tensorLine("output", out);
  for (const auto& a : d.attrs) {
    s += "  attr " + a.name + " (" + paramTypeName(a.paramType) + "): " + attrTypeName(a.type);
    if (a.defaultValue) s += " = " + attrValueText(*a.defaultValue);
    s += "\n";
  }
  s += "  shape_rule: " + d.shapeRule.text() + "\n";
  s += "  tolerance:";
  for (const auto& t : d.tolerance) s += std::string(" ") + dtypeName(t.first) + "=" + graph::formatFloat(t.second, DType::Float64);
  s += "\n";
  if (d.override) s += "  override: true\n";
  return s;
}

}  // namespace pyasc::registry
