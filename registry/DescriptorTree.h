// A descriptor file read into typed values with their source positions, the same for JSON and YAML.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/support/Diagnostics.h"

namespace pyasc::registry {

struct DescriptorNode {
  enum class Kind : uint8_t { Null, Bool, Int, Float, String, List, Map };
  Kind kind = Kind::Null;
  bool boolValue = false;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string text;                   // a String's value; the source spelling of other scalars
  std::vector<DescriptorNode> items;  // a List's elements, or a Map's values
  std::vector<DescriptorNode> keys;   // a Map's keys (String nodes), parallel to `items`
  int line = 0;                       // 1-based
  int col = 0;                        // 1-based

  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float; }
  double number() const { return kind == Kind::Int ? static_cast<double>(intValue) : floatValue; }
  // A Map's value for `key`, or null.
  const DescriptorNode* field(const std::string& key) const;
  SourceLocation location(const std::string& file) const { return SourceLocation{file, line, col}; }
};

// "null", "a boolean", "an integer", "a number", "a string", "a list", "an object"
const char* nodeKindName(DescriptorNode::Kind kind);

// Read the text of a descriptor file; a syntax error comes back in `error` at its position
// (for JSON computed from nlohmann's byte offset, for YAML from yaml-cpp's mark).
bool readJsonTree(const std::string& file, const std::string& text, DescriptorNode& root, Diagnostic& error);
bool readYamlTree(const std::string& file, const std::string& text, DescriptorNode& root, Diagnostic& error);

}  // namespace pyasc::registry
