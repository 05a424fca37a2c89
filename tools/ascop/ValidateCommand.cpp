// ascop validate [FILES...]: checks descriptors one file at a time, as --custom-op-config would load them.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "registry/DescriptorLoader.h"
#include "registry/DescriptorRegistration.h"
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

// Every *.json, *.yaml and *.yml here except the test cases and benchmark configs ascop new writes
// (*_cases.yaml, *_bench.yaml).
std::vector<std::string> descriptorsHere() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(".")) {
    const std::string name = entry.path().filename().string();
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".json" && ext != ".yaml" && ext != ".yml")) continue;
    if (endsWith(name, "_cases.yaml") || endsWith(name, "_bench.yaml")) continue;
    files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string count(size_t n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

int run(const ValidateOptions& o) {
  const std::vector<std::string> files = o.files.empty() ? descriptorsHere() : o.files;
  if (files.empty()) return reportError("no descriptor files (*.json, *.yaml, *.yml) in the current folder");
  bool ok = true;
  for (const auto& file : files) {
    std::vector<Diagnostic> errors;
    const std::vector<registry::OpDescriptor> ops = registry::loadDescriptorFile(file, errors);
    if (errors.empty()) {
      registry::OpRegistry registry = registry::OpRegistry::builtin();
      registry::registerDescriptors(ops, registry, errors);
    }
    if (!errors.empty()) {
      reportDescriptorErrors(errors);
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
  app.add_option("files", o->files, "descriptor files (.json, .yaml, .yml)");
  return [o]() { return run(*o); };
}

}  // namespace pyasc::ascop
