// ascop validate [FILES or FOLDERS...]: checks descriptors and their definitions one file at a time, as
// --custom-op-config would load them.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "tools/ascop/Command.h"

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
      std::cout << file << ": " << d.op << ": ok (" << count(d.inputs.size(), "input") << ", "
                << count(d.outputs.size(), "output") << ", " << count(d.attrs.size(), "attr") << ", "
                << registry::patternName(d.pattern) << ", called " << d.pythonName << ")\n";
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
