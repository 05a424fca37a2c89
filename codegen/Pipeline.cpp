// The whole compiler after the frontend: the one list of stages, each a line.
#include "codegen/Pipeline.h"

#include "codegen/graph/SymbolicShapes.h"

#include <chrono>
#include <functional>
#include <ostream>

#include "codegen/emit/EmitModel.h"
#include "codegen/graph/AutoMixedPrecision.h"
#include "codegen/graph/EliminateDeadNodes.h"
#include "codegen/graph/ExpandComposites.h"
#include "codegen/graph/FoldBatchNorm.h"
#include "codegen/graph/FoldEmptyArrays.h"
#include "codegen/graph/FoldRandomAffine.h"
#include "codegen/graph/ForwardSliceUpdates.h"
#include "codegen/graph/FuseConvEpilogue.h"
#include "codegen/graph/FuseElementwise.h"
#include "codegen/graph/FuseMatmulEpilogue.h"
#include "codegen/graph/KeepNhwc.h"
#include "codegen/graph/NarrowIntegers.h"
#include "codegen/graph/PlanMemory.h"
#include "codegen/graph/ReciprocalDivisors.h"
#include "codegen/graph/RecognizeBatchNorm.h"
#include "codegen/graph/RecognizeConvolution.h"
#include "codegen/graph/RecognizePooling.h"
#include "codegen/graph/SelectSliceUpdates.h"
#include "codegen/graph/SelectTemplates.h"
#include "sdk/graph/Printer.h"

