// Whole-file I/O for outputs and inputs: atomic writes (readers never see a partial file) and reads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pyasc {

// Writes `bytes` to a temporary file in the same directory, fsyncs it and renames it over `path`.
// On failure the temporary file is removed and CompileError names the path and the errno text.
// An existing device or pipe (/dev/null) is written directly.
void writeFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes);
void writeFileAtomically(const std::string& path, const std::string& text);

// Reads a whole file; CompileError names the path and the errno text if it cannot be read.
std::vector<uint8_t> readFileBytes(const std::string& path);

}  // namespace pyasc
