// Compiles one call of a custom operator for given input shapes and runs it on the simulator:
// the step `ascop test` and `ascop bench` repeat over their cases.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "registry/OpDescriptor.h"
#include "registry/OpRegistry.h"
#include "runtime/Model.h"

namespace pyasc::ascop {

// One entry of a cases or bench file: an input name and its shape.
using CaseShapes = std::vector<std::pair<std::string, std::vector<int64_t>>>;

struct OperatorRun {
  std::vector<std::pair<std::string, NpyArray>> inputs, outputs;
  RunStats stats;
  double compileMillis = 0, runMillis = 0;
  int64_t inputBytes = 0, outputBytes = 0;
};

// `def f(<inputs>): return <python name>(<inputs>)` for the descriptor, compiled for `target`
// with every input of `dtype`, run with inputs uniform in [-1, 1) from `seed`. Throws CompileError.
OperatorRun runOperator(const registry::OpDescriptor& op, const registry::OpRegistry& registry, const CaseShapes& shapes,
                        DType dtype, const std::string& target, uint32_t seed, bool sanitize);

}  // namespace pyasc::ascop
