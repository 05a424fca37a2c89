// Case and bench files read with yaml-cpp, every error at its line.
#include "tools/ascop/CaseFile.h"

#include <yaml-cpp/yaml.h>

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

}  // namespace

CaseFile readCaseFile(const std::string& path) {
  CaseFile f;
  f.path = path;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw CompileError(SourceLocation{path}, "cannot read");
  } catch (const YAML::Exception& e) {
    throw CompileError(SourceLocation{path, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  if (!root.IsMap()) fail(path, root, "expected a mapping with op, dtypes and cases");
  try {
    if (!root["op"]) fail(path, root, "missing field 'op'");
    f.op = root["op"].as<std::string>();
    if (root["reference"]) f.reference = root["reference"].as<std::string>();
    if (root["report"]) f.report = root["report"].as<std::string>();
    if (root["seed"]) f.seed = root["seed"].as<uint32_t>();
    if (root["targets"])
      for (const auto& t : root["targets"]) f.targets.push_back(t.as<std::string>());
    if (!root["dtypes"] || !root["dtypes"].IsSequence()) fail(path, root, "missing list 'dtypes'");
    for (const auto& d : root["dtypes"]) {
      DType t;
      if (!parseDType(d.as<std::string>(), t)) fail(path, d, "unknown dtype '" + d.as<std::string>() + "'");
      f.dtypes.push_back(t);
    }
    if (!root["cases"] || !root["cases"].IsSequence()) fail(path, root, "missing list 'cases'");
    for (const auto& c : root["cases"]) {
      if (!c.IsMap()) fail(path, c, "a case maps input names to shapes, e.g. {x: [3, 130]}");
      CaseShapes shapes;
      for (const auto& kv : c) {
        std::vector<int64_t> shape;
        for (const auto& d : kv.second) {
          int64_t extent = d.as<int64_t>();
          if (extent < 1) fail(path, d, "a dimension must be at least 1");
          shape.push_back(extent);
        }
        shapes.emplace_back(kv.first.as<std::string>(), shape);
      }
      f.cases.push_back(shapes);
    }
  } catch (const YAML::Exception& e) {
    throw CompileError(SourceLocation{path, e.mark.line + 1, e.mark.column + 1}, e.msg);
  }
  return f;
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

std::string caseText(const CaseShapes& shapes) {
  std::string s;
  for (const auto& [name, shape] : shapes) {
    s += (s.empty() ? "" : " ") + name + "=[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
    s += "]";
  }
  return s;
}

}  // namespace pyasc::ascop
