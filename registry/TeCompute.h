// An operator implementation given as a TE compute: how custom operators (TBE-style definitions)
// reach the code generator through OpEntry::implementation.
#pragma once

#include <functional>
#include <vector>

#include "registry/OpEntry.h"
#include "sdk/te/Expr.h"

namespace pyasc::registry {

class TeComputeImplementation : public OpImplementation {
 public:
  // Builds the operator's expression from its input expressions (already in the compute dtype)
  // and the node's attributes; throws CompileError for a definition it cannot express.
  using Build = std::function<te::ExprPtr(const std::vector<te::ExprPtr>& inputs, const graph::Node& node, DType dtype)>;

  explicit TeComputeImplementation(Build build) : build_(std::move(build)) {}
  te::ExprPtr build(const std::vector<te::ExprPtr>& inputs, const graph::Node& node, DType dtype) const {
    return build_(inputs, node, dtype);
  }

 private:
  Build build_;
};

}  // namespace pyasc::registry
