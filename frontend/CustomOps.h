// Loads --custom-op-config descriptors into a registry, with each operator's TBE-style definition
// compiled to a TE compute: what pyasc and ascop share.
#pragma once

#include <string>
#include <vector>

#include "registry/OpDescriptor.h"
#include "registry/OpRegistry.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::frontend {

// Parses `text`, the definition of `descriptor` (already registered in `registry`), and attaches
// its compute; problems go to `diags`. False when the definition has errors.
bool attachDefinition(registry::OpRegistry& registry, const registry::OpDescriptor& descriptor,
                      const std::string& text, DiagnosticEngine& diags);

// Registers every operator of `configs` into `registry` (normally a copy of the built-in one) and
// attaches its definition's compute. Descriptor errors are one line each, definition errors full
// diagnostics; both go to `errors` as rendered text. Returns the descriptors, empty on error.
std::vector<registry::OpDescriptor> loadCustomOps(const std::vector<std::string>& configs,
                                                  registry::OpRegistry& registry, std::string& errors);

}  // namespace pyasc::frontend