namespace pyasc::codegen {

namespace {

using IR = StageIR;

// A graph stage: its rewrite, then the graph printed.
template <void (*Rewrite)(PipelineState&, const StageContext&)>
std::string graphStage(PipelineState& s, const StageContext& c) {
  Rewrite(s, c);
  return graph::printGraph(s.graph);
}

// Intermediates share device memory by liveness: asked for, or at O2.
bool reusesMemory(const CompileOptions& o) { return o.memoryOpt || o.memoryReuse || o.optLevel >= 2; }

void foldEmpty(PipelineState& s, const StageContext&) { foldEmptyArrays(s.graph); }
void mixedPrecision(PipelineState& s, const StageContext& c) { autoMixedPrecision(s.graph, c.options.ampMode); }
// A graph rewrite that runs at O2 only.
template <int (*Rewrite)(graph::Graph&)>
void atO2(PipelineState& s, const StageContext& c) {
  if (c.options.optLevel >= 2) Rewrite(s.graph);
}
void expand(PipelineState& s, const StageContext& c) { expandComposites(s.graph, c.options.registry, c.target); }
void selectSlices(PipelineState& s, const StageContext&) { selectSliceUpdates(s.graph); }
void forwardSlices(PipelineState& s, const StageContext&) { forwardSliceUpdates(s.graph); }
void eliminate(PipelineState& s, const StageContext&) { eliminateDeadNodes(s.graph); }
void narrow(PipelineState& s, const StageContext&) { narrowIntegers(s.graph); }
void reciprocals(PipelineState& s, const StageContext&) { reciprocalDivisors(s.graph); }
void fuse(PipelineState& s, const StageContext& c) {
  fuseElementwise(s.graph, c.options.optLevel >= 1, c.options.optLevel >= 2 ? &c.target : nullptr);
}

std::string select(PipelineState& s, const StageContext& c) {
  SelectOptions select;
  select.doubleBuffer = c.options.optLevel >= 1;
  select.wideTileSearch = c.options.optLevel >= 2;
  select.sourceFile = c.options.sourceFile;
  select.definitionSchedules = c.options.definitionSchedules;
  select.observeLoopNest = c.observeLoopNest;
  s.program = selectTemplates(s.graph, c.target, select);
  return printProgram(s.program);
}

std::string planStage(PipelineState& s, const StageContext& c) {
  planMemory(s.program, c.target, reusesMemory(c.options));
  return printMemoryPlan(s.program);
}

// Dynamic shapes: the graph with each dynamic extent written over the dimensions' names
// (f32[N,64], f32[N,(H-1)//2+1,(W-1)//2+1,16]), which the CPU backend binds when it runs.
graph::Graph symbolicGraph(const graph::Graph& g) {
  const SymbolicShapes shapes(g);
  if (!shapes.dynamic()) return g;
  graph::Graph named = g;
  for (size_t v = 0; v < g.values.size(); ++v) {
    const std::vector<ShapeExpr>* dims = shapes.dims(static_cast<graph::ValueId>(v));
    if (!dims) continue;
    for (size_t d = 0; d < dims->size(); ++d)
      if (!shape::isConst((*dims)[d])) named.values[v].type.shape[d] = graph::Dim::symbolic(shape::compactText((*dims)[d], shapes.names()));
  }
  return named;
}

std::string emit(PipelineState& s, const StageContext& c) {
  EmitOptions emit;
  emit.flags = (c.options.memoryOpt ? model::kFlagMemoryOpt : 0u) | (reusesMemory(c.options) ? model::kFlagMemoryReuse : 0u) |
               (float16Nodes(s.graph) > 0 ? model::kFlagMixedPrecision : 0u);
  s.model = emitModel(s.program, c.target, emit);
  graph::PrintOptions embedded;
  embedded.declaredDTypes = false;  // the host dtypes section carries them
  s.model.graph = graph::printGraph(symbolicGraph(s.graph), embedded);  // what the kernels compute, for the CPU backend
  return printMemoryPlan(s.model);
}

}  // namespace

const char* stageIRName(StageIR ir) {
  switch (ir) {
    case IR::Graph: return "graph";
    case IR::LoopNest: return "loop nest";
    case IR::Program: return "program";
    case IR::Model: return "model";
  }
  return "?";
}

const std::vector<Stage>& stages() {
  static const std::vector<Stage> all = [] {
    std::vector<Stage> s = {
        {"fold-empty-arrays", IR::Graph, IR::Graph, graphStage<foldEmpty>},
        {"fold-random-affine", IR::Graph, IR::Graph, graphStage<atO2<foldRandomAffine>>},
        {"recognize-convolution", IR::Graph, IR::Graph, graphStage<atO2<recognizeConvolutions>>},
        {"recognize-pooling", IR::Graph, IR::Graph, graphStage<atO2<recognizePooling>>},
        {"recognize-batch-norm", IR::Graph, IR::Graph, graphStage<atO2<recognizeBatchNorms>>},
        {"fold-batch-norm", IR::Graph, IR::Graph, graphStage<atO2<foldBatchNorms>>},
        {"keep-nhwc", IR::Graph, IR::Graph, graphStage<atO2<keepNhwc>>},
        {"fuse-conv-epilogue", IR::Graph, IR::Graph, graphStage<atO2<fuseConvEpilogues>>},
        {"fuse-matmul-epilogue", IR::Graph, IR::Graph, graphStage<atO2<fuseMatmulEpilogues>>},
        {"auto-mixed-precision", IR::Graph, IR::Graph, graphStage<mixedPrecision>},
        {"expand-composites", IR::Graph, IR::Graph, graphStage<expand>},
        {"select-slice-updates", IR::Graph, IR::Graph, graphStage<selectSlices>},
        {"forward-slice-updates", IR::Graph, IR::Graph, graphStage<forwardSlices>},
        {"eliminate-dead-nodes", IR::Graph, IR::Graph, graphStage<eliminate>},
        {"narrow-integers", IR::Graph, IR::Graph, graphStage<narrow>},
        {"reciprocal-divisors", IR::Graph, IR::Graph, graphStage<reciprocals>},
        {"fuse-elementwise", IR::Graph, IR::Graph, graphStage<fuse>},
    };
    for (const auto& name : computeStageNames()) s.push_back({name.c_str(), IR::LoopNest, IR::LoopNest, nullptr});  // inside select-templates
    s.push_back({"select-templates", IR::Graph, IR::Program, select});
    s.push_back({"plan-memory", IR::Program, IR::Program, planStage});
    s.push_back({"emit-model", IR::Program, IR::Model, emit});
    return s;
  }();
  return all;
}

const std::vector<std::string>& stageNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Stage& s : stages()) n.push_back(s.name);
    return n;
  }();
  return names;
}

const Stage* findStage(const std::string& name) {
  for (const Stage& s : stages())
    if (name == s.name) return &s;
  return nullptr;
}

CompileResult compileGraph(graph::Graph g, const Target& target, const CompileOptions& options) {
  CompileResult result;
  auto dump = [&](const std::string& name, const std::string& text) {
    if (options.dumpAfter != name) return;
    result.dump += "// after " + name + "\n" + text;
    if (options.dumpTo) *options.dumpTo << "// after " << name << "\n" << text << std::flush;
  };
  PipelineState state;
  state.graph = std::move(g);
  result.work = graph::graphWork(state.graph);
  StageContext context{target, options, dump};
  for (const Stage& stage : stages()) {
    if (!stage.run) continue;  // a loop-nest stage: inside select-templates
    auto start = std::chrono::steady_clock::now();
    std::string text = stage.run(state, context);
    if (stage.name == std::string("expand-composites")) result.work.macs = graph::graphWork(state.graph).macs;
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result.stageMillis.emplace_back(stage.name, ms);
    dump(stage.name, text);
  }
  result.model = std::move(state.model);
  return result;
}

}  // namespace pyasc::codegen
