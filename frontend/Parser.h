// Recursive-descent parser for the Python subset of DESIGN.md §3.
#pragma once

#include <string>

#include "frontend/Ast.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::frontend {

// Parses a module. A syntax error ends parsing and is reported to `diags` (the module is then
// empty); a construct outside the subset (class, lambda, comprehension...) is reported to `diags`
// naming what to write instead, and parsing goes on so that one run reports all of them.
// `lambdas`: accept `lambda a, b: expr` (operator definitions pass index functions to te.compute).
Module parseModule(const std::string& file, const std::string& text, DiagnosticEngine& diags, bool lambdas = false);

}  // namespace pyasc::frontend
