// ascop validate [FILES or FOLDERS...]: checks descriptors and their definitions one file at a time, as
// --custom-op-config would load them, and compiles each operator for every type combination.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "tools/ascop/CaseFile.h"
#include "tools/ascop/Command.h"
#include "tools/ascop/OperatorRun.h"

namespace pyasc::ascop {

namespace {

namespace fs = std::filesystem;

struct ValidateOptions {
  std::vector<std::string> files;
};

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Every *.json, *.yaml and *.yml in `folder` except the test cases and benchmark configs ascop new
// writes (*_cases.yaml, *_bench.yaml).
std::vector<std::string> descriptorsIn(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = folder == "." ? entry.path().filename().string() : entry.path().string();
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".json" && ext != ".yaml" && ext != ".yml")) continue;
    if (endsWith(name, "_cases.yaml") || endsWith(name, "_bench.yaml") || endsWith(name, "_bench.json")) continue;
    files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Compiles `op` for every type combination of its descriptor, with the first case of NAME_cases.yaml
// beside `file` when it has one for `op` (else defaultCase); false after printing the located error.
// `note` says when nothing could be compiled.
bool compiles(const std::string& file, const registry::OpDescriptor& op, const registry::OpRegistry& registry,
              std::string& note) {
  fs::path casesPath = fs::path(file).parent_path() / (fs::path(file).stem().string() + "_cases.yaml");
  std::optional<OperatorCase> c;
  try {
    if (fs::is_regular_file(casesPath)) {
      CaseFile cases = readCaseFile(casesPath.string());
      if (cases.op == op.op && !cases.cases.empty()) c = cases.cases.front();
    }
    std::string missing;
    if (!c) c = defaultCase(op, missing);
    if (!c) {
      note = ", not compiled: attribute '" + missing + "' has no default (give it a value in " +
             casesPath.filename().string() + ")";
      return true;
    }
    compileTypeCombinations(op, registry, *c, "ascend910b");
  } catch (const CompileError& e) {
    const SourceLocation& where = e.diagnostic().range.begin;
    std::cerr << (where.file.empty() ? file : where.str()) << ": error: " << e.diagnostic().message << "\n";
    return false;
  }
  return true;
}

std::string count(size_t n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

int run(const ValidateOptions& o) {
  std::vector<std::string> files;
  for (const auto& given : o.files.empty() ? std::vector<std::string>{"."} : o.files) {
    if (!fs::is_directory(given)) {
      files.push_back(given);
      continue;
    }
    std::vector<std::string> found = descriptorsIn(given);
    if (found.empty()) {
      return reportError("no descriptor files (*.json, *.yaml, *.yml) in " +
                         (given == "." ? std::string("the current folder") : "'" + given + "'"));
    }
    files.insert(files.end(), found.begin(), found.end());
  }
  bool ok = true;
  for (const auto& file : files) {
    registry::OpRegistry registry = registry::OpRegistry::builtin();
    std::vector<registry::OpDescriptor> ops;
    // the descriptor, its registration next to the built-ins, and its definition
    if (!loadCustomOps({file}, registry, ops)) {
      ok = false;
      continue;
    }
    for (const auto& d : ops) {
      std::string note;
      if (!compiles(file, d, registry, note)) {
        ok = false;
        continue;
      }
      std::cout << file << ": " << d.op << ": ok (" << count(d.inputs.size(), "input") << ", "
                << count(d.outputs.size(), "output") << ", " << count(d.attrs.size(), "attr") << ", "
                << registry::patternName(d.pattern) << ", called " << d.pythonName << ")" << note << "\n";
    }
  }
  return ok ? 0 : 1;
}

}  // namespace

std::function<int()> setupValidate(CLI::App& app) {
  auto o = std::make_shared<ValidateOptions>();
  app.add_option("files", o->files, "descriptor files (.json, .yaml, .yml) or folders holding them (default: this folder)");
  return [o]() { return run(*o); };
}

}  // namespace pyasc::ascop
