// Compile flags, validation and the frontend → pipeline run shared by compile and check.
#include "tools/pyasc/CompileFlags.h"

#include <iostream>

#include "frontend/Frontend.h"
#include "frontend/CustomOps.h"
#include "sdk/graph/Printer.h"
#include "sdk/support/AtomicFile.h"
#include "sdk/target/Target.h"
#include "tools/pyasc/Command.h"

namespace pyasc::tool {

void addCompileFlags(CLI::App& app, CompileFlags& f) {
  app.add_option("input", f.input, "Python program (module script, or a function with --entry)")->required();
  app.add_option("--target", f.target, "target chip: ascend310, ascend310p, ascend910, ascend910b")->capture_default_str();
  app.add_option("--opt-level", f.optLevel,
                 "O0: one kernel per operator; O1: fusion and double buffering; O2: also element loops run as array "
                 "operations, convolutions and pooling written out in NumPy over shifted windows become Conv2D, "
                 "MaxPool2D and AvgPool2D, batch "
                 "norms written out become BatchNorm, constant ones fold into constant "
                 "weights, NCHW convolutions run as NHWC ones with the activations kept in NHWC between them, "
                 "convolutions apply their scale and bias or batch norm, residual add and ReLU in the "
                 "kernel, matmuls their bias add and ReLU, reductions compute the elementwise work they read in their "
                 "kernel, random initialisers are drawn scaled, convolution tiles are "
                 "searched more widely, and intermediates share device memory by liveness")
      ->check(CLI::IsMember({"O0", "O1", "O2"}))
      ->capture_default_str();
  app.add_option("--auto-mixed-precision", f.autoMixedPrecision,
                 "O1: matmuls and convolutions take float16 operands (float32 accumulation and result); O2: also "
                 "the elementwise work between them in float16, reductions, exp/log, division, normalisations and "
                 "outputs in float32")
      ->check(CLI::IsMember({"O1", "O2"}));
  app.add_flag("--enable-memory-opt", f.memoryOpt, "reuse device memory between intermediates by liveness (O2 always does)");
  app.add_flag("--enable-memory-reuse", f.memoryReuse, "reuse device memory between intermediates by liveness (O2 always does)");
  app.add_flag("--default-schedules", f.defaultSchedules,
               "ignore schedules written in operator definitions: the compiler schedules every kernel");
  app.add_option("--custom-op-config", f.customOpConfigs, "custom operator descriptor (JSON or YAML); repeatable")
      ->allow_extra_args(false);
  app.add_option("--dynamic-dims", f.dynamicDims,
                 "ranges of the dimensions --input names (x:float32[N,H,W,3]), in their order or by name: \"1-4,224-256,224-256\" "
                 "or \"N=1-4,H=224-256,W=224-256\"; one model for every shape in them (elementwise work, matmuls over dynamic rows, NHWC convolutions, float32 reductions)");
  app.add_flag("--strict-dtypes", f.strictDtypes, "static typing: no weak Python scalars next to arrays");
  app.add_option("--max-while-trips", f.maxWhileTrips,
                 "the most trips a while loop on array data may run; one more stops the run with an error")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30))
      ->capture_default_str();
  app.add_option("--entry", f.entry, "compile this function instead of the module script");
  app.add_option("--input", f.inputs, "NAME:DTYPE[D0,D1,...] for a function parameter; repeatable")
      ->allow_extra_args(false);
  app.add_option("--const", f.consts, "NAME=VALUE compile-time scalar; repeatable")->allow_extra_args(false);
  app.add_option("--emit", f.emit, "print instead of compiling a model: ast, graph, program")
      ->check(CLI::IsMember({"ast", "graph", "program"}));
  app.add_option("--dump-after", f.dumpAfter, "print the IR after this stage to stderr")
      ->check(CLI::IsMember(codegen::stageNames()));
  app.add_flag("--time-passes", f.timePasses, "print the time of every stage to stderr");
  app.add_option("--report", f.report, "print a remark for every range loop: vectorised, or the reason it is not")
      ->check(CLI::IsMember({"vectorize"}));
}

std::string locatedLine(const Diagnostic& d) {
  return d.range.begin.file.empty() ? d.message : d.range.begin.str() + ": " + d.message;
}

namespace {

CompileFailure failureOf(const std::string& message) {
  if (message.rfind("TypeError:", 0) == 0) return CompileFailure::Type;
  if (message.rfind("MemoryError:", 0) == 0) return CompileFailure::Memory;
  return CompileFailure::Value;
}

}  // namespace

