// Recursive-descent parser for the Python subset of DESIGN.md §3.
#pragma once

#include <string>

#include "frontend/Ast.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::frontend {

// Parses a module. A syntax error ends parsing and is reported to `diags` (the module is then
// empty); a construct outside the subset (class, try, set or dict displays...) is reported to `diags`
// naming what to write instead, and parsing goes on so that one run reports all of them.
Module parseModule(const std::string& file, const std::string& text, DiagnosticEngine& diags);

}  // namespace pyasc::frontend
