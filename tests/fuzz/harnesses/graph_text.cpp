// Fuzz harness: graph IR text (pyasc --emit=graph, asc-opt's input) → graph → verifier; a verified
// graph prints to text that parses back to the same print, then runs through every compiler stage
// as `asc-opt` would.
#include "codegen/Pipeline.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Parser.h"
#include "sdk/graph/Printer.h"
#include "sdk/graph/Verifier.h"
#include "tests/fuzz/Harness.h"

using namespace pyasc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Target target = loadTarget("ascend910b");
  fuzz::countStage("graph_text", "inputs");
  graph::Graph g;
  try {
    g = graph::parseGraph("fuzz.graph", fuzz::text(data, size));
  } catch (const CompileError&) {
    return 0;
  }
  DiagnosticEngine diags;
  static const registry::RegistryTypeChecker checker(registry::OpRegistry::builtin());
  if (!graph::verifyGraph(g, diags, &checker)) return 0;  // as asc-opt verifies its input
  fuzz::countStage("graph_text", "verified");
  const std::string printed = graph::printGraph(g);
  if (graph::printGraph(graph::parseGraph("printed.graph", printed)) != printed) __builtin_trap();
  try {
    codegen::CompileOptions options;
    options.sourceFile = "fuzz.graph";
    codegen::compileGraph(std::move(g), target, options);
    fuzz::countStage("graph_text", "compiled");
  } catch (const CompileError&) {
  }
  return 0;
}