CompileOutcome compileSource(const CompileFlags& f, codegen::CompileResult& result, std::string& emitted,
                             std::vector<CustomOpSource>* customOps) {
  CompileOutcome out;
  auto plainError = [&](const std::string& message) {
    out.printed += "pyasc: error: " + message + "\n";
    if (out.ok()) {
      out.failure = CompileFailure::Value;
      out.firstError = message;
    }
    return out;
  };
  registry::OpRegistry registry = registry::OpRegistry::builtin();
  std::string customErrors;
  std::vector<registry::OpDescriptor> custom = frontend::loadCustomOps(f.customOpConfigs, registry, customErrors);
  if (!customErrors.empty()) {
    out.printed = customErrors;
    out.failure = CompileFailure::Value;
    out.firstError = customErrors.substr(0, customErrors.find('\n'));
    return out;
  }
  for (const auto& d : custom)
    if (customOps) customOps->push_back(CustomOpSource{d.pythonName, d.implPath});
  DiagnosticEngine diags;
  Target target;
  std::string text;
  try {
    target = loadTarget(f.target);
    std::vector<uint8_t> bytes = readFileBytes(f.input);
    text.assign(bytes.begin(), bytes.end());
  } catch (const CompileError& e) {
    const Diagnostic& d = e.diagnostic();
    if (d.range.begin.file.empty()) return plainError(d.message);
    out.printed = DiagnosticEngine().render(d);
    out.failure = CompileFailure::Value;
    out.firstError = locatedLine(d);
    return out;
  }
  diags.addSource(f.input, text);
  frontend::FrontendOptions options;
  options.entry = f.entry;
  options.strictDtypes = f.strictDtypes;
  options.maxWhileTrips = f.maxWhileTrips;
  options.vectorizeLoops = f.optLevel == "O2";
  options.reportVectorize = f.report == "vectorize";
  options.outputs = f.outputs;
  options.target = f.target;
  options.registry = &registry;
  std::vector<std::string> specErrors = frontend::parseSpecs(f.inputs, f.consts, options);
  for (const auto& e : specErrors) plainError(e);
  if (!specErrors.empty()) return out;
  std::vector<frontend::DynamicDim> dynamicDims;
  if (!f.dynamicDims.empty() && f.entry.empty()) {
    return plainError("--dynamic-dims: only a function's parameters have dynamic dimensions; compile the function with "
                      "--entry and name them in --input, e.g. --input=x:float32[N,H,W,3]");
  }
  std::string dynamicError;
  if (!frontend::parseDynamicDims(f.dynamicDims, options.inputs, dynamicDims, dynamicError)) return plainError(dynamicError);
  bool syntax = false;
  try {
    if (f.emit == "ast") {
      emitted = frontend::dumpAst(f.input, text, diags);
    } else {
      frontend::dumpAst(f.input, text, diags);  // syntax errors first: they are SyntaxError in Python
      syntax = diags.hasErrors();
      if (syntax) {
        diags = DiagnosticEngine();
        diags.addSource(f.input, text);
      }
      graph::Graph g = frontend::compileToGraph(f.input, text, options, diags);
      if (!diags.hasErrors()) {
        if (f.emit == "graph") {
          emitted = graph::printGraph(g);
        } else {
          if (!dynamicDims.empty()) frontend::bindDynamicDims(g, dynamicDims);
          codegen::CompileOptions co;
          co.optLevel = f.optLevel[1] - '0';
          co.memoryOpt = f.memoryOpt;
          co.memoryReuse = f.memoryReuse;
          co.ampMode = f.autoMixedPrecision;
          co.definitionSchedules = !f.defaultSchedules;
          co.dumpAfter = f.emit == "program" ? "select-templates" : f.dumpAfter;
          if (f.emit.empty() && !f.dumpAfter.empty()) co.dumpTo = &std::cerr;  // printed even when a later stage fails
          co.sourceFile = f.input;
          co.registry = &registry;
          result = codegen::compileGraph(std::move(g), target, co);
          if (f.emit == "program") emitted = result.dump.substr(result.dump.find('\n') + 1);
        }
      }
    }
  } catch (const CompileError& e) {
    diags.add(e.diagnostic());
  }
  out.printed += diags.renderAll();
  for (const Diagnostic& d : diags.diagnostics()) {
    if (d.severity != Severity::Error) continue;
    out.failure = syntax ? CompileFailure::Syntax : failureOf(d.message);
    out.firstError = locatedLine(d);
    break;
  }
  if (!out.ok()) return out;
  if (f.timePasses) {
    for (const auto& [stage, ms] : result.stageMillis) {
      char line[256];
      std::snprintf(line, sizeof line, "%8.3f ms  %s\n", ms, stage.c_str());
      out.printed += line;
    }
  }
  return out;
}

bool compileProgram(const CompileFlags& f, codegen::CompileResult& result, std::string& emitted,
                    std::vector<CustomOpSource>* customOps) {
  CompileOutcome outcome = compileSource(f, result, emitted, customOps);
  std::cerr << outcome.printed;
  return outcome.ok();
}

}  // namespace pyasc::tool
