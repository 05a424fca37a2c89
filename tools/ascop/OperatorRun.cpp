// runOperator: a generated one-line program through the frontend, the pipeline and the runtime.
#include "tools/ascop/OperatorRun.h"

#include <chrono>

#include "codegen/Pipeline.h"
#include "frontend/Frontend.h"
#include "runtime/Progress.h"
#include "sdk/support/ArrayCompare.h"

namespace pyasc::ascop {

namespace {

DType inputDtype(const OperatorCase& c, const std::string& input, DType runDtype) {
  auto it = c.dtypes.find(input);
  return it == c.dtypes.end() ? runDtype : it->second;
}

}  // namespace

std::string callExpression(const std::string& callee, const OperatorCase& c) {
  std::string args;
  for (const auto& [name, shape] : c.inputs) args += (args.empty() ? "" : ", ") + name;
  for (const auto& [name, literal] : c.attrs) args += (args.empty() ? "" : ", ") + name + "=" + literal;
  return callee + "(" + args + ")";
}

OperatorRun runOperator(const std::string& expression, const registry::OpRegistry& registry, const OperatorCase& c,
                        DType dtype, const std::string& targetName, uint32_t seed, bool sanitize, bool simulate,
                        std::optional<bool> progress, bool definitionSchedules) {
  std::string params, specs;
  frontend::FrontendOptions options;
  options.entry = "f";
  options.target = targetName;
  options.registry = &registry;
  std::vector<std::string> inputSpecs;
  for (const auto& [name, shape] : c.inputs) {
    params += (params.empty() ? "" : ", ") + name;
    std::string dims;
    for (int64_t d : shape) dims += (dims.empty() ? "" : ",") + std::to_string(d);
    inputSpecs.push_back(name + ":" + dtypeName(inputDtype(c, name, dtype)) + "[" + dims + "]");
  }
  for (const auto& e : frontend::parseSpecs(inputSpecs, {}, options)) throw CompileError(SourceLocation{"case"}, e);
  std::string text = "import numpy as np\nfrom pyasc import nn\n\n\ndef f(" + params + "):\n    return " + expression + "\n";
  std::string file = "<case>";
  auto start = std::chrono::steady_clock::now();
  DiagnosticEngine diags;
  diags.addSource(file, text);
  graph::Graph g = frontend::compileToGraph(file, text, options, diags);
  if (diags.hasErrors()) throw CompileError(diags.diagnostics().front());
  Target target = loadTarget(targetName);
  codegen::CompileOptions co;
  co.registry = &registry;
  co.sourceFile = file;
  co.definitionSchedules = definitionSchedules;
  codegen::CompileResult compiled = codegen::compileGraph(std::move(g), target, co);
  auto compiledAt = std::chrono::steady_clock::now();
  OperatorRun run;
  run.work = compiled.work;
  run.compileMillis = std::chrono::duration<double, std::milli>(compiledAt - start).count();
  if (!simulate) return run;
  pyasc::Model net = pyasc::Model::fromImage(compiled.model, file);
  LegacyRandom gen(seed);
  for (const auto& [name, shape] : c.inputs) {
    NpyArray a = uniformArray(inputDtype(c, name, dtype), shape, gen, -1.0, 1.0);
    net.setInput(name, a);
    run.inputs.emplace_back(name, std::move(a));
  }
  RunOptions ro;
  ro.sanitize = sanitize;
  if (progress) setProgressOptions(ro, *progress);
  RunResult r = net.run(ro);
  run.runMillis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - compiledAt).count();
  run.outputs = std::move(r.outputs);
  run.stats = r.stats;
  return run;
}

std::optional<OperatorCase> defaultCase(const registry::OpDescriptor& op, std::string& missing) {
  OperatorCase c;
  for (const auto& in : op.inputs)
    if (in.paramType == registry::ParamType::Required) c.inputs.emplace_back(in.name, std::vector<int64_t>{64, 64});
  for (const auto& a : op.attrs) {
    if (a.paramType == registry::ParamType::Required && !a.defaultValue) {
      missing = a.name;
      return std::nullopt;
    }
  }
  return c;
}

void compileTypeCombinations(const registry::OpDescriptor& op, const registry::OpRegistry& registry,
                             const OperatorCase& c, const std::string& target) {
  const size_t combinations = op.inputs.empty() ? 0 : op.inputs.front().types.size();
  for (size_t column = 0; column < combinations; ++column) {
    OperatorCase typed = c;
    std::string what;
    for (const auto& [name, shape] : c.inputs) {
      const registry::TensorDesc* in = op.findInput(name);
      if (!in || column >= in->types.size()) continue;
      typed.dtypes[name] = in->types[column];
      std::string dims;
      for (int64_t d : shape) dims += (dims.empty() ? "" : ",") + std::to_string(d);
      what += (what.empty() ? "" : ", ") + name + ": " + dtypeName(in->types[column]) + "[" + dims + "]";
    }
    for (const auto& [name, literal] : c.attrs) what += ", " + name + "=" + literal;
    if (typed.dtypes.empty()) continue;
    try {
      runOperator(callExpression(op.pythonName, typed), registry, typed, typed.dtypes.begin()->second, target, 0, false,
                  false);
    } catch (const CompileError& e) {
      Diagnostic d = e.diagnostic();
      d.message += " (" + what + ")";
      throw CompileError(d);
    }
  }
}

}  // namespace pyasc::ascop
