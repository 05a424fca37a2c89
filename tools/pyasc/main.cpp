// pyasc: compiles numpy-style Python to an NPU model (.om) and runs, inspects and checks models.
#include <cstring>
#include <cstdlib>
#include <iostream>

#include "sdk/support/Diagnostics.h"
#include "tools/CommandLine.h"
#include "tools/pyasc/Command.h"

namespace pyasc::tool {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"run", "run a model on the simulator: write <output>.npy files and print cycles", setupRun},
      {"info", "describe a model: inputs, outputs, kernels, memory plan", setupInfo},
      {"disasm", "print every kernel's instructions with their source lines", setupDisasm},
      {"check", "run a program under NumPy and compiled on the simulator, and compare", setupCheck},
  };
  return table;
}

void addBackendOption(CLI::App& app, std::string& backend) {
  app.add_option("--backend", backend,
                 "sim: the simulated AI Core (cycles, pipes, energy); cpu: the model's graph compiled for this host "
                 "by Halide (results only)")
      ->check(CLI::IsMember({"sim", "cpu"}))
      ->capture_default_str();
}

std::string parseShapeSpec(const std::string& spec, std::string& name, std::vector<int64_t>& shape) {
  const std::string bad = "--input-shape '" + spec + "': expected NAME=D0,D1,... with positive integers, e.g. x=2,224,224,3";
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) return bad;
  name = spec.substr(0, eq);
  shape.clear();
  size_t start = eq + 1;
  while (start <= spec.size()) {
    size_t comma = spec.find(',', start);
    if (comma == std::string::npos) comma = spec.size();
    const std::string dim = spec.substr(start, comma - start);
    char* end = nullptr;
    const long long v = std::strtoll(dim.c_str(), &end, 10);
    if (dim.empty() || *end != '\0' || v < 1) return bad;
    shape.push_back(v);
    start = comma + 1;
  }
  return "";
}

int reportError(const std::string& message) {
  std::cerr << "pyasc: error: " << message << "\n";
  return 1;
}

int reportError(const CompileError& error, const DiagnosticEngine* sources) {
  const Diagnostic& d = error.diagnostic();
  if (d.range.begin.file.empty()) return reportError(d.message);
  std::cerr << (sources ? sources->render(d) : DiagnosticEngine().render(d));
  return 1;
}

}  // namespace pyasc::tool

int main(int argc, char** argv) {
  using namespace pyasc::tool;
  for (const Command& c : commands()) {
    if (argc > 1 && std::strcmp(argv[1], c.name) == 0) {
      CLI::App app{c.description, std::string("pyasc ") + c.name};
      std::function<int()> run = c.setup(app);
      PYASC_PARSE(app, argc - 1, argv + 1);
      return pyasc::runCommand("pyasc", run);
    }
  }
  std::string footer = "Subcommands:\n";
  for (const Command& c : commands()) footer += "  pyasc " + std::string(c.name) + " ...  " + c.description + "\n";
  CLI::App app{"Compiles a numpy-style Python program into an NPU model (.om)", "pyasc"};
  app.footer(footer);
  std::function<int()> run = setupCompile(app);
  if (argc == 1) {  // nothing to compile: how to call it, not CLI11's missing-argument status
    std::cout << app.help();
    return kExitUsage;
  }
  PYASC_PARSE(app, argc, argv);
  return pyasc::runCommand("pyasc", run);
}
