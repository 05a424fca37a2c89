// Short loops unrolled: a graph loop of a few trips over small arrays runs as straight-line nodes,
// in one pipeline with its neighbours, instead of a host loop running its body's pipelines once per
// trip (a pipeline's call costs about a microsecond: four trips of a small body cost more than
// NumPy's whole function).
#pragma once

#include "sdk/graph/Graph.h"

namespace pyasc::cpu {

// Unrolls every loop of `graph` (inner loops first) whose body holds no loop, of at most
// `maxTrips` trips, at most 64 nodes once unrolled, and carried values of at most 16,384 elements
// in all (an update of a carried array, written in place in a loop, becomes a new array once
// unrolled). The induction variable of each trip becomes a constant; uses of the loop's results
// become uses of the last trip's values. Returns how many loops.
int unrollShortLoops(graph::Graph& graph, int64_t maxTrips);

}  // namespace pyasc::cpu
