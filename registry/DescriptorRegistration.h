// Adds descriptor-defined operators to an operator registry: entry, call spelling, clash checks.
#pragma once

#include <string>
#include <vector>

#include "registry/NumpyAlias.h"
#include "registry/OpDescriptor.h"
#include "registry/OpEntry.h"
#include "registry/OpRegistry.h"

namespace pyasc::registry {

// Custom operators are Function aliases under this prefix, so `custom_relu(x)` in a program is
// looked up as findAlias("custom.custom_relu", AliasForm::Function) and never shadows NumPy names.
std::string customCallName(const std::string& pythonName);  // "custom." + pythonName

// The registry entry of a descriptor: operands with their dtype sets, attributes, inference from the
// shape rule. False with `errors` when an attribute type has no graph attribute (list_float, ...).
bool descriptorEntry(const OpDescriptor& descriptor, OpEntry& entry, std::vector<Diagnostic>& errors);
// The call spelling: the inputs as positional arrays, then the attributes (keywords with defaults).
NumpyAlias descriptorAlias(const OpDescriptor& descriptor);

// Adds every descriptor to `registry` (start from a copy of OpRegistry::builtin()). An op whose name
// is a built-in operator is an error unless it sets `override`; an op or python_name that an earlier
// descriptor registered is an error. Returns false if anything was reported; the others are added.
bool registerDescriptors(const std::vector<OpDescriptor>& descriptors, OpRegistry& registry,
                         std::vector<Diagnostic>& errors);

// The descriptor of `opName` (the registry key) among `descriptors`, or null: how a compiler stage
// finds the definition to parse (`implPath`) for a node of a custom operator.
const OpDescriptor* findDescriptor(const std::vector<OpDescriptor>& descriptors, const std::string& opName);

}  // namespace pyasc::registry
