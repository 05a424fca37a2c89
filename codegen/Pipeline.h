// The compiler after the frontend: the one list of stages, in order, with --dump-after and
// per-stage timing; asc-opt runs the same stages by the same list.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "codegen/graph/Program.h"
#include "codegen/loop/LowerCompute.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Graph.h"
#include "sdk/graph/GraphWork.h"
#include "sdk/model/Model.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

struct CompileOptions {
  int optLevel = 2;          // 0: one kernel per operator, single buffering; 1: fusion, double buffering; 2: also memory reuse
  bool memoryOpt = false;    // --enable-memory-opt: reuse GM between intermediates by liveness
  bool memoryReuse = false;  // --enable-memory-reuse: the same
  std::string dumpAfter;     // stage name; its result is appended to CompileResult::dump
  std::ostream* dumpTo = nullptr;  // also written here as soon as the stage ends (a later stage may fail)
  bool definitionSchedules = true;  // false: schedules written in operator definitions are ignored
  // --auto-mixed-precision: "" (off but for the pragma's nodes), "O1" or "O2" (codegen/graph/AutoMixedPrecision.h)
  std::string ampMode;
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

// What a stage takes and gives.
enum class StageIR { Graph, LoopNest, Program, Model };
const char* stageIRName(StageIR ir);  // "graph", "loop nest", "program", "model"

// What the stages work on, each stage reading and writing one of them.
struct PipelineState {
  graph::Graph graph;
  Program program;
  model::Model model;
};

struct StageContext {
  const Target& target;
  const CompileOptions& options;
  LoopNestObserver observeLoopNest;  // the loop-nest stages' results, inside select-templates
};

struct Stage {
  const char* name;
  StageIR input, output;
  // Runs the stage on `state`; returns its result as text for --dump-after. Null for the loop-nest
  // stages, which select-templates runs on each te.compute kernel (asc-opt on .loop and .te text).
  std::string (*run)(PipelineState& state, const StageContext& context);
};

// The stages in order: the graph stages, the loop-nest stages, select-templates, plan-memory,
// emit-model. --dump-after, asc-opt --pass and docs/architecture.md name these.
const std::vector<Stage>& stages();
const std::vector<std::string>& stageNames();
const Stage* findStage(const std::string& name);

// Throws CompileError on a program the NPU cannot run (unsupported operator, buffer overflow,
// device memory exceeded).
CompileResult compileGraph(graph::Graph graph, const Target& target, const CompileOptions& options);

}  // namespace pyasc::codegen
