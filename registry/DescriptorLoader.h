// Reads and checks custom-operator descriptor files (.json, .yaml, .yml): a list of ops or one op.
#pragma once

#include <string>
#include <vector>

#include "registry/OpDescriptor.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::registry {

// Every op of the file at `path`; each problem is appended to `errors` (the ops that are valid are
// still returned). `path` is shown in messages as given and anchors relative `impl` paths.
std::vector<OpDescriptor> loadDescriptorFile(const std::string& path, std::vector<Diagnostic>& errors);
// The same for text already in memory; `path` picks the format by its extension.
std::vector<OpDescriptor> parseDescriptors(const std::string& path, const std::string& text,
                                           std::vector<Diagnostic>& errors);

// One line: "file:line:col: error: op 'X': field: problem".
std::string descriptorErrorLine(const Diagnostic& error);

}  // namespace pyasc::registry
