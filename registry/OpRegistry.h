// The operator registry: entries by name, NumPy aliases, inference and a listing/describe API.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "registry/NumpyAlias.h"
#include "registry/OpEntry.h"
#include "sdk/graph/Verifier.h"

namespace pyasc::registry {

class OpRegistry {
 public:
  // The registry with every built-in operator and NumPy alias.
  static const OpRegistry& builtin();

  // Adds an entry; a second entry with the same name replaces the first.
  void add(OpEntry entry);
  void addAlias(NumpyAlias alias);
  // Attaches a compute/reference implementation; returns false if no such operator.
  bool attachImplementation(const std::string& opName, std::shared_ptr<const OpImplementation> impl);
  // Replaces an operator's inference; returns false if no such operator.
  bool setInfer(const std::string& opName, InferFn infer);

  const OpEntry* find(const std::string& opName) const;
  // Looks a spelling up by form: ("sum", Function), ("sum", Method), ("+", Operator).
  const NumpyAlias* findAlias(const std::string& name, AliasForm form) const;
  std::vector<std::string> opNames() const;  // sorted
  std::vector<const NumpyAlias*> aliases() const;  // sorted by form, then name
  // Names of the given form starting with `prefix` ("" for numpy, "nn." for pyasc.nn), sorted.
  std::vector<std::string> aliasNames(AliasForm form, const std::string& prefix = "") const;

  // Fills defaults and checks attribute kinds; returns an error message or "".
  std::string completeAttrs(graph::Node& node) const;
  // Infers output types of `node` (attributes completed) from `inputs`; false with ctx.error.
  bool infer(const graph::Node& node, const std::vector<graph::TensorType>& inputs,
             std::vector<graph::TensorType>& outputs, std::string& error) const;

  // A multi-line description: category, operands with dtypes, attributes with defaults, aliases.
  std::string describe(const std::string& opName) const;
  // docs/numpy-support.md, generated from the aliases.
  std::string numpySupportMarkdown() const;

 private:
  std::map<std::string, OpEntry> entries_;
  std::map<std::pair<int, std::string>, NumpyAlias> aliases_;
};

// Checks nodes in the verifier against the registry's operand counts, attributes and inference.
class RegistryTypeChecker : public graph::NodeTypeChecker {
 public:
  explicit RegistryTypeChecker(const OpRegistry& registry) : registry_(registry) {}
  std::string check(const graph::Graph& graph, const graph::Node& node) const override;

 private:
  const OpRegistry& registry_;
};

}  // namespace pyasc::registry
