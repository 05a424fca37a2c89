// The frontend's entry points: Python source to a verified graph, or to an AST dump.
#pragma once

#include <string>

#include "frontend/FrontendOptions.h"
#include "sdk/graph/Graph.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::frontend {

// Parses and analyzes `text` (named `file` in diagnostics) into a graph. Every problem is
// reported to `diags` (several per run where analysis can recover); the graph is meaningful
// only when diags.hasErrors() is false.
graph::Graph compileToGraph(const std::string& file, const std::string& text, const FrontendOptions& options,
                            DiagnosticEngine& diags);

// The parsed AST as indented text (--emit=ast); syntax errors are reported to `diags`.
std::string dumpAst(const std::string& file, const std::string& text, DiagnosticEngine& diags);

}  // namespace pyasc::frontend
