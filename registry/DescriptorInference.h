// Shape and dtype inference of a custom operator from its descriptor's shape rule and type columns.
#pragma once

#include "registry/OpDescriptor.h"
#include "registry/OpEntry.h"

namespace pyasc::registry {

// The output dtypes come from the first type column every input matches (msopgen's combinations);
// the output shapes from the shape rule.
InferFn descriptorInfer(const OpDescriptor& descriptor);

}  // namespace pyasc::registry
