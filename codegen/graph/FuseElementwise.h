// fuse-elementwise: decides which elementwise nodes run as one kernel, and marks each elementwise
// node with its group ([fusion_group = N]) for select-templates; at O2 a reduction of a group's
// value gets the group's mark too: its kernel computes the group's expression.
#pragma once

#include "sdk/graph/Graph.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

// Walking the graph in the order select-templates lowers it, an elementwise node joins the current
// group while its element count is the group's, it reads no group value of another count, and the
// kernel's arguments (the group's inputs, the group's values read later, its own result) still
// fit; any other node ends the group (integer arithmetic on loop counters aside: it folds into
// launch arguments). Without `fuse` (O0) every elementwise node is a group of its own. With
// `reductions` (O2), a reduction reading the group's only value read later, and nothing else
// reading it, takes the group (reduceTakesPrologue on that target). Returns the number of groups.
int fuseElementwise(graph::Graph& graph, bool fuse, const Target* reductions = nullptr);

}  // namespace pyasc::codegen
