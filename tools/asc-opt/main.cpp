// asc-opt: runs compiler stages (codegen/Pipeline's list) on IR text and prints the result. Graph
// text (as printed by pyasc --emit=graph) goes through the graph stages, then select-templates,
// plan-memory and emit-model in order; a loop nest (.loop, as printed by --dump-after of a loop-nest
// stage) through the loop-nest stages; a te.compute definition (.te: its compute line, then its
// schedule, one primitive per line, or `default`) through schedule-to-loops and the loop-nest
// stages. --emit=asm prints a loop nest's instructions; --list-passes the stages.
#include <CLI/CLI.hpp>

#include <iostream>

#include "codegen/Pipeline.h"
#include "codegen/loop/ComputeFile.h"
#include "codegen/loop/EmitLoops.h"
#include "codegen/loop/LowerCompute.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Parser.h"
#include "sdk/graph/Printer.h"
#include "sdk/graph/Verifier.h"
#include "sdk/isa/Assembler.h"
#include "sdk/loop/LoopText.h"
#include "sdk/loop/LoopVerifier.h"
#include "sdk/support/AtomicFile.h"
#include "sdk/target/Target.h"
#include "tools/CommandLine.h"

namespace {

using namespace pyasc;

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isLoopStage(const std::string& s) {
  for (const auto& n : codegen::computeStageNames()) {
    if (n == s) return true;
  }
  return false;
}

int run(const std::string& input, const std::vector<std::string>& passes, const std::string& targetName,
        const std::string& emit) {
  std::vector<uint8_t> bytes = readFileBytes(input);
  std::string text(bytes.begin(), bytes.end());
  Target target = loadTarget(targetName);
  const SourceLocation where{input, 1, 1};
  if (endsWith(input, ".loop") || endsWith(input, ".te")) {
    bool compute = endsWith(input, ".te");
    loop::Kernel k;
    if (!compute) {
      k = loop::parseKernelFile(input, text);
      if (std::string error = loop::verifyKernel(k); !error.empty()) throw CompileError(where, error);
    }
    for (const auto& pass : passes) {
      if (pass == "schedule-to-loops" && compute) {
        k = codegen::readComputeFile(input, text, target);
        compute = false;
        continue;
      }
      if (compute) throw CompileError(where, "a te.compute file starts with --pass=schedule-to-loops");
      if (!isLoopStage(pass)) throw CompileError(where, "'" + pass + "' does not run on a loop nest");
      k = codegen::runLoopStage(pass, k, target, where);
    }
    if (compute) throw CompileError(where, "a te.compute file starts with --pass=schedule-to-loops");
    if (emit != "asm") {
      std::cout << loop::printKernel(k);
      return 0;
    }
    codegen::KernelCode code = codegen::emitLoops(k, 0, where);
    std::cout << code.name << ": block_dim=" << code.blockDim << "\n";
    for (const auto& inst : code.program) std::cout << "  " << isa::disassemble(inst) << "\n";
    return 0;
  }
  codegen::PipelineState state;
  state.graph = graph::parseGraph(input, text);
  DiagnosticEngine diags;
  registry::RegistryTypeChecker checker(registry::OpRegistry::builtin());  // types and attributes as the frontend infers them
  if (!graph::verifyGraph(state.graph, diags, &checker)) {
    std::cerr << diags.renderAll();
    return 1;
  }
  codegen::CompileOptions options;
  options.sourceFile = input;
  const codegen::StageContext context{target, options, {}};
  codegen::StageIR ir = codegen::StageIR::Graph;
  std::string out = graph::printGraph(state.graph);
  for (const auto& pass : passes) {
    const codegen::Stage& stage = *codegen::findStage(pass);
    if (stage.input != ir) {
      throw CompileError(where, "'" + pass + "' runs on a " + codegen::stageIRName(stage.input) + ", not on a " +
                                    codegen::stageIRName(ir) + (stage.input == codegen::StageIR::LoopNest
                                                                    ? " (give it a .loop or .te file)"
                                                                    : " (run the stages before it first)"));
    }
    out = stage.run(state, context);
    ir = stage.output;
  }
  std::cout << out;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Runs compiler stages on graph, loop-nest or te.compute text and prints the result", "asc-opt"};
  std::string input, target = "ascend310", emit;
  std::vector<std::string> passes;
  bool listPasses = false;
  app.add_flag("--list-passes", listPasses, "print the stages in order (name: input -> output) and exit");
  auto* inputOption =
      app.add_option("input", input, "graph text (as pyasc --emit=graph prints it), a loop nest (.loop) or a te.compute file (.te)");
  auto* passOption = app.add_option("--pass", passes, "a stage to run, in order; repeatable")
                         ->allow_extra_args(false)
                         ->check(CLI::IsMember(pyasc::codegen::stageNames()));
  app.callback([&] {
    if (listPasses) return;
    if (inputOption->empty()) throw CLI::RequiredError(inputOption->get_name());
    if (passOption->empty()) throw CLI::RequiredError(passOption->get_name());
  });
  app.add_option("--target", target, "target for the stages that need one")->capture_default_str();
  app.add_option("--emit", emit, "asm: print the loop nest's instructions instead of the nest")->check(CLI::IsMember({"asm"}));
  PYASC_PARSE(app, argc, argv);
  if (listPasses) {
    for (const auto& stage : pyasc::codegen::stages()) {
      std::cout << stage.name << ": " << pyasc::codegen::stageIRName(stage.input) << " -> "
                << pyasc::codegen::stageIRName(stage.output) << "\n";
    }
    return 0;
  }
  try {
    return run(input, passes, target, emit);
  } catch (const pyasc::CompileError& e) {
    std::cerr << pyasc::DiagnosticEngine().render(e.diagnostic());
  } catch (const std::invalid_argument& e) {
    std::cerr << "asc-opt: error: " << input << ": " << e.what() << "\n";
  }
  return 1;
}
