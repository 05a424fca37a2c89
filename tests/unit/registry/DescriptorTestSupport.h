// Helpers of the descriptor tests: the Inputs/ folder, parsing text and rendering problems compactly.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "registry/DescriptorLoader.h"
#include "sdk/support/AtomicFile.h"

namespace pyasc::registry::testing {

// Descriptors parsed here sit (virtually) in Inputs/, next to leaky_scale.py and custom_relu.py.
inline std::string inputPath(const std::string& name) {
  return std::string(PYASC_SOURCE_DIR) + "/tests/unit/registry/Inputs/" + name;
}

inline std::string readInput(const std::string& name) {
  const std::vector<uint8_t> bytes = readFileBytes(inputPath(name));
  return std::string(bytes.begin(), bytes.end());
}

// Every problem as "line:col: message", one per line; "" when the text is valid.
inline std::string problemsOf(const std::string& name, const std::string& text) {
  std::vector<Diagnostic> errors;
  parseDescriptors(inputPath(name), text, errors);
  std::string s;
  for (const auto& e : errors) {
    s += (s.empty() ? "" : "\n") + std::to_string(e.range.begin.line) + ":" + std::to_string(e.range.begin.col) +
         ": " + e.message;
  }
  return s;
}

inline std::vector<OpDescriptor> parseValid(const std::string& name, const std::string& text) {
  std::vector<Diagnostic> errors;
  std::vector<OpDescriptor> ops = parseDescriptors(inputPath(name), text, errors);
  for (const auto& e : errors) ADD_FAILURE() << descriptorErrorLine(e);
  return ops;
}

}  // namespace pyasc::registry::testing
