// Runs lexer, parser and analysis, then checks the graph with the registry-aware verifier.
#include "frontend/Frontend.h"

#include "frontend/Analyzer.h"
#include "frontend/GraphBuilder.h"
#include "frontend/Parser.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Verifier.h"

namespace pyasc::frontend {

graph::Graph compileToGraph(const std::string& file, const std::string& text, const FrontendOptions& options,
                            DiagnosticEngine& diags) {
  diags.addSource(file, text);
  const registry::OpRegistry& registry = options.registry ? *options.registry : registry::OpRegistry::builtin();
  GraphBuilder builder(registry, diags, options.target, /*demoteFloat64=*/true);
  Module module = parseModule(file, text, diags);
  if (diags.hasErrors()) return graph::Graph();
  Analyzer(options, diags, builder).run(module);
  if (diags.hasErrors()) return graph::Graph();
  graph::Graph graph = std::move(builder.graph());
  if (graph.outputs.empty()) {
    diags.warning(SourceRange{SourceLocation{file, 1, 1}, 0},
                  options.entry.empty() ? "the program has no outputs: a script's outputs are the top-level arrays "
                                          "nothing later reads, and there are none"
                                        : "'" + options.entry + "' returns no arrays: the model has no outputs");
  }
  registry::RegistryTypeChecker checker(registry);
  graph::verifyGraph(graph, diags, &checker);
  return graph;
}

std::string dumpAst(const std::string& file, const std::string& text, DiagnosticEngine& diags) {
  diags.addSource(file, text);
  Module module = parseModule(file, text, diags);
  return diags.hasErrors() ? "" : dumpModule(module);
}

}  // namespace pyasc::frontend
