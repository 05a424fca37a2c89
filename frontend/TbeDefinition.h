// TBE-style operator definitions (`@te_op.register("name")` functions over te.lang.cce) read as
// expansions into built-in operators: parsed by the frontend, never executed.
#pragma once

#include <memory>
#include <string>

#include "registry/OpDescriptor.h"
#include "registry/Expansion.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::frontend {

// Parses the definition of `descriptor` in `file` (its Python source `text`): the function named
// by te_op.register or by the descriptor's Python name, whose first parameters are the inputs and
// the rest attributes. Problems are reported to `diags` with their location; null on error.
std::shared_ptr<const registry::ExpansionImplementation> parseTbeDefinition(const std::string& file,
                                                                            const std::string& text,
                                                                            const registry::OpDescriptor& descriptor,
                                                                            DiagnosticEngine& diags);

}  // namespace pyasc::frontend
