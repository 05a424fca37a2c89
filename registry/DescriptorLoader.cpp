// Descriptor files: pick the reader by extension, accept a list of ops or one op, reject duplicate ops.
#include "registry/DescriptorLoader.h"

#include <filesystem>

#include "registry/DescriptorEntryReader.h"
#include "registry/DescriptorTree.h"
#include "sdk/support/AtomicFile.h"

namespace pyasc::registry {

namespace {

Diagnostic fileError(const SourceLocation& loc, const std::string& message) {
  Diagnostic diag;
  diag.range.begin = loc;
  diag.message = message;
  return diag;
}

}  // namespace

std::vector<OpDescriptor> loadDescriptorFile(const std::string& path, std::vector<Diagnostic>& errors) {
  std::vector<uint8_t> bytes;
  try {
    bytes = readFileBytes(path);
  } catch (const CompileError& e) {
    errors.push_back(fileError(SourceLocation{path, 0, 0}, e.diagnostic().message));
    return {};
  }
  return parseDescriptors(path, std::string(bytes.begin(), bytes.end()), errors);
}

std::vector<OpDescriptor> parseDescriptors(const std::string& path, const std::string& text,
                                           std::vector<Diagnostic>& errors) {
  const std::string extension = std::filesystem::path(path).extension().string();
  DescriptorNode root;
  Diagnostic syntax;
  if (extension == ".json") {
    if (!readJsonTree(path, text, root, syntax)) {
      errors.push_back(syntax);
      return {};
    }
  } else if (extension == ".yaml" || extension == ".yml") {
    if (!readYamlTree(path, text, root, syntax)) {
      errors.push_back(syntax);
      return {};
    }
  } else {
    errors.push_back(fileError(SourceLocation{path, 0, 0},
                               "a descriptor is a .json, .yaml or .yml file, not '" + extension + "'"));
    return {};
  }
  if (root.kind != DescriptorNode::Kind::List && root.kind != DescriptorNode::Kind::Map) {
    errors.push_back(fileError(root.location(path), std::string("the top level must be a list of ops or one op "
                                                                "object, found ") +
                                                        nodeKindName(root.kind)));
    return {};
  }
  const std::vector<DescriptorNode> entries =
      root.kind == DescriptorNode::Kind::Map ? std::vector<DescriptorNode>{root} : root.items;
  if (entries.empty()) {
    errors.push_back(fileError(root.location(path), "the file declares no ops"));
    return {};
  }
  const std::string folder = std::filesystem::path(path).parent_path().string();
  std::vector<OpDescriptor> ops;
  for (size_t i = 0; i < entries.size(); ++i) {
    OpDescriptor d;
    if (!readOpEntry(entries[i], i, path, folder, d, errors)) continue;
    for (const auto& earlier : ops) {
      const bool sameOp = earlier.op == d.op;
      if (sameOp || earlier.pythonName == d.pythonName) {
        errors.push_back(fileError(d.loc, "op '" + d.op + "': " + (sameOp ? "op: '" + d.op : "python_name: '" + d.pythonName) +
                                              "' is already declared at line " + std::to_string(earlier.loc.line) +
                                              " of this file"));
        break;
      }
    }
    ops.push_back(d);
  }
  return ops;
}

std::string descriptorErrorLine(const Diagnostic& error) { return error.range.begin.str() + ": error: " + error.message; }

}  // namespace pyasc::registry
