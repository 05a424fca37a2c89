// asc-opt: reads graph IR text, runs the named stages of the pipeline in order and prints the IR
// after the last one (the graph, or the lowered program after select-kernels).
#include <CLI/CLI.hpp>

#include <iostream>

#include "codegen/Pipeline.h"
#include "codegen/graph/EliminateDeadNodes.h"
#include "codegen/graph/ExpandComposites.h"
#include "codegen/graph/ReciprocalDivisors.h"
#include "codegen/graph/SelectKernels.h"
#include "sdk/graph/Parser.h"
#include "sdk/graph/Printer.h"
#include "sdk/graph/Verifier.h"
#include "sdk/support/AtomicFile.h"
#include "sdk/target/Target.h"

int main(int argc, char** argv) {
  CLI::App app{"Runs compiler stages on graph IR text and prints the result", "asc-opt"};
  std::string input, target = "ascend310";
  std::vector<std::string> passes;
  app.add_option("input", input, "graph text file (as printed by pyasc --emit=graph)")->required();
  app.add_option("--pass", passes, "a stage to run, in order; repeatable")
      ->required()
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"expand-composites", "eliminate-dead-nodes", "reciprocal-divisors", "select-kernels"}));
  app.add_option("--target", target, "target for select-kernels")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  try {
    std::vector<uint8_t> bytes = pyasc::readFileBytes(input);
    pyasc::graph::Graph g = pyasc::graph::parseGraph(input, std::string(bytes.begin(), bytes.end()));
    pyasc::DiagnosticEngine diags;
    if (!pyasc::graph::verifyGraph(g, diags)) {
      std::cerr << diags.renderAll();
      return 1;
    }
    std::string out = pyasc::graph::printGraph(g);
    for (const auto& pass : passes) {
      if (pass == "expand-composites") {
        pyasc::codegen::expandComposites(g, nullptr);
        out = pyasc::graph::printGraph(g);
      } else if (pass == "eliminate-dead-nodes") {
        pyasc::codegen::eliminateDeadNodes(g);
        out = pyasc::graph::printGraph(g);
      } else if (pass == "reciprocal-divisors") {
        pyasc::codegen::reciprocalDivisors(g);
        out = pyasc::graph::printGraph(g);
      } else {
        pyasc::codegen::SelectOptions options;
        options.sourceFile = input;
        out = pyasc::codegen::printProgram(pyasc::codegen::selectKernels(g, pyasc::loadTarget(target), options));
      }
    }
    std::cout << out;
  } catch (const pyasc::CompileError& e) {
    std::cerr << pyasc::DiagnosticEngine().render(e.diagnostic());
    return 1;
  }
  return 0;
}
