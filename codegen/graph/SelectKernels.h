// Turns a verified graph into a program: storages for values, kernels chosen by compute pattern
// (fused elementwise groups, reductions, cube matmuls, strided copies) and a plan with loops.
#pragma once

#include "codegen/loop/LowerCompute.h"
#include "codegen/graph/Program.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Graph.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

struct SelectOptions {
  bool fuseElementwise = true;  // O1 and above
  bool doubleBuffer = true;     // O1 and above
  std::string sourceFile;
  const registry::OpRegistry* registry = nullptr;  // for custom operators' computes; null: built-ins only
  LoopNestObserver observeLoopNest;
  bool definitionSchedules = true;  // false: every kernel gets the compiler's own schedule  // each te.compute kernel's loop nest after each loop-nest stage
};

// Throws CompileError at the node's location when an operator or shape has no lowering.
Program selectKernels(const graph::Graph& graph, const Target& target, const SelectOptions& options);

}  // namespace pyasc::codegen
