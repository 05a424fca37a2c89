// Compiles one call of a custom operator for given input shapes and runs it on the simulator:
// the step `ascop test` and `ascop bench` repeat over their cases.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "registry/OpDescriptor.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/GraphWork.h"
#include "runtime/Model.h"

namespace pyasc::ascop {

// One entry of a cases or bench file: input names with their shapes, and attributes as Python
// literals ("[0]", "True", "0.2") passed to the operator by keyword.
struct OperatorCase {
  std::vector<std::pair<std::string, std::vector<int64_t>>> inputs;
  std::vector<std::pair<std::string, std::string>> attrs;
  std::map<std::string, DType> dtypes;  // an input's dtype when it is not the run's
};

struct OperatorRun {
  std::vector<std::pair<std::string, NpyArray>> inputs, outputs;
  RunStats stats;
  double compileMillis = 0, runMillis = 0;
  graph::GraphWork work;  // what the call must read, write and multiply-accumulate: the floors' work
};

// The expression a case evaluates: `callee(<inputs>, <attr>=<value>...)`.
std::string callExpression(const std::string& callee, const OperatorCase& c);

// `def f(<inputs>): return <expression>` (NumPy as np and pyasc's nn in scope) compiled for
// `target` with every input of `dtype`, then, when `simulate`, run with inputs uniform in [-1, 1)
// from `seed`; with `progress`, the simulator's progress line as setProgressOptions(·, *progress)
// sets it; without `definitionSchedules` the schedules written in definitions are ignored. Throws
// CompileError.
OperatorRun runOperator(const std::string& expression, const registry::OpRegistry& registry, const OperatorCase& c,
                        DType dtype, const std::string& target, uint32_t seed, bool sanitize, bool simulate = true,
                        std::optional<bool> progress = std::nullopt, bool definitionSchedules = true);

// The case `ascop validate` compiles an operator with when no cases file gives one: every required
// input [64, 64] (so matmul-like shapes agree), attributes at their defaults. Null when a required
// attribute has no default (`missing` names it).
std::optional<OperatorCase> defaultCase(const registry::OpDescriptor& op, std::string& missing);

// Compiles a call of `op` with the inputs of `c` once per type combination of its descriptor (column
// i of every input's types) for `target`, without running it; throws the first CompileError, its
// message ending with the combination (" (x: float16[64,64], alpha=0.5)").
void compileTypeCombinations(const registry::OpDescriptor& op, const registry::OpRegistry& registry,
                             const OperatorCase& c, const std::string& target);

}  // namespace pyasc::ascop
