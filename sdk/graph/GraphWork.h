// The unavoidable work of a graph by its semantics: the bytes it must read and write, the
// multiply-accumulates its contractions need. The floors of roofline figures rest on it.
#pragma once

#include <cstdint>

#include "sdk/graph/Graph.h"

namespace pyasc::graph {

struct GraphWork {
  int64_t readBytes = 0;   // of every input, or of the part its only consumers read (gathers, slices)
  int64_t writeBytes = 0;  // of every output
  uint64_t macs = 0;       // of MatMul, Tensordot, Einsum and Conv2D nodes, without padding
};

// Counts static shapes only: a value with an unknown extent contributes nothing.
GraphWork graphWork(const Graph& g);

}  // namespace pyasc::graph
