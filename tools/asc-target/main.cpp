// asc-target: loads and validates target descriptions (a name or a .yaml path) and prints a summary.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"
#include "tools/CommandLine.h"

namespace {

void printSummary(const pyasc::Target& t) {
  double peakTflops = t.cubeCores * 4096.0 * 2 * t.cubeRateF16 * t.clockMhz * 1e6 / 1e12;
  std::printf("%s: %d cube cores, %d vector cores, %g MHz, %s device memory, UB %s, L1 %s, "
              "L0A %s, L0B %s, L0C %s, %.1f TFLOPS fp16 peak (%s)\n",
              t.name.c_str(), t.cubeCores, t.vectorCores, t.clockMhz, pyasc::humanBytes(t.deviceMemory).c_str(),
              pyasc::humanBytes(t.buffer(pyasc::isa::Space::UB).size).c_str(),
              pyasc::humanBytes(t.buffer(pyasc::isa::Space::L1).size).c_str(),
              pyasc::humanBytes(t.buffer(pyasc::isa::Space::L0A).size).c_str(),
              pyasc::humanBytes(t.buffer(pyasc::isa::Space::L0B).size).c_str(),
              pyasc::humanBytes(t.buffer(pyasc::isa::Space::L0C).size).c_str(), peakTflops, t.file.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Validates pyasc target descriptions (targets/<name>.yaml) and prints a summary of each"};
  std::vector<std::string> targets;
  bool list = false;
  app.add_option("targets", targets, "target names or .yaml files");
  app.add_flag("--list", list, "print the names of the bundled targets");
  PYASC_PARSE(app, argc, argv);
  if (!list && targets.empty()) {  // nothing to do: how to call it
    std::cout << app.help();
    return pyasc::tool::kExitUsage;
  }

  if (list) {
    for (const std::string& name : pyasc::targetNames()) std::cout << name << "\n";
  }
  for (const std::string& name : targets) {
    try {
      printSummary(pyasc::loadTarget(name));
    } catch (const pyasc::CompileError& e) {
      const pyasc::SourceLocation& loc = e.diagnostic().range.begin;
      std::cerr << (loc.file.empty() ? "asc-target" : loc.str()) << ": error: " << e.diagnostic().message << "\n";
      return 1;
    }
  }
  return 0;
}
