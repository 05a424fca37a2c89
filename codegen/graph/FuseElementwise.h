// fuse-elementwise: decides which elementwise nodes run as one kernel, and marks each elementwise
// node with its group ([fusion_group = N]) for select-templates.
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// Walking the graph in the order select-templates lowers it, an elementwise node joins the current
// group while its element count is the group's, it reads no group value of another count, and the
// kernel's arguments (the group's inputs, the group's values read later, its own result) still
// fit; any other node ends the group (integer arithmetic on loop counters aside: it folds into
// launch arguments). Without `fuse` (O0) every elementwise node is a group of its own. Returns the
// number of groups.
int fuseElementwise(graph::Graph& graph, bool fuse);

}  // namespace pyasc::codegen
