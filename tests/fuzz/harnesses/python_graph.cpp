// Fuzz harness: Python source → graph (lexer, parser, analyser, graph builder, verifier).
#include "frontend/Frontend.h"
#include "tests/fuzz/Harness.h"
#include "tests/fuzz/ProgramInput.h"
#include "tests/fuzz/PythonMutator.h"

using namespace pyasc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string source = fuzz::text(data, size);
  fuzz::countStage("python_graph", "inputs");
  frontend::FrontendOptions options;
  if (!fuzz::programOptions(source, options)) return 0;
  DiagnosticEngine diags;
  diags.addSource("fuzz.py", source);
  try {
    frontend::compileToGraph("fuzz.py", source, options, diags);
  } catch (const CompileError&) {
    return 0;
  }
  if (!diags.hasErrors()) fuzz::countStage("python_graph", "graphs");
  diags.renderAll();  // every diagnostic renders (source lines, carets)
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned int seed) {
  return fuzz::mutatePython(data, size, maxSize, seed, fuzz::frontendAccepts);
}
