// Export of descriptors to msopgen's input JSON and to the TBE op-info .ini, both deterministic.
#pragma once

#include <string>
#include <vector>

#include "registry/OpDescriptor.h"

namespace pyasc::registry {

// msopgen's input: an array of ops with only msopgen's fields (op, input_desc, output_desc, attr),
// in descriptor order, indented by 4, ending in a newline. Types use the canonical spellings
// ("float16", "float32"), attribute types msopgen's ("int", "listInt").
std::string exportMsopgenJson(const std::vector<OpDescriptor>& descriptors);

// The op-info .ini: one [OpType] section per op, separated by a blank line: inputN/outputN .name,
// .dtype, .format, .paramType; attr.list and attr_<name>.type/.value/.paramType(/.defaultValue);
// opFile.value (the impl file without .py) and opInterface.value (the python_name).
std::string exportTbeIni(const std::vector<OpDescriptor>& descriptors);

}  // namespace pyasc::registry
