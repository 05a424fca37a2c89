// asc-fe: runs the frontend on a program (--emit=ast|graph) or parses, verifies and reprints a
// graph file (--parse-graph), for the lit and exact-diagnostic tests.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "frontend/CustomOps.h"
#include "frontend/Frontend.h"
#include "frontend/FrontendOptions.h"
#include "frontend/NumpyPrelude.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Parser.h"
#include "sdk/graph/Printer.h"
#include "sdk/graph/Verifier.h"
#include "sdk/target/Target.h"
#include "tools/CommandLine.h"

namespace {

bool readFile(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

int finish(const pyasc::DiagnosticEngine& diags) {
  std::cerr << diags.renderAll();
  return diags.hasErrors() ? 1 : 0;
}

int parseGraphFile(const std::string& path, bool locations) {
  pyasc::DiagnosticEngine diags;
  std::string text;
  if (!readFile(path, text)) {
    std::cerr << "asc-fe: error: cannot read '" << path << "'\n";
    return 1;
  }
  diags.addSource(path, text);
  try {
    pyasc::graph::Graph graph = pyasc::graph::parseGraph(path, text);
    pyasc::registry::RegistryTypeChecker checker(pyasc::registry::OpRegistry::builtin());
    if (pyasc::graph::verifyGraph(graph, diags, &checker)) {
      std::cout << pyasc::graph::printGraph(graph, pyasc::graph::PrintOptions{locations});
    }
  } catch (const pyasc::CompileError& e) {
    diags.add(e.diagnostic());
  }
  return finish(diags);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"asc-fe: pyasc frontend driver for tests"};
  std::string inputFile, emit = "graph", parseGraphPath;
  std::vector<std::string> inputs, consts;
  pyasc::frontend::FrontendOptions options;
  bool noLocations = false, printNumpySupport = false, listOps = false;
  std::string describeOp;
  std::vector<std::string> customOpConfigs;
  app.add_option("file", inputFile, "the Python program");
  app.add_option("--emit", emit, "what to print: ast or graph")->check(CLI::IsMember({"ast", "graph"}));
  app.add_option("--entry", options.entry, "the entry function (default: the module is a script)");
  // One value per occurrence, so a following positional file name is not taken as a spec.
  app.add_option("--input", inputs, "an array parameter: NAME:DTYPE[D0,D1,...]")
      ->allow_extra_args(false);
  app.add_option("--const", consts, "a compile-time scalar: NAME=VALUE")
      ->allow_extra_args(false);
  app.add_flag("--strict-dtypes", options.strictDtypes, "no weak Python scalars next to arrays");
  app.add_option("--max-while-trips", options.maxWhileTrips, "the most trips a while loop on array data may run")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
  bool noVectorize = false;
  std::string report;
  app.add_flag("--no-vectorize", noVectorize, "keep element loops as loops (pyasc's O0 and O1)");
  app.add_option("--report", report, "vectorize: a remark for every range loop, vectorised or why not")
      ->check(CLI::IsMember({"vectorize"}));
  app.add_option("--target", options.target, "the target whose capabilities apply (default ascend310)");
  app.add_option("--custom-op-config", customOpConfigs, "custom operator descriptors (JSON or YAML); repeatable")
      ->allow_extra_args(false);
  app.add_option("--parse-graph", parseGraphPath, "parse, verify and print a graph text file");
  app.add_flag("--no-locations", noLocations, "omit loc(...) from printed graphs");
  app.add_flag("--print-numpy-support", printNumpySupport, "print docs/numpy-support.md from the registry");
  app.add_option("--describe", describeOp, "describe a registry operator");
  app.add_flag("--list-ops", listOps, "list the registry's operators: name, category, summary");
  PYASC_PARSE(app, argc, argv);
  options.vectorizeLoops = !noVectorize;
  options.reportVectorize = report == "vectorize";

  if (printNumpySupport) {
    std::cout << pyasc::registry::OpRegistry::builtin().numpySupportMarkdown() << pyasc::frontend::numpyPreludeMarkdown();
    return 0;
  }
  if (listOps) {
    const auto& registry = pyasc::registry::OpRegistry::builtin();
    for (const std::string& name : registry.opNames()) {
      const pyasc::registry::OpEntry* e = registry.find(name);
      std::printf("%-14s %-14s %s\n", name.c_str(), pyasc::registry::categoryName(e->category), e->summary.c_str());
    }
    return 0;
  }
  if (!describeOp.empty()) {
    const std::string text = pyasc::registry::OpRegistry::builtin().describe(describeOp);
    if (text.empty()) {
      std::cerr << "asc-fe: error: unknown operator '" << describeOp << "'\n";
      return 1;
    }
    std::cout << text;
    return 0;
  }
  if (!parseGraphPath.empty()) return parseGraphFile(parseGraphPath, !noLocations);
  if (inputFile.empty()) {
    std::cerr << "asc-fe: error: no input file\n";
    return pyasc::tool::kExitUsage;
  }
  pyasc::DiagnosticEngine diags;
  for (const std::string& message : pyasc::frontend::parseSpecs(inputs, consts, options)) {
    diags.error(pyasc::SourceRange{}, message);
  }
  const std::vector<std::string> targets = pyasc::targetNames();
  if (!targets.empty() && std::find(targets.begin(), targets.end(), options.target) == targets.end()) {
    std::string known;
    for (const auto& t : targets) known += (known.empty() ? "" : ", ") + t;
    diags.error(pyasc::SourceRange{}, "unknown target '" + options.target + "'; known targets: " + known);
  }
  pyasc::registry::OpRegistry registry = pyasc::registry::OpRegistry::builtin();
  if (!customOpConfigs.empty()) {  // registered with their definitions' computes, as pyasc compile does
    std::string errors;
    pyasc::frontend::loadCustomOps(customOpConfigs, registry, errors);
    if (!errors.empty()) {  // after the diagnostics so far (an unknown target)
      finish(diags);
      std::cerr << errors;
      return 1;
    }
    options.registry = &registry;
  }
  if (diags.hasErrors()) return finish(diags);
  std::string text;
  if (!readFile(inputFile, text)) {
    std::cerr << "asc-fe: error: cannot read '" << inputFile << "'\n";
    return 1;
  }
  if (emit == "ast") {
    const std::string dump = pyasc::frontend::dumpAst(inputFile, text, diags);
    if (!diags.hasErrors()) std::cout << dump;
    return finish(diags);
  }
  pyasc::graph::Graph graph = pyasc::frontend::compileToGraph(inputFile, text, options, diags);
  if (!diags.hasErrors()) std::cout << pyasc::graph::printGraph(graph, pyasc::graph::PrintOptions{!noLocations});
  return finish(diags);
}
