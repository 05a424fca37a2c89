// msopgen JSON through nlohmann's ordered_json; the .ini written line by line.
#include "registry/DescriptorExport.h"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace pyasc::registry {

namespace {

using ordered_json = nlohmann::ordered_json;

struct JsonValue {
  ordered_json operator()(int64_t v) const { return v; }
  ordered_json operator()(double v) const { return v; }
  ordered_json operator()(bool v) const { return v; }
  ordered_json operator()(const std::string& v) const { return v; }
  template <typename T>
  ordered_json operator()(const std::vector<T>& list) const {
    ordered_json array = ordered_json::array();
    for (size_t i = 0; i < list.size(); ++i) array.push_back((*this)(static_cast<T>(list[i])));
    return array;
  }
};

// The .ini spelling of a default: lists comma-separated, strings bare.
struct IniValue {
  std::string operator()(int64_t v) const { return std::to_string(v); }
  std::string operator()(double v) const { return graph::formatFloat(v, DType::Float64); }
  std::string operator()(bool v) const { return v ? "true" : "false"; }
  std::string operator()(const std::string& v) const { return v; }
  template <typename T>
  std::string operator()(const std::vector<T>& list) const {
    std::string s;
    for (size_t i = 0; i < list.size(); ++i) s += (i ? "," : "") + (*this)(static_cast<T>(list[i]));
    return s;
  }
};

ordered_json tensorJson(const TensorDesc& t) {
  ordered_json j;
  j["name"] = t.name;
  j["param_type"] = paramTypeName(t.paramType);
  j["format"] = ordered_json::array();
  for (graph::Layout f : t.formats) j["format"].push_back(graph::layoutName(f));
  j["type"] = ordered_json::array();
  for (DType type : t.types) j["type"].push_back(dtypeName(type));
  return j;
}

std::string tensorIni(const char* role, size_t index, const TensorDesc& t) {
  const std::string key = role + std::to_string(index);
  std::string dtypes, formats;
  for (size_t i = 0; i < t.types.size(); ++i) {
    dtypes += (i ? "," : "") + std::string(tbeDTypeName(t.types[i]));
    formats += (i ? "," : "") + std::string(graph::layoutName(t.formats[i]));
  }
  return key + ".name=" + t.name + "\n" + key + ".dtype=" + dtypes + "\n" + key + ".format=" + formats + "\n" + key +
         ".paramType=" + paramTypeName(t.paramType) + "\n";
}

}  // namespace

std::string exportMsopgenJson(const std::vector<OpDescriptor>& descriptors) {
  ordered_json ops = ordered_json::array();
  for (const auto& d : descriptors) {
    ordered_json op;
    op["op"] = d.op;
    op["input_desc"] = ordered_json::array();
    for (const auto& in : d.inputs) op["input_desc"].push_back(tensorJson(in));
    op["output_desc"] = ordered_json::array();
    for (const auto& out : d.outputs) op["output_desc"].push_back(tensorJson(out));
    for (const auto& a : d.attrs) {
      ordered_json attr;
      attr["name"] = a.name;
      attr["param_type"] = paramTypeName(a.paramType);
      attr["type"] = tbeAttrTypeName(a.type);
      if (a.defaultValue) attr["default_value"] = std::visit(JsonValue{}, *a.defaultValue);
      op["attr"].push_back(attr);
    }
    ops.push_back(op);
  }
  return ops.dump(4) + "\n";
}

std::string exportTbeIni(const std::vector<OpDescriptor>& descriptors) {
  std::string s;
  for (const auto& d : descriptors) {
    s += (s.empty() ? "[" : "\n[") + d.op + "]\n";
    for (size_t i = 0; i < d.inputs.size(); ++i) s += tensorIni("input", i, d.inputs[i]);
    for (size_t i = 0; i < d.outputs.size(); ++i) s += tensorIni("output", i, d.outputs[i]);
    if (!d.attrs.empty()) {
      s += "attr.list=";
      for (size_t i = 0; i < d.attrs.size(); ++i) s += (i ? "," : "") + d.attrs[i].name;
      s += "\n";
    }
    for (const auto& a : d.attrs) {
      const std::string key = "attr_" + a.name;
      s += key + ".type=" + tbeAttrTypeName(a.type) + "\n" + key + ".value=all\n" + key + ".paramType=" +
           paramTypeName(a.paramType) + "\n";
      if (a.defaultValue) s += key + ".defaultValue=" + std::visit(IniValue{}, *a.defaultValue) + "\n";
    }
    s += "opFile.value=" + std::filesystem::path(d.impl).stem().string() + "\n";
    s += "opInterface.value=" + d.pythonName + "\n";
  }
  return s;
}

}  // namespace pyasc::registry
