// Reads the text form written by Printer.h back into a graph.
#pragma once

#include <string>

#include "sdk/graph/Graph.h"

namespace pyasc::graph {

// Parses graph text; throws CompileError at the offending line and column of `file`.
Graph parseGraph(const std::string& file, const std::string& text);

}  // namespace pyasc::graph
