// YAML descriptors: yaml-cpp nodes and their marks, with plain scalars typed by the YAML 1.2 core schema.
#include <algorithm>
#include <cstdlib>
#include <regex>
#include <yaml-cpp/yaml.h>

#include "registry/DescriptorTree.h"

namespace pyasc::registry {

namespace {

// Plain scalars take the core schema's types; quoted ones (tag "!") and explicit !!str stay strings.
void typeScalar(const YAML::Node& yaml, DescriptorNode& node) {
  static const std::regex kInt("[-+]?[0-9]+");
  static const std::regex kFloat("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  static const std::regex kBool("true|True|TRUE|false|False|FALSE");
  static const std::regex kNull("null|Null|NULL|~");
  const std::string& s = yaml.Scalar();
  node.text = s;
  node.kind = DescriptorNode::Kind::String;
  if (yaml.Tag() != "?") return;
  if (std::regex_match(s, kBool)) {
    node.kind = DescriptorNode::Kind::Bool;
    node.boolValue = s[0] == 't' || s[0] == 'T';
  } else if (std::regex_match(s, kNull)) {
    node.kind = DescriptorNode::Kind::Null;
  } else if (std::regex_match(s, kInt)) {
    try {
      node.intValue = std::stoll(s);
      node.kind = DescriptorNode::Kind::Int;
    } catch (const std::out_of_range&) {
      node.floatValue = std::strtod(s.c_str(), nullptr);  // beyond int64: a float (±inf beyond double)
      node.kind = DescriptorNode::Kind::Float;
    }
  } else if (std::regex_match(s, kFloat)) {
    node.floatValue = std::strtod(s.c_str(), nullptr);
    node.kind = DescriptorNode::Kind::Float;
  }
}

DescriptorNode convert(const YAML::Node& yaml) {
  DescriptorNode node;
  const YAML::Mark mark = yaml.Mark();
  if (mark.line >= 0) {  // an implicit null (`key:` with nothing after it) has no mark
    node.line = mark.line + 1;
    node.col = mark.column + 1;
  }
  switch (yaml.Type()) {
    case YAML::NodeType::Scalar: typeScalar(yaml, node); break;
    case YAML::NodeType::Sequence:
      node.kind = DescriptorNode::Kind::List;
      for (const auto& item : yaml) node.items.push_back(convert(item));
      break;
    case YAML::NodeType::Map:
      node.kind = DescriptorNode::Kind::Map;
      for (const auto& entry : yaml) {
        DescriptorNode key = convert(entry.first);
        key.kind = DescriptorNode::Kind::String;
        DescriptorNode value = convert(entry.second);
        if (value.line == 0) {
          value.line = key.line;
          value.col = key.col;
        }
        node.keys.push_back(key);
        node.items.push_back(value);
      }
      break;
    default: node.kind = DescriptorNode::Kind::Null; break;
  }
  return node;
}

}  // namespace

bool readYamlTree(const std::string& file, const std::string& text, DescriptorNode& root, Diagnostic& error) {
  try {
    root = convert(YAML::Load(text));
    if (root.line == 0) root.line = root.col = 1;
  } catch (const YAML::ParserException& e) {
    error.range.begin = SourceLocation{file, e.mark.line + 1, e.mark.column + 1};
    error.message = "not valid YAML: " + e.msg;
    return false;
  }
  return true;
}

}  // namespace pyasc::registry
