// Turns one op entry of a descriptor tree into an OpDescriptor, checking every field.
#pragma once

#include <string>
#include <vector>

#include "registry/DescriptorTree.h"
#include "registry/OpDescriptor.h"

namespace pyasc::registry {

// `index` (0-based) names the entry in messages until its `op` is known; `folder` anchors `impl`.
// Returns false, with one error per problem, when the entry is not a valid op.
bool readOpEntry(const DescriptorNode& entry, size_t index, const std::string& file, const std::string& folder,
                 OpDescriptor& out, std::vector<Diagnostic>& errors);

}  // namespace pyasc::registry
