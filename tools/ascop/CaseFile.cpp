// Case and bench files read with yaml-cpp, every error at its line.
#include "tools/ascop/CaseFile.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "sdk/support/Diagnostics.h"

namespace pyasc::ascop {

namespace {

[[noreturn]] void fail(const std::string& path, const YAML::Node& node, const std::string& message) {
  SourceLocation loc{path, node.Mark().line + 1, node.Mark().column + 1};
  if (node.Mark().is_null()) loc = SourceLocation{path, 0, 0};
  throw CompileError(loc, message);
}

// A YAML attribute value as the Python literal the generated call passes.
std::string pythonLiteral(const std::string& path, const YAML::Node& v) {
  if (v.IsSequence()) {
    std::string s = "[";
    for (const auto& item : v) s += (s.size() > 1 ? ", " : "") + pythonLiteral(path, item);
    return s + "]";
  }
  if (!v.IsScalar()) fail(path, v, "an attribute value must be a number, a bool, a string or a list");
  const std::string& text = v.Scalar();
  if (v.Tag() != "!") {
    if (text == "true" || text == "True") return "True";
    if (text == "false" || text == "False") return "False";
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    if (!text.empty() && *end == '\0') return text;
  }
  return "'" + text + "'";
}

// One operator's entry: op, optional call or skip, dtypes and cases; the rest comes from `f`.
void readOpEntry(const std::string& path, const YAML::Node& node, CaseFile& f) {
  if (!node["op"]) fail(path, node, "missing field 'op'");
  f.op = node["op"].as<std::string>();
  if (node["call"]) f.call = node["call"].as<std::string>();
  if (node["skip"]) {
    f.skip = node["skip"].as<std::string>();
    return;
  }
  if (node["dtypes"]) {
    if (!node["dtypes"].IsSequence()) fail(path, node["dtypes"], "'dtypes' must be a list");
    f.dtypes.clear();
    for (const auto& d : node["dtypes"]) {
      DType t;
      if (!parseDType(d.as<std::string>(), t)) fail(path, d, "unknown dtype '" + d.as<std::string>() + "'");
      f.dtypes.push_back(t);
    }
  }
  if (f.dtypes.empty()) fail(path, node, "missing list 'dtypes'");
  if (!node["cases"] || !node["cases"].IsSequence()) fail(path, node, "missing list 'cases'");
  for (const auto& c : node["cases"]) {
    if (!c.IsMap()) fail(path, c, "a case maps input names to shapes, e.g. {x: [3, 130]}");
    OperatorCase oc;
    for (const auto& kv : c) {
      if (kv.first.as<std::string>() == "attrs") {
        if (!kv.second.IsMap()) fail(path, kv.second, "attrs maps attribute names to values, e.g. {axes: [0]}");
        for (const auto& a : kv.second) oc.attrs.emplace_back(a.first.as<std::string>(), pythonLiteral(path, a.second));
        continue;
      }
      if (!kv.second.IsSequence()) fail(path, kv.second, "the shape of '" + kv.first.as<std::string>() + "' must be a list");
      std::vector<int64_t> shape;
      for (const auto& d : kv.second) {
        int64_t extent = d.as<int64_t>();
        if (extent < 1) fail(path, d, "a dimension must be at least 1");
        shape.push_back(extent);
      }
      oc.inputs.emplace_back(kv.first.as<std::string>(), shape);
    }
    if (!f.call.empty() && !oc.attrs.empty()) fail(path, c, "a case of an op with a 'call' cannot have attrs; write them in the call");
    f.cases.push_back(oc);
  }
}

YAML::Node loadYaml(const std::string& path) {
  try {
    return YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw CompileError(SourceLocation{path}, "cannot read");
  } catch (const YAML::Exception& e) {
    throw CompileError(SourceLocation{path, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
}

// The fields a suite's entries inherit: reference, report, seed, complete, targets, dtypes.
CaseFile readShared(const std::string& path, const YAML::Node& root) {
  CaseFile f;
  f.path = path;
  if (root["reference"]) f.reference = root["reference"].as<std::string>();
  if (root["report"]) f.report = root["report"].as<std::string>();
  if (root["seed"]) f.seed = root["seed"].as<uint32_t>();
  if (root["complete"]) f.complete = root["complete"].as<bool>();
  if (root["targets"])
    for (const auto& t : root["targets"]) f.targets.push_back(t.as<std::string>());
  if (root["dtypes"] && root["dtypes"].IsSequence()) {
    for (const auto& d : root["dtypes"]) {
      DType t;
      if (!parseDType(d.as<std::string>(), t)) fail(path, d, "unknown dtype '" + d.as<std::string>() + "'");
      f.dtypes.push_back(t);
    }
  }
  return f;
}

}  // namespace

std::vector<CaseFile> readCaseFiles(const std::string& path) {
  YAML::Node root = loadYaml(path);
  if (!root.IsMap()) fail(path, root, "expected a mapping with op, dtypes and cases (or a suite's ops)");
  std::vector<CaseFile> entries;
  try {
    CaseFile shared = readShared(path, root);
    if (!root["ops"]) {
      entries.push_back(shared);
      readOpEntry(path, root, entries.back());
      return entries;
    }
    if (!root["ops"].IsSequence()) fail(path, root["ops"], "'ops' must be a list of {op, call, dtypes, cases}");
    if (root["ops"].size() == 0) fail(path, root["ops"], "'ops' lists no operators");
    for (const auto& node : root["ops"]) {
      if (!node.IsMap()) fail(path, node, "an entry of 'ops' is a mapping {op, call, dtypes, cases} or {op, skip}");
      entries.push_back(shared);
      entries.back().inSuite = true;
      readOpEntry(path, node, entries.back());
    }
  } catch (const YAML::Exception& e) {
    throw CompileError(SourceLocation{path, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  return entries;
}

CaseFile readCaseFile(const std::string& path) {
  std::vector<CaseFile> entries = readCaseFiles(path);
  if (entries.size() != 1) throw CompileError(SourceLocation{path}, "expected one operator, found a suite of " +
                                                                     std::to_string(entries.size()));
  return entries[0];
}

std::string findOneFile(const std::string& folder, const std::string& suffix) {
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    std::string name = entry.path().filename().string();
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      found.push_back(entry.path().string());
  }
  if (found.size() != 1) {
    throw std::runtime_error((found.empty() ? "no *" : "several *") + suffix + " files in " +
                             (folder == "." ? std::string("this folder") : "'" + folder + "'") + "; name one");
  }
  return found[0];
}

// NAME.json (or NAME.yaml) beside NAME_cases.yaml or NAME_bench.yaml.
std::string descriptorBeside(const std::string& casesPath, const std::string& suffix) {
  std::string stem = casesPath.substr(0, casesPath.size() - suffix.size());
  for (const char* ext : {".json", ".yaml"})
    if (std::filesystem::exists(stem + ext)) return stem + ext;
  throw CompileError(SourceLocation{casesPath}, "no descriptor " + std::filesystem::path(stem).filename().string() +
                                                    ".json or .yaml beside it; pass --descriptor");
}

std::string caseFileArgument(const std::string& given, const std::string& suffix) {
  if (given.empty()) return findOneFile(".", suffix);
  return std::filesystem::is_directory(given) ? findOneFile(given, suffix) : given;
}

std::string caseText(const OperatorCase& c) {
  std::string s;
  for (const auto& [name, shape] : c.inputs) {
    s += (s.empty() ? "" : " ") + name + "=[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
    s += "]";
  }
  for (const auto& [name, literal] : c.attrs) s += " " + name + "=" + literal;
  return s;
}

int caseColumnWidth(const std::vector<OperatorCase>& cases) {
  size_t width = 24;
  for (const auto& c : cases) width = std::max(width, caseText(c).size());
  return static_cast<int>(width);
}

}  // namespace pyasc::ascop
