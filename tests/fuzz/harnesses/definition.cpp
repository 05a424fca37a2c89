// Fuzz harness: a TBE-style operator definition → expansion (te.lang.cce calls, te.compute and its
// schedule) → one call compiled for every type combination, as `ascop validate` checks it. The
// descriptor is the example operator the definition registers (@te_op.register("name")), else one
// chosen by the input's length; its first test case gives the shapes.
#include <filesystem>
#include <map>
#include <regex>

#include "frontend/CustomOps.h"
#include "registry/DescriptorLoader.h"
#include "registry/DescriptorRegistration.h"
#include "tests/fuzz/Harness.h"
#include "tests/fuzz/PythonMutator.h"
#include "tools/ascop/CaseFile.h"
#include "tools/ascop/OperatorRun.h"

using namespace pyasc;

namespace {

struct ExampleOp {
  registry::OpDescriptor descriptor;
  ascop::OperatorCase firstCase;
};

// Every example operator with a cases file, by Python name.
const std::map<std::string, ExampleOp>& exampleOps() {
  static const std::map<std::string, ExampleOp> ops = [] {
    namespace fs = std::filesystem;
    std::map<std::string, ExampleOp> m;
    for (const auto& dir : fs::directory_iterator(fuzz::sourceDir() + "/examples/custom_ops")) {
      const std::string name = dir.path().filename().string();
      fs::path json = dir.path() / (name + ".json"), cases = dir.path() / (name + "_cases.yaml");
      if (!fs::is_regular_file(json) || !fs::is_regular_file(cases)) continue;
      std::vector<Diagnostic> errors;
      for (auto& d : registry::loadDescriptorFile(json.string(), errors)) {
        ascop::CaseFile c = ascop::readCaseFile(cases.string());
        if (c.op == d.op && !c.cases.empty()) m[d.pythonName] = ExampleOp{d, c.cases.front()};
      }
    }
    return m;
  }();
  return ops;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const registry::OpRegistry builtin = registry::OpRegistry::builtin();
  const std::string source = fuzz::text(data, size);
  fuzz::countStage("definition", "inputs");
  const auto& ops = exampleOps();
  static const std::regex registered("register\\(\\s*\"([A-Za-z0-9_]+)\"");
  std::smatch m;
  auto it = std::regex_search(source, m, registered) ? ops.find(m[1].str()) : ops.end();
  if (it == ops.end()) it = std::next(ops.begin(), static_cast<long>(size % ops.size()));
  const ExampleOp& op = it->second;
  registry::OpRegistry r = builtin;
  std::vector<Diagnostic> errors;
  if (!registry::registerDescriptors({op.descriptor}, r, errors)) __builtin_trap();  // the example registers
  DiagnosticEngine diags;
  if (!frontend::attachDefinition(r, op.descriptor, source, diags)) {
    diags.renderAll();
    return 0;
  }
  fuzz::countStage("definition", "parsed");
  try {
    ascop::compileTypeCombinations(op.descriptor, r, op.firstCase, "ascend910b");
    fuzz::countStage("definition", "compiled");
  } catch (const CompileError&) {
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned int seed) {
  return fuzz::mutatePython(data, size, maxSize, seed);
}
