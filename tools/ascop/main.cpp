// ascop: the custom-operator SDK: scaffold, validate, list, describe and export operators.
#include <cstring>
#include <iostream>

#include "frontend/CustomOps.h"
#include "registry/DescriptorLoader.h"
#include "registry/DescriptorRegistration.h"
#include "registry/NameSuggestion.h"
#include "sdk/support/Diagnostics.h"
#include "tools/CommandLine.h"
#include "tools/ascop/Command.h"

namespace pyasc::ascop {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"new", "create NAME/ with a definition, descriptors, reference, test cases and benchmark config", setupNew},
      {"validate", "check descriptor files (default: every *.json and *.yaml descriptor here)", setupValidate},
      {"list", "list the built-in operators and the custom ones of --custom-op-config files", setupList},
      {"info", "describe one operator: operands, dtypes, attributes, spellings", setupInfo},
      {"export", "write a descriptor as msopgen's input JSON or as a TBE op-info .ini", setupExport},
      {"test", "run the operator's test cases on the simulator against its NumPy reference", setupTest},
      {"bench", "simulated cycles, roofline, bytes and energy of the operator over its benchmark sweep", setupBench},
      {"report", "an HTML page of a bench report: roofline charts per target, the table, changes against a baseline", setupReport},
  };
  return table;
}

int reportError(const std::string& message) {
  std::cerr << "ascop: error: " << message << "\n";
  return 1;
}

std::string shellQuoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int reportError(const CompileError& error) {
  const SourceLocation& where = error.diagnostic().range.begin;
  return reportError((where.file.empty() ? "" : where.str() + ": ") + error.diagnostic().message);
}

void reportDescriptorErrors(const std::vector<Diagnostic>& errors) {
  for (const auto& e : errors) std::cerr << registry::descriptorErrorLine(e) << "\n";
}

bool loadCustomOps(const std::vector<std::string>& files, registry::OpRegistry& registry,
                   std::vector<registry::OpDescriptor>& descriptors) {
  std::string errors;
  descriptors = frontend::loadCustomOps(files, registry, errors);
  std::cerr << errors;
  return errors.empty();
}

}  // namespace pyasc::ascop

int main(int argc, char** argv) {
  using namespace pyasc::ascop;
  for (const Command& c : commands()) {
    if (argc > 1 && std::strcmp(argv[1], c.name) == 0) {
      CLI::App app{c.description, std::string("ascop ") + c.name};
      std::function<int()> run = c.setup(app);
      PYASC_PARSE(app, argc - 1, argv + 1);
      return pyasc::runCommand("ascop", run);
    }
  }
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const Command& c : commands()) names.push_back(c.name);
    const std::string guess = pyasc::registry::closestName(argv[1], names);
    reportError("unknown subcommand '" + std::string(argv[1]) + "'" +
                (guess.empty() ? "; see ascop --help" : "; did you mean '" + guess + "'?"));
    return pyasc::tool::kExitUsage;
  }
  std::string footer = "Subcommands:\n";
  for (const Command& c : commands()) {
    footer += "  ascop " + std::string(c.name) + std::string(10 - std::strlen(c.name), ' ') + c.description + "\n";
  }
  CLI::App app{"The pyasc custom-operator SDK", "ascop"};
  app.footer(footer);
  PYASC_PARSE(app, argc, argv);
  std::cout << app.help();
  return pyasc::tool::kExitUsage;
}
