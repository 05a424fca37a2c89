// Descriptor text → operators → registration, for the JSON and YAML harnesses.
#include "tests/fuzz/Descriptors.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "registry/DescriptorLoader.h"
#include "registry/DescriptorRegistration.h"
#include "registry/OpRegistry.h"
#include "tests/fuzz/Harness.h"

namespace pyasc::fuzz {

namespace {

namespace fs = std::filesystem;

// A folder holding a file of every name the repository's definitions have (empty: only their
// existence is checked), so that the seed descriptors' `impl` fields resolve; removed at exit.
const std::string& implFolder() {
  static const std::string* folder = new std::string([] {  // never destroyed: the exit handler reads it
    fs::path dir = fs::temp_directory_path() / ("pyasc-fuzz-descriptors-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const char* sub : {"/examples/custom_ops", "/tests/error", "/benchmarks/compute"}) {
      for (const auto& e : fs::recursive_directory_iterator(sourceDir() + sub)) {
        if (e.path().extension() == ".py") std::ofstream(dir / e.path().filename());
      }
    }
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(implFolder(), ec);
    });
    return dir.string();
  }());
  return *folder;
}

}  // namespace

void loadDescriptors(const std::string& harness, const std::string& extension, const uint8_t* data, size_t size) {
  static const registry::OpRegistry builtin = registry::OpRegistry::builtin();
  countStage(harness.c_str(), "inputs");
  std::vector<Diagnostic> errors;
  std::vector<registry::OpDescriptor> ops =
      registry::parseDescriptors(implFolder() + "/fuzz" + extension, text(data, size), errors);
  if (errors.empty()) {
    registry::OpRegistry r = builtin;
    registry::registerDescriptors(ops, r, errors);
    if (errors.empty()) countStage(harness.c_str(), "registered");
  }
  for (const auto& e : errors) registry::descriptorErrorLine(e);
}

}  // namespace pyasc::fuzz
