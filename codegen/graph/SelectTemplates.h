// select-templates: turns the graph into a program. Walks it in order: each fusion group (from
// fuse-elementwise) becomes one elementwise kernel, every other node the launches of the pattern
// template that takes it (codegen/templates), loops become plan loops; values get GM storages.
#pragma once

#include <string>

#include "codegen/graph/Program.h"
#include "codegen/loop/LowerCompute.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Graph.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

struct SelectOptions {
  bool doubleBuffer = true;  // O1 and above
  // O2: convolution tiles from windows of fewer channels too (Conv2dSearch::everyWindow)
  bool wideTileSearch = false;
  std::string sourceFile;
  bool definitionSchedules = true;  // false: every kernel gets the compiler's own schedule
  LoopNestObserver observeLoopNest;  // each te.compute kernel's loop nest after each loop-nest stage
};

// The hint fuse-elementwise puts on each elementwise node: the id of its fusion group. A node
// without one is a group of its own.
constexpr const char* kFusionGroupHint = "fusion_group";

// Throws CompileError at the node's location when an operator or shape has no lowering.
Program selectTemplates(const graph::Graph& graph, const Target& target, const SelectOptions& options);

}  // namespace pyasc::codegen
