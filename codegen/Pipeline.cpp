// The whole compiler after the frontend, one stage per line.
#include "codegen/Pipeline.h"

#include <chrono>
#include <functional>
#include <stdexcept>
#include <ostream>

#include "codegen/emit/EmitModel.h"
#include "codegen/graph/EliminateDeadNodes.h"
#include "codegen/graph/ExpandComposites.h"
#include "codegen/graph/ReciprocalDivisors.h"
#include "codegen/graph/SelectKernels.h"
#include "codegen/loop/LowerCompute.h"
#include "sdk/graph/Printer.h"

namespace pyasc::codegen {

const std::vector<std::string>& graphStageNames() {
  static const std::vector<std::string> names = {"expand-composites", "eliminate-dead-nodes", "reciprocal-divisors"};
  return names;
}

void runGraphStage(const std::string& stage, graph::Graph& g, const registry::OpRegistry* registry) {
  if (stage == "expand-composites") {
    expandComposites(g, registry);
  } else if (stage == "eliminate-dead-nodes") {
    eliminateDeadNodes(g);
  } else if (stage == "reciprocal-divisors") {
    reciprocalDivisors(g);
  } else {
    throw std::invalid_argument("'" + stage + "' is not a stage that rewrites the graph");
  }
}

const std::vector<std::string>& stageNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = graphStageNames();
    for (const auto& s : computeStageNames()) n.push_back(s);  // inside select-kernels, per te.compute kernel
    n.push_back("select-kernels");
    n.push_back("emit-model");
    return n;
  }();
  return names;
}



CompileResult compileGraph(graph::Graph g, const Target& target, const CompileOptions& options) {
  CompileResult result;
  auto stage = [&](const std::string& name, const std::function<std::string()>& run) {
    auto start = std::chrono::steady_clock::now();
    std::string dump = run();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result.stageMillis.emplace_back(name, ms);
    if (options.dumpAfter != name) return;
    result.dump += "// after " + name + "\n" + dump;
    if (options.dumpTo) *options.dumpTo << "// after " << name << "\n" << dump << std::flush;
  };
  Program program;
  result.work = graph::graphWork(g);
  for (const std::string& name : graphStageNames()) {
    stage(name, [&] {
      runGraphStage(name, g, options.registry);
      if (name == "expand-composites") result.work.macs = graph::graphWork(g).macs;
      return graph::printGraph(g);
    });
  }
  stage("select-kernels", [&] {
    SelectOptions select;
    select.fuseElementwise = options.optLevel >= 1;
    select.doubleBuffer = options.optLevel >= 1;
    select.sourceFile = options.sourceFile;
    select.registry = options.registry;
    select.definitionSchedules = options.definitionSchedules;
    select.observeLoopNest = [&](const std::string& name, const std::string& text) {
      if (options.dumpAfter != name) return;
      result.dump += "// after " + name + "\n" + text;
      if (options.dumpTo) *options.dumpTo << "// after " << name << "\n" << text << std::flush;
    };
    program = selectKernels(g, target, select);
    return printProgram(program);
  });
  stage("emit-model", [&] {
    EmitOptions emit;
    emit.memoryReuse = options.memoryOpt || options.memoryReuse;
    emit.flags = (options.memoryOpt ? model::kFlagMemoryOpt : 0u) | (options.memoryReuse ? model::kFlagMemoryReuse : 0u);
    result.model = emitModel(program, target, emit);
    return printMemoryPlan(result.model);
  });
  return result;
}

}  // namespace pyasc::codegen
