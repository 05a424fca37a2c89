// Fuzz harness: Python source → graph → model (every compiler stage), then the model written,
// read back and validated as pyasc run would load it. Inputs alternate ascend310 / ascend910b and
// O0 / O1 / O2 by their length.
#include "codegen/Pipeline.h"
#include "frontend/Frontend.h"
#include "sdk/model/ModelReader.h"
#include "sdk/model/ModelValidator.h"
#include "sdk/model/ModelWriter.h"
#include "tests/fuzz/Harness.h"
#include "tests/fuzz/ProgramInput.h"
#include "tests/fuzz/PythonMutator.h"

using namespace pyasc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Target targets[] = {loadTarget("ascend310"), loadTarget("ascend910b")};
  const std::string source = fuzz::text(data, size);
  fuzz::countStage("python_model", "inputs");
  frontend::FrontendOptions options;
  if (!fuzz::programOptions(source, options)) return 0;
  const Target& target = targets[size % 2];
  options.target = target.name;
  DiagnosticEngine diags;
  diags.addSource("fuzz.py", source);
  codegen::CompileResult result;
  try {
    graph::Graph g = frontend::compileToGraph("fuzz.py", source, options, diags);
    if (diags.hasErrors()) {
      diags.renderAll();
      return 0;
    }
    if (!fuzz::smallEnough(g)) {
      fuzz::countStage("python_model", "graphs over 2^16 elements (not compiled)");
      return 0;
    }
    fuzz::countStage("python_model", "graphs (reached code generation)");
    codegen::CompileOptions co;
    co.optLevel = static_cast<int>(size % 3);
    co.memoryOpt = size % 5 == 0;
    co.sourceFile = "fuzz.py";
    result = codegen::compileGraph(std::move(g), target, co);
  } catch (const CompileError& e) {
    diags.render(e.diagnostic());
    return 0;
  }
  fuzz::countStage("python_model", "models");
  // a model the compiler wrote always reads back and validates: an error here escapes (a crash)
  model::Model back = model::parseModel(model::serialize(result.model, "fuzz.om"), "fuzz.om");
  model::validateModel(back, "fuzz.om");
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned int seed) {
  return fuzz::mutatePython(data, size, maxSize, seed, fuzz::frontendAccepts, fuzz::Validity::Require);
}
