// The descriptor harnesses' one step: descriptor text → operators → registration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pyasc::fuzz {

// Parses `data` as a descriptor file with `extension` (".json" or ".yaml"), then registers the
// operators into a copy of the built-in registry; every error message renders as one line.
void loadDescriptors(const std::string& harness, const std::string& extension, const uint8_t* data, size_t size);

}  // namespace pyasc::fuzz
