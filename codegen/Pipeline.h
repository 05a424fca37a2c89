// The compiler after the frontend: every stage in order, with --dump-after and per-stage timing.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "registry/OpRegistry.h"
#include "sdk/graph/Graph.h"
#include "sdk/graph/GraphWork.h"
#include "sdk/model/Model.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

struct CompileOptions {
  int optLevel = 2;          // 0: one kernel per operator, single buffering; 1, 2: fusion, double buffering
  bool memoryOpt = false;    // --enable-memory-opt: reuse GM between intermediates by liveness
  bool memoryReuse = false;  // --enable-memory-reuse: the same
  std::string dumpAfter;     // stage name; its result is appended to CompileResult::dump
  std::ostream* dumpTo = nullptr;
  bool definitionSchedules = true;  // false: schedules written in operator definitions are ignored  // also written here as soon as the stage ends (a later stage may fail)
  std::string sourceFile;
  const registry::OpRegistry* registry = nullptr;  // the registry the frontend used (custom operators)
};

struct CompileResult {
  model::Model model;
  // The program's unavoidable work: bytes by the graph as written, MACs once custom and composite
  // operators are expanded into the operators they compute with.
  graph::GraphWork work;
  std::string dump;
  std::vector<std::pair<std::string, double>> stageMillis;
};

// The stage names, in order, for --dump-after and asc-opt: the graph stages, the loop-nest stages
// (run inside select-kernels on each te.compute kernel), select-kernels, emit-model.
const std::vector<std::string>& stageNames();
// The stages that rewrite the graph, in order, and one of them run on `g`.
const std::vector<std::string>& graphStageNames();
void runGraphStage(const std::string& stage, graph::Graph& g, const registry::OpRegistry* registry);

// Throws CompileError on a program the NPU cannot run (unsupported operator, buffer overflow,
// device memory exceeded).
CompileResult compileGraph(graph::Graph graph, const Target& target, const CompileOptions& options);

}  // namespace pyasc::codegen
